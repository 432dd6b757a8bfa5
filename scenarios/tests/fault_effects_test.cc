// Every fault point and effect on each engine, one writer committing once: what the scenario
// README's table "What a fault does to each engine" says, checked.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/runner.h"

namespace commitlab::scenarios {
namespace {

struct Case {
  std::string_view protocol;
  std::string_view fault;  // POINT:EFFECT, fired at the first hit
  Outcome outcome;
  int64_t attempts;
  int64_t atomic_failures;
  int64_t unknown_outcomes;
  int64_t idempotent_matches;
  int64_t latest;     // what the table holds after the run
  bool fires = true;  // false: the engine has no such point, and the rule is refused before the run
};

std::string_view StepsOf(std::string_view protocol) {
  if (protocol == "paimon") return "w: write rows=1; commit";
  if (protocol == "iceberg") return "w: append rows=1";
  return "w: begin; add; commit";
}

constexpr Outcome kOk = Outcome::kOk, kRefused = Outcome::kRefused, kCrashed = Outcome::kCrashed;

// clang-format off
const Case kCases[] = {
  // Paimon: a lost rename and an error before it are both retried; an error after it is found by
  // the idempotency check.
  {"paimon", "publish.before:lost",      kOk,      2, 1, 0, 0, 1},
  {"paimon", "publish.before:error",     kOk,      2, 0, 1, 0, 1},
  {"paimon", "publish.after:unknown",    kOk,      1, 0, 1, 1, 1},
  {"paimon", "publish.after:error",      kOk,      1, 0, 1, 1, 1},
  {"paimon", "read-latest.before:error", kRefused, 0, 0, 0, 0, 0},
  {"paimon", "manifest.before:error",    kRefused, 1, 0, 0, 0, 0},
  {"paimon", "publish.before:crash",     kCrashed, 1, 0, 0, 0, 0},
  // Iceberg: only CommitFailedException is retried; an unknown state ends the commit.
  {"iceberg", "publish.before:lost",      kOk,      2, 1, 0, 0, 1},
  {"iceberg", "publish.before:error",     kRefused, 1, 0, 1, 0, 0},
  {"iceberg", "publish.after:unknown",    kRefused, 1, 0, 1, 0, 1},
  {"iceberg", "publish.after:error",      kRefused, 1, 0, 1, 0, 1},
  {"iceberg", "read-latest.before:error", kRefused, 0, 0, 0, 0, 0},
  {"iceberg", "manifest.before:error",    kRefused, 1, 0, 0, 0, 0},
  {"iceberg", "publish.before:crash",     kCrashed, 1, 0, 0, 0, 0},
  // Delta: a collision is checked and retried; any other failure of the write ends the commit.
  {"delta", "publish.before:lost",      kOk,      2, 1, 0, 0, 1},
  {"delta", "publish.before:error",     kRefused, 1, 0, 1, 0, 0},
  {"delta", "publish.after:unknown",    kRefused, 1, 0, 1, 0, 1},
  {"delta", "publish.after:error",      kRefused, 1, 0, 1, 0, 1},
  {"delta", "read-latest.before:error", kRefused, 0, 0, 0, 0, 0},
  {"delta", "manifest.before:error",    kOk,      1, 0, 0, 0, 1, false},  // one log file, no manifest
  {"delta", "publish.before:crash",     kCrashed, 1, 0, 0, 0, 0},
};
// clang-format on

class FaultEffectsTest : public ::testing::TestWithParam<Case> {};

TEST_P(FaultEffectsTest, EachEngineReadsTheEffectAsUpstreamDoes) {
  const Case& c = GetParam();
  const std::string point = std::string(c.fault.substr(0, c.fault.find(':')));
  const std::string effect = std::string(c.fault.substr(c.fault.find(':') + 1));
  const std::string text =
      fmt::format("title \"t\"\ntable name=t protocol={}\nwriter name=w\nfault w:{}:nth=1:{}\n{}\n", c.protocol, point,
                  effect, StepsOf(c.protocol));
  Result<Scenario> s = ParseScenario(text, "t.scn");
  ASSERT_TRUE(s.ok()) << s.status().message();
  if (!c.fires) {
    Result<RunReport> r = RunScenario(*s, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
    EXPECT_NE(r.status().message().find("the rule could never fire"), std::string::npos) << r.status().message();
    return;
  }
  for (bool threads : {false, true}) {
    SCOPED_TRACE(threads ? "threads" : "simulated");
    RunOptions options;
    if (threads) options.sched = "free";
    Result<RunReport> r = RunScenario(*s, options);
    ASSERT_TRUE(r.ok()) << r.status().message();
    const WriterReport& w = r->writers.at(0);
    EXPECT_EQ(w.outcome, c.outcome) << w.error;
    EXPECT_EQ(w.counters.attempts, c.attempts);
    EXPECT_EQ(w.counters.atomic_failures, c.atomic_failures);
    EXPECT_EQ(w.counters.unknown_outcomes, c.unknown_outcomes);
    EXPECT_EQ(w.counters.idempotent_matches, c.idempotent_matches);
    EXPECT_EQ(r->latest_snapshot(), c.latest);
    EXPECT_EQ(r->fired_faults.size(), c.fires ? 1u : 0u);
    EXPECT_TRUE(r->invariants_ok());
  }
}

std::string Name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = fmt::format("{}_{}", info.param.protocol, info.param.fault);
  for (char& ch : n)
    if (ch == '.' || ch == ':' || ch == '-') ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Matrix, FaultEffectsTest, ::testing::ValuesIn(kCases), Name);

}  // namespace
}  // namespace commitlab::scenarios
