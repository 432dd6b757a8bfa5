// Real-thread races (the lecture's scenario 1, scaled): whatever the OS scheduler does, every
// commit lands exactly once. Runs under TSan in the tsan preset.
#include "commitlab/sim/race.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>

#include "commitlab/core/dir_store.h"
#include "commitlab/core/memory_store.h"

namespace commitlab::sim {
namespace {

struct RaceCase {
  std::string store;
  int writers;
};

class ThreadRaceTest : public ::testing::TestWithParam<RaceCase> {
 protected:
  void SetUp() override {
    if (GetParam().store == "memory") {
      store_ = std::make_unique<MemoryStore>();
      return;
    }
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("commitlab-race-test-{}-{}", getpid(), GetParam().writers);
    std::filesystem::remove_all(dir_);
    auto opened = DirStore::Open(dir_.string());
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    store_ = std::move(*opened);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  std::unique_ptr<SnapshotStore> store_;
  std::filesystem::path dir_;
};

TEST_P(ThreadRaceTest, EveryCommitLandsExactlyOnce) {
  constexpr int kCommits = 100;
  const int writers = GetParam().writers;
  // Unlimited jittered retries: with 8 writers on a slow (sanitized) directory store, Paimon's 10
  // retries can run out, which is a give-up, not the lost or doubled commit this test looks for.
  Result<RetryPolicy> policy = ParseRetryPolicy("full-jitter:base=1ms,cap=20ms");
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  RaceConfig config{.writers = writers, .commits = kCommits, .policy = *policy};
  NullEventSink sink;
  RaceReport report = RunRace(config, store_.get(), &sink);

  EXPECT_TRUE(report.violations.empty()) << report.violations.front();
  EXPECT_EQ(report.failed_jobs, 0);
  ASSERT_EQ(report.latest_snapshot, writers * kCommits);

  std::vector<Snapshot> chain;
  ASSERT_TRUE(ReadChain(store_.get(), &chain).ok());
  ASSERT_EQ(chain.size(), static_cast<size_t>(writers * kCommits));
  std::map<std::string, std::set<int64_t>> identifiers;
  for (size_t i = 0; i < chain.size(); ++i) {
    EXPECT_EQ(chain[i].id, static_cast<int64_t>(i + 1));
    EXPECT_EQ(chain[i].parent_id, static_cast<int64_t>(i));
    EXPECT_TRUE(identifiers[chain[i].commit_user].insert(chain[i].commit_identifier).second)
        << chain[i].commit_user << " committed identifier " << chain[i].commit_identifier << " twice";
  }
  ASSERT_EQ(identifiers.size(), static_cast<size_t>(writers));
  for (const auto& [user, ids] : identifiers) {
    EXPECT_EQ(ids.size(), static_cast<size_t>(kCommits)) << user;
    EXPECT_EQ(*ids.begin(), 1) << user;
    EXPECT_EQ(*ids.rbegin(), kCommits) << user;
  }
  int64_t attempts = 0, failures = 0;
  for (const WriterReport& w : report.writers) {
    attempts += w.attempts;
    failures += w.atomic_failures;
  }
  EXPECT_EQ(attempts, writers * kCommits + failures);  // every failed attempt was retried once more
  EXPECT_EQ(chain.back().total_records, writers * kCommits);
}

INSTANTIATE_TEST_SUITE_P(StoresAndWriters, ThreadRaceTest,
                         ::testing::Values(RaceCase{"memory", 2}, RaceCase{"memory", 4}, RaceCase{"memory", 8},
                                           RaceCase{"dir", 2}, RaceCase{"dir", 4}, RaceCase{"dir", 8}),
                         [](const ::testing::TestParamInfo<RaceCase>& param_info) {
                           return fmt::format("{}_{}", param_info.param.store, param_info.param.writers);
                         });

TEST(WriterNameTest, FollowsTheLecturesNaming) {
  EXPECT_EQ(WriterName(0), "job-A");
  EXPECT_EQ(WriterName(1), "job-B");
  EXPECT_EQ(WriterName(25), "job-Z");
  EXPECT_EQ(WriterName(26), "job-27");
}

}  // namespace
}  // namespace commitlab::sim
