// Determinism self-check: the same seed and strategy give a byte-identical history, for every
// scenario file and for the built-in race, over many seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/race.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/history.h"

namespace commitlab::scenarios {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kSeeds = 50;

// The engine's events, the report and the schedule: everything a run shows.
std::string ScenarioTrace(const Scenario& s, uint64_t seed) {
  sim::History history;
  RunOptions options;
  options.seed = seed;
  options.history = &history;
  Result<RunReport> r = RunScenario(s, options);
  if (!r.ok()) return "error: " + r.status().message();
  std::string out;
  for (const std::string& line : history.lines()) out += line + "\n";
  return out + RunJson(*r).dump() + "\n" + r->schedule;
}

std::string RaceTrace(uint64_t seed) {
  Result<Scenario> race = RaceScenario({.latency = "write-data=uniform:4,10;publish=uniform:0.5,2"});
  EXPECT_TRUE(race.ok());
  return race.ok() ? ScenarioTrace(*race, seed) : race.status().message();
}

TEST(DeterminismTest, EveryScenarioFileGivesTheSameTraceTwicePerSeed) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(COMMITLAB_SOURCE_DIR) / "scenarios"))
    if (entry.path().extension() == ".scn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 8u);
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.filename().string());
    Result<Scenario> s = LoadScenarioFile(f.string());
    ASSERT_TRUE(s.ok()) << s.status().message();
    std::set<std::string> distinct;
    for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
      const std::string first = ScenarioTrace(*s, seed);
      const std::string second = ScenarioTrace(*s, seed);
      ASSERT_EQ(first, second) << "seed " << seed;
      distinct.insert(first);
    }
    // The seed is used at all: file names and interleavings change with it.
    EXPECT_GT(distinct.size(), 1u);
  }
}

// Recording a history must not change the run it records: no Env call, no scheduling point.
TEST(DeterminismTest, KeepingAHistoryChangesNothingInTheRun) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(COMMITLAB_SOURCE_DIR) / "scenarios"))
    if (entry.path().extension() == ".scn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.filename().string());
    Result<Scenario> s = LoadScenarioFile(f.string());
    ASSERT_TRUE(s.ok()) << s.status().message();
    for (uint64_t seed : {1u, 7u}) {
      sim::History history;
      Result<RunReport> with = RunScenario(*s, {.seed = seed, .history = &history});
      Result<RunReport> without = RunScenario(*s, {.seed = seed});
      ASSERT_TRUE(with.ok() && without.ok());
      EXPECT_EQ(RunJson(*with), RunJson(*without)) << "seed " << seed;
      EXPECT_FALSE(history.lines().empty());
    }
  }
}

TEST(DeterminismTest, TheBuiltInRaceGivesTheSameTraceTwicePerSeed) {
  std::set<std::string> distinct;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const std::string first = RaceTrace(seed);
    ASSERT_EQ(first, RaceTrace(seed)) << "seed " << seed;
    distinct.insert(first);
  }
  EXPECT_GT(distinct.size(), kSeeds / 2);
}

}  // namespace
}  // namespace commitlab::scenarios
