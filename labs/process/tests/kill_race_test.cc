// The crash test of writers as processes: races of four `commitlab writer` processes on one
// directory, each killed with SIGKILL at seeded random moments and restarted with its user, until
// at least 200 kills have landed. After each race the table must hold every acknowledged commit
// exactly once (commitlab check), take new commits, and be left with nothing but orphans that
// --clean-orphans removes. Long: it runs in the suite's `long` label.
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "ack_audit.h"
#include "commitlab/process/process_race.h"
#include "commitlab_binary.h"

namespace commitlab::process {
namespace {

namespace fs = std::filesystem;
using test::AuditAcks;
using test::CheckJson;
using test::CommitlabBinary;
using test::RunCommitlab;
using ::testing::IsEmpty;

constexpr int kWantedKills = 200;

TEST(KillRaceTest, EveryAcknowledgedCommitSurvivesTwoHundredKills) {
  std::string pattern = (fs::temp_directory_path() / "commitlab-kills-XXXXXX").string();
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
  const std::string tmp = pattern;
  int kills = 0, leftovers_removed = 0, races = 0;
  for (uint64_t seed = 1; kills < kWantedKills && seed <= 60; ++seed, ++races) {
    SCOPED_TRACE(fmt::format("race with seed {}", seed));
    const ProcessRaceOptions o{.commitlab = CommitlabBinary(),
                               .dir = fmt::format("{}/t{}", tmp, seed),
                               .writers = 4,
                               .commits = 80,
                               .writer_args = {"--seed", std::to_string(seed), "--latency", "publish=uniform:0,2"},
                               .kills = 30,
                               .kill_seed = seed,
                               .max_kill_delay_micros = 12'000};
    Result<ProcessRaceResult> race = RunProcessRace(o);
    ASSERT_TRUE(race.ok()) << race.status().ToString();
    kills += race->kills;
    ASSERT_THAT(AuditAcks(o.dir, *race, o.commits), IsEmpty());

    // Writable afterwards: a restarted job-A goes on from identifier 81.
    test::CommandOutput more = RunCommitlab({"writer", "--dir", o.dir, "--user", "job-A", "--commits", "2"});
    ASSERT_EQ(more.exit_code, 0) << more.out;
    EXPECT_THAT(more.out, ::testing::HasSubstr("ack job-A identifier 82 snapshot 322"));

    // What the kills left behind is only leftovers, and --clean-orphans takes all of them.
    int code = -1;
    const sim::Json before = CheckJson(o.dir, {}, &code);
    ASSERT_EQ(code, 0) << before.dump();
    const sim::Json cleaned = CheckJson(o.dir, {"--clean-orphans", "--older-than", "0s"}, &code);
    ASSERT_EQ(code, 0) << cleaned.dump();
    EXPECT_EQ(cleaned["removed"].size(), before["leftovers"].size());
    leftovers_removed += static_cast<int>(cleaned["removed"].size());
    const sim::Json after = CheckJson(o.dir, {}, &code);
    EXPECT_EQ(code, 0);
    EXPECT_THAT(after["leftovers"], IsEmpty());
    EXPECT_EQ(after["latest_snapshot"], 322);
    fs::remove_all(o.dir);
  }
  EXPECT_GE(kills, kWantedKills);
  std::printf(
      "kill -9: %d kills over %d races; every acknowledged commit was in its table once; %d leftovers removed\n", kills,
      races, leftovers_removed);
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace commitlab::process
