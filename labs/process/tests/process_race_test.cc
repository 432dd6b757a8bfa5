#include "commitlab/process/process_race.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ack_audit.h"
#include "commitlab/sim/table_dir_check.h"
#include "commitlab_binary.h"

namespace commitlab::process {
namespace {

namespace fs = std::filesystem;
using test::AuditAcks;
using test::CheckJson;
using test::CommitlabBinary;
using test::RunCommitlab;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

class ProcessRaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "commitlab-procs-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    tmp_ = pattern;
  }
  void TearDown() override { fs::remove_all(tmp_); }
  std::string tmp_;
};

TEST_F(ProcessRaceTest, ThreeProcessesWithOneSeedLandEveryCommitOnce) {
  const ProcessRaceOptions o{.commitlab = CommitlabBinary(),
                             .dir = tmp_ + "/t",
                             .writers = 3,
                             .commits = 20,
                             .writer_args = {"--seed", "7", "--latency", "publish=uniform:0,1"}};
  Result<ProcessRaceResult> race = RunProcessRace(o);
  ASSERT_TRUE(race.ok()) << race.status().ToString();
  ASSERT_EQ(race->writers.size(), 3u);
  for (const WriterProcesses& w : race->writers) {
    EXPECT_EQ(w.starts, 1);
    EXPECT_EQ(w.acks.size(), 20u) << w.user;
    EXPECT_EQ(w.exit_code, 0) << w.error;
  }
  EXPECT_THAT(AuditAcks(o.dir, *race, o.commits), IsEmpty());
}

