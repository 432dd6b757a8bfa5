#include "commitlab/sim/wake_queue.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <utility>

#include "commitlab/core/rng.h"

namespace commitlab::sim {
namespace {

TEST(WakeQueueTest, PopsInWakeOrder) {
  WakeQueue q;
  for (int64_t wake : {50, 10, 40, 30, 20}) q.Push({wake, static_cast<int>(wake / 10)});
  ASSERT_EQ(q.size(), 5u);
  for (int64_t want : {10, 20, 30, 40, 50}) {
    ASSERT_FALSE(q.empty());
    EXPECT_EQ(q.earliest().wake_micros, want);
    EXPECT_EQ(q.earliest().writer, want / 10);
    q.PopEarliest();
  }
  EXPECT_TRUE(q.empty());
}

TEST(WakeQueueTest, ReplaceEarliestIsPopThenPush) {
  WakeQueue q;
  q.Push({10, 0});
  q.Push({20, 1});
  q.ReplaceEarliest({30, 0});  // later than the rest: it sinks
  EXPECT_EQ(q.earliest().writer, 1);
  q.ReplaceEarliest({5, 1});  // earlier than the rest: it stays on top
  EXPECT_EQ(q.earliest().wake_micros, 5);
  EXPECT_EQ(q.size(), 2u);
}

// SimEnv clamps a wake-up time to INT64_MAX, the sentinels' own value: such entries still count
// and come out last, whatever side of a pair they sit on.
TEST(WakeQueueTest, EntriesWakingAtTheLastInstantStillCount) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  WakeQueue q;
  for (int64_t wake : {kMax, int64_t{5}, kMax, int64_t{7}, kMax}) q.Push({wake, 0});
  for (int64_t want : {int64_t{5}, int64_t{7}}) {
    EXPECT_EQ(q.earliest().wake_micros, want);
    q.PopEarliest();
  }
  q.ReplaceEarliest({kMax, 1});
  EXPECT_EQ(q.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(q.earliest().wake_micros, kMax);
    q.PopEarliest();
  }
  EXPECT_TRUE(q.empty());
}

// Random pushes, pops and replaces against an ordered multiset of wake times; ties are common
// (times drawn from a small range), and the queue must give back the earliest time each time.
TEST(WakeQueueTest, AgreesWithAnOrderedSetUnderRandomOperations) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    WakeQueue q;
    std::multiset<std::pair<int64_t, int>> want;
    int next_writer = 0;
    for (int op = 0; op < 2000; ++op) {
      const auto wake = static_cast<int64_t>(rng.Below(64));
      const uint64_t choice = rng.Below(3);
      // The first 800 operations mostly push, so the heap grows several levels deep.
      const bool push = op < 800 ? rng.Below(4) != 0 : choice == 0;
      if (want.empty() || push) {
        q.Push({wake, next_writer});
        want.insert({wake, next_writer++});
      } else {
        ASSERT_EQ(q.earliest().wake_micros, want.begin()->first) << "seed " << seed << " op " << op;
        // Any writer due at the earliest time may be on top; it must be one of them.
        const WakeQueue::Entry top = q.earliest();
        const auto it = want.find({top.wake_micros, top.writer});
        ASSERT_NE(it, want.end()) << "seed " << seed << " op " << op;
        want.erase(it);
        if (choice == 1) {
          q.PopEarliest();
        } else {
          q.ReplaceEarliest({wake, next_writer});
          want.insert({wake, next_writer++});
        }
      }
      ASSERT_EQ(q.size(), want.size());
    }
  }
}

}  // namespace
}  // namespace commitlab::sim
