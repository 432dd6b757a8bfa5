#include "commitlab/sim/real_env.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <new>
#include <string>
#include <vector>

#include "commitlab/core/mutex.h"

namespace commitlab::sim {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

// Records which writer reached which point; never fails.
class RecordingPlan : public FaultPlan {
 public:
  FaultDecision Check(std::string_view writer, std::string_view point, Rng&) override {
    MutexLock lock(&mu_);
    seen_.push_back(std::string(writer) + "@" + std::string(point));
    return {};
  }
  std::vector<std::string> seen() {
    MutexLock lock(&mu_);
    return seen_;
  }

 private:
  Mutex mu_;
  std::vector<std::string> seen_ GUARDED_BY(mu_);
};

TEST(RealEnvTest, FaultPlansSeeTheWriterOfTheCallingThread) {
  RecordingPlan plan;
  RealEnv env(7, &plan);
  Status a, b;
  ASSERT_TRUE(env.RunThreads({{"job-A", [&] { a = env.FaultPoint("publish.before"); }},
                              {"job-B", [&] { b = env.FaultPoint("manifest.after"); }}})
                  .ok());
  EXPECT_TRUE(a.ok());
  EXPECT_TRUE(b.ok());
  EXPECT_THAT(plan.seen(), UnorderedElementsAre("job-A@publish.before", "job-B@manifest.after"));
  // Outside RunThreads a thread has no writer name.
  ASSERT_TRUE(env.FaultPoint("commit.before").ok());
  EXPECT_EQ(plan.seen().back(), "@commit.before");
}

TEST(RealEnvTest, EachWriterDrawsFromAStreamDerivedFromTheSeedAndItsIndex) {
  auto first_draws = [](uint64_t seed) {
    RealEnv env(seed);
    std::vector<uint64_t> draws(3);
    EXPECT_TRUE(env.RunThreads({{"job-A", [&] { draws[0] = env.rng().Next(); }},
                                {"job-B", [&] { draws[1] = env.rng().Next(); }},
                                {"job-C", [&] { draws[2] = env.rng().Next(); }}})
                    .ok());
    return draws;
  };
  const std::vector<uint64_t> one = first_draws(42);
  EXPECT_EQ(one, first_draws(42));  // whatever order the OS runs the threads in
  EXPECT_NE(one, first_draws(43));
  EXPECT_EQ(one[1], Rng(DeriveSeed(42, 1)).Next());
}

// A writer that retries without end (every fault point passes) stops only because the budget runs
// out: the loop below would never end otherwise, and ctest's timeout would fail the test.
TEST(RealEnvTest, TheWallClockBudgetStopsWritersThatWouldRunForever) {
  RealEnv env(1);
  env.set_max_wall_micros(20'000);
  Status last_a, last_b;
  auto forever = [&env](Status* last) {
    while ((*last = env.FaultPoint("publish.before")).ok()) env.SleepMicros(1'000);
  };
  ASSERT_TRUE(env.RunThreads({{"job-A", [&] { forever(&last_a); }}, {"job-B", [&] { forever(&last_b); }}}).ok());
  EXPECT_TRUE(last_a.code() == Code::kCrashed) << last_a.ToString();
  EXPECT_THAT(last_b.ToString(), HasSubstr("the --max-wall-time budget"));
  EXPECT_THAT(env.stopped_by_budget(), UnorderedElementsAre("job-A", "job-B"));
}

TEST(RealEnvTest, NoSleepOutlastsTheBudget) {
  RealEnv env(1);
  env.set_max_wall_micros(10'000);
  env.SleepMicros(int64_t{3600} * 1'000'000);  // an hour, cut to what is left of 10 ms
  EXPECT_TRUE(env.over_budget());
  // The main thread is no writer: it is not listed as stopped.
  EXPECT_TRUE(env.FaultPoint("publish.before").code() == Code::kCrashed);
  EXPECT_TRUE(env.stopped_by_budget().empty());
}

// A test's main thread outlives each env it uses. An env built where an old one was (the same
// address) is new to the thread: a fresh stream from its own seed, and the thread is no writer.
TEST(RealEnvTest, ANewEnvAtAnOldEnvsAddressIsNewToTheThread) {
  // Placement new in one buffer, not std::optional: the same address for sure, and no false
  // maybe-uninitialized from GCC 12 at -O2 with TSan.
  alignas(RealEnv) unsigned char storage[sizeof(RealEnv)];
  RealEnv* env = new (storage) RealEnv(1);
  const uint64_t first_draw = env->rng().Next();
  env->~RealEnv();
  env = new (storage) RealEnv(1);
  EXPECT_EQ(env->rng().Next(), first_draw);
  env->set_max_wall_micros(1);
  env->SleepMicros(1'000);
  EXPECT_TRUE(env->FaultPoint("publish.before").code() == Code::kCrashed);
  EXPECT_TRUE(env->stopped_by_budget().empty());
  env->~RealEnv();
}

TEST(RealEnvTest, WithoutABudgetNothingIsStopped) {
  RealEnv env(1);
  EXPECT_FALSE(env.over_budget());
  EXPECT_TRUE(env.FaultPoint("publish.before").ok());
}

}  // namespace
}  // namespace commitlab::sim
