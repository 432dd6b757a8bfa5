#include "commitlab/process/table_writer.h"

#include <unistd.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <thread>
#include <vector>

#include "commitlab/core/paimon/user_claim.h"
#include "commitlab/sim/table_dir_check.h"

namespace commitlab::process {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class TableWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "commitlab-writer-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    tmp_ = pattern;
    dir_ = tmp_ + "/t";
  }
  void TearDown() override { fs::remove_all(tmp_); }

  TableWriterOptions Options(const std::string& user, int64_t commits) {
    return {.dir = dir_, .user = user, .commits = commits};
  }

  Result<TableWriterResult> Run(const TableWriterOptions& o, std::vector<Ack>* acks = nullptr) {
    std::vector<Ack> local;
    std::vector<Ack>* into = acks != nullptr ? acks : &local;
    return RunTableWriter(o, [into](const Ack& a) { into->push_back(a); });
  }

  std::string tmp_, dir_;
};

TEST_F(TableWriterTest, CreatesTheTableAndAcknowledgesEachCommit) {
  std::vector<Ack> acks;
  Result<TableWriterResult> r = Run(Options("job-A", 4), &acks);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->error, "");
  EXPECT_EQ(r->resumed_after, 0);
  EXPECT_EQ(r->acknowledged, 4);
  EXPECT_EQ(r->last_identifier, 4);
  ASSERT_EQ(acks.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(acks[i].user, "job-A");
    EXPECT_EQ(acks[i].identifier, static_cast<int64_t>(i + 1));
    EXPECT_EQ(acks[i].snapshot, static_cast<int64_t>(i + 1));
  }
  Result<sim::TableDirReport> check = sim::CheckTableDir(dir_);
  ASSERT_TRUE(check.ok());
  EXPECT_TRUE(check->sound());
  EXPECT_EQ(check->latest_snapshot(), 4);
  EXPECT_THAT(check->leftovers, IsEmpty());
}

TEST_F(TableWriterTest, ARestartResumesAfterTheUsersNewestIdentifier) {
  ASSERT_TRUE(Run(Options("job-A", 3)).ok());
  ASSERT_TRUE(Run(Options("job-B", 2)).ok());
  std::vector<Ack> acks;
  Result<TableWriterResult> r = Run(Options("job-A", 2), &acks);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->resumed_after, 3);
  ASSERT_EQ(acks.size(), 2u);
  EXPECT_EQ(acks[0].identifier, 4);
  EXPECT_EQ(acks[0].snapshot, 6);
  // --until finishes a job: identifiers up to 6, whatever is already committed.
  TableWriterOptions until = Options("job-A", 0);
  until.commits.reset();
  until.until = 6;
  ASSERT_TRUE(Run(until, &acks).ok());
  EXPECT_EQ(acks.back().identifier, 6);
  Result<TableWriterResult> done = Run(until);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->acknowledged, 0);
  EXPECT_EQ(done->resumed_after, 6);
}

TEST_F(TableWriterTest, FileNamesDifferBetweenWritersWithOneSeed) {
  ASSERT_TRUE(Run(Options("job-A", 1)).ok());
  ASSERT_TRUE(Run(Options("job-A", 1)).ok());
  Result<sim::TableDirReport> check = sim::CheckTableDir(dir_);
  ASSERT_TRUE(check.ok());
  ASSERT_EQ(check->chain.size(), 2u);
  EXPECT_NE(check->chain[0].delta_manifest, check->chain[1].delta_manifest);
  EXPECT_NE(check->chain[0].changes[0].file.name, check->chain[1].changes[0].file.name);
}

TEST_F(TableWriterTest, ThreadsWithTheirOwnUsersAllLand) {
  constexpr int kCommits = 15;
  constexpr size_t kWriters = 4;
  std::vector<std::vector<Ack>> acks(kWriters);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      Result<TableWriterResult> r = Run(Options(fmt::format("job-{}", i), kCommits), &acks[i]);
      EXPECT_TRUE(r.ok() && r->error.empty()) << (r.ok() ? r->error : r.status().ToString());
    });
  }
  for (std::thread& t : threads) t.join();
  Result<sim::TableDirReport> check = sim::CheckTableDir(dir_);
  ASSERT_TRUE(check.ok());
  EXPECT_TRUE(check->sound());
  EXPECT_EQ(check->latest_snapshot(), static_cast<int64_t>(kWriters) * kCommits);
  for (size_t i = 0; i < kWriters; ++i) {
    ASSERT_EQ(acks[i].size(), static_cast<size_t>(kCommits));
    for (const Ack& a : acks[i]) {
      const Snapshot& s = check->chain.at(static_cast<size_t>(a.snapshot - 1));
      EXPECT_EQ(s.commit_user, a.user);
      EXPECT_EQ(s.commit_identifier, a.identifier);
    }
  }
}

TEST_F(TableWriterTest, AUserHeldByAnotherWriterIsRefused) {
  ASSERT_TRUE(Run(Options("job-A", 1)).ok());
  Result<UserClaim> held = UserClaim::Take(dir_ + "/lock", "job-A");
  ASSERT_TRUE(held.ok());
  Result<TableWriterResult> r = Run(Options("job-A", 1));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("commit user job-A is taken by another live process"));
}

TEST_F(TableWriterTest, ADamagedTableIsRefusedNamingTheFile) {
  ASSERT_TRUE(Run(Options("job-A", 3)).ok());
  fs::remove(dir_ + "/snapshot/snapshot-1");
  Result<TableWriterResult> r = Run(Options("job-A", 1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("refusing to write into a damaged table: gap: " + dir_ +
                                              "/snapshot/snapshot-1 does not exist"));
  EXPECT_FALSE(fs::exists(dir_ + "/snapshot/snapshot-4"));
}

TEST_F(TableWriterTest, ADirectoryOfOtherFilesIsNotATable) {
  fs::create_directories(dir_);
  std::ofstream(dir_ + "/notes.txt") << "mine";
  Result<TableWriterResult> r = Run(Options("job-A", 1));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("holds files but no snapshot/ directory"));
  EXPECT_FALSE(fs::exists(dir_ + "/snapshot"));
}

TEST_F(TableWriterTest, BadOptionsAreRefused) {
  TableWriterOptions both = Options("job-A", 1);
  both.until = 3;
  EXPECT_THAT(Run(both).status().message(), HasSubstr("give one of --commits and --until"));
  EXPECT_THAT(Run(Options("a/b", 1)).status().message(), HasSubstr("--user 'a/b'"));
  EXPECT_THAT(Run(Options("job-A", -1)).status().message(), HasSubstr("--commits -1 is out of range"));
}

TEST_F(TableWriterTest, AFailedCommitStopsTheWriterWithItsError) {
  TableWriterOptions o = Options("job-A", 5);
  Result<sim::FaultRule> crash = sim::ParseFaultRule("job-A:publish.before:nth=3:crash");
  ASSERT_TRUE(crash.ok());
  o.faults = {*crash};
  std::vector<Ack> acks;
  Result<TableWriterResult> r = Run(o, &acks);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->error_code, Code::kCrashed);
  EXPECT_EQ(acks.size(), 2u);
  EXPECT_EQ(r->fired_faults.size(), 1u);
}

}  // namespace
}  // namespace commitlab::process