TEST_F(ProcessRaceTest, KilledWritersRestartAndFinishTheirIdentifiers) {
  const ProcessRaceOptions o{.commitlab = CommitlabBinary(),
                             .dir = tmp_ + "/t",
                             .writers = 3,
                             .commits = 40,
                             .writer_args = {"--latency", "publish=uniform:0,2"},
                             .kills = 6,
                             .kill_seed = 3,
                             .max_kill_delay_micros = 10'000};
  Result<ProcessRaceResult> race = RunProcessRace(o);
  ASSERT_TRUE(race.ok()) << race.status().ToString();
  int starts = 0;
  for (const WriterProcesses& w : race->writers) starts += w.starts;
  EXPECT_GT(race->kills, 0);  // 40 commits outlast the first kill, which comes within 10 ms
  EXPECT_LE(race->kills, o.kills);
  EXPECT_EQ(starts, 3 + race->kills);
  EXPECT_THAT(AuditAcks(o.dir, *race, o.commits), IsEmpty());
}

TEST_F(ProcessRaceTest, AHungWriterFailsTheRaceAtItsDeadline) {
  // Every publish takes 100 s of real time; the race gives up after 0.2 s and kills the writers.
  const ProcessRaceOptions o{.commitlab = CommitlabBinary(),
                             .dir = tmp_ + "/t",
                             .writers = 2,
                             .commits = 1,
                             .writer_args = {"--latency", "publish=const:100000"},
                             .timeout_micros = 200'000};
  Result<ProcessRaceResult> race = RunProcessRace(o);
  ASSERT_FALSE(race.ok());
  EXPECT_THAT(race.status().ToString(), ::testing::HasSubstr("did not finish within 0.2 s"));
}

// check reads a table while writers publish into it: a listing that races a publish, or a hint
// that moves between two reads, is not a fault of the table.
TEST_F(ProcessRaceTest, CheckDuringARaceNeverReportsASoundTableUnsound) {
  const ProcessRaceOptions o{.commitlab = CommitlabBinary(), .dir = tmp_ + "/t", .writers = 3, .commits = 60};
  std::atomic<bool> done{false};
  std::optional<Result<ProcessRaceResult>> race;
  std::thread racer([&] {
    race = RunProcessRace(o);
    done = true;
  });
  int checks = 0;
  std::vector<std::string> problems;
  while (!done) {
    if (!fs::exists(o.dir + "/snapshot/snapshot-1")) continue;
    Result<sim::TableDirReport> report = sim::CheckTableDir(o.dir, {});
    ++checks;
    if (!report.ok()) {
      problems.push_back(report.status().ToString());
    } else {
      for (const sim::TableDirProblem& p : report->problems) problems.push_back(p.kind + ": " + p.message);
    }
  }
  racer.join();
  ASSERT_TRUE(race->ok()) << race->status().ToString();
  EXPECT_GT(checks, 0);
  EXPECT_THAT(problems, IsEmpty()) << "over " << checks << " checks";
  EXPECT_THAT(AuditAcks(o.dir, **race, o.commits), IsEmpty());
}

// The orphan cleaner at 0 s, in a loop, beside four live writers: a writer's data file and manifest
// look like leftovers until its snapshot lands, and a cleaner that removed them would leave
// acknowledged commits whose files are gone. It keeps what a live writer may still publish, and
// still removes an orphan an ended writer left long before.
TEST_F(ProcessRaceTest, TheCleanerAtZeroSecondsBesideLiveWritersLosesNothing) {
  const ProcessRaceOptions o{.commitlab = CommitlabBinary(),
                             .dir = tmp_ + "/t",
                             .writers = 4,
                             .commits = 40,
                             .writer_args = {"--latency", "publish=uniform:0,2"}};
  // An orphan of an ended writer, written an hour ago.
  test::CommandOutput first = RunCommitlab({"writer", "--dir", o.dir, "--user", "job-old", "--commits", "1"});
  ASSERT_EQ(first.exit_code, 0) << first.out;
  const std::string old_orphan = o.dir + "/bucket-0/data-ended-writer.parquet";
  std::ofstream(old_orphan) << "{}\n";
  const timespec an_hour_ago[2] = {{0, UTIME_OMIT}, {::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, old_orphan.c_str(), an_hour_ago, 0), 0);

  std::atomic<bool> done{false};
  std::optional<Result<ProcessRaceResult>> race;
  std::thread racer([&] {
    race = RunProcessRace(o);
    done = true;
  });
  int cleanings = 0, kept_in_flight = 0, removed = 0;
  std::vector<std::string> failures;
  for (; !done && cleanings < 2000; ++cleanings) {
    int code = -1;
    const sim::Json c = CheckJson(o.dir, {"--clean-orphans", "--older-than", "0s"}, &code);
    if (code != 0 || !c.is_object()) {
      failures.push_back(fmt::format("exit {}: {}", code, c.dump()));
      continue;
    }
    kept_in_flight += c["kept_in_flight"].get<int>();
    removed += static_cast<int>(c["removed"].size());
  }
  racer.join();
  ASSERT_TRUE(race->ok()) << race->status().ToString();
  EXPECT_THAT(failures, IsEmpty());
  EXPECT_GT(cleanings, 0);
  EXPECT_FALSE(fs::exists(old_orphan));  // removed while the writers ran
  EXPECT_GE(removed, 1);
  EXPECT_THAT(AuditAcks(o.dir, **race, o.commits), IsEmpty()) << "over " << cleanings << " cleanings";
  std::printf("%d cleanings at 0 s beside 4 writers: %d removed, %d kept in flight\n", cleanings, removed,
              kept_in_flight);
}

TEST_F(ProcessRaceTest, AWriterThatCannotStartIsReported) {
  fs::create_directories(tmp_ + "/t");
  std::ofstream(tmp_ + "/t/notes.txt") << "not a table";
  Result<ProcessRaceResult> race =
      RunProcessRace({.commitlab = CommitlabBinary(), .dir = tmp_ + "/t", .writers = 1, .commits = 1});
  ASSERT_TRUE(race.ok());
  EXPECT_EQ(race->writers[0].exit_code, 2);
  EXPECT_THAT(race->writers[0].error, ::testing::HasSubstr("holds files but no snapshot/ directory"));
}

TEST_F(ProcessRaceTest, CheckSeesTheTableTheWritersLeft) {
  const std::string dir = tmp_ + "/t";
  test::CommandOutput w = RunCommitlab({"writer", "--dir", dir, "--user", "job-A", "--commits", "3"});
  ASSERT_EQ(w.exit_code, 0) << w.out;
  EXPECT_THAT(w.out, ::testing::StartsWith("ack job-A identifier 1 snapshot 1\nack job-A identifier 2 snapshot 2\n"));
  int code = -1;
  sim::Json check = CheckJson(dir, {}, &code);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(check["latest_snapshot"], 3);
  EXPECT_EQ(check["per_user"]["job-A"], 3);
}

}  // namespace
}  // namespace commitlab::process
