// A fourth protocol added from a test: the compare-and-swap register of cas_protocol.h, in this
// folder only, registered by the test. Its scenario parses, runs simulated on two writers and is
// checked like the three engines' (no lost increment), through the same parser, runner, reports
// and messages, none of which names it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "cas_protocol.h"
#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/protocols.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/history.h"

namespace commitlab::scenarios {
namespace {

using ::testing::HasSubstr;

class ToyProtocolTest : public ::testing::Test {
 protected:
  static Result<Scenario> Parse(std::string_view steps) {
    return ParseScenario(std::string(kHead) + std::string(steps), "toy.scn");
  }

  static constexpr std::string_view kHead =
      "title \"Two writers increment a compare-and-swap register\"\n"
      "table name=r protocol=cas\n"
      "writer name=a\n"
      "writer name=b\n";

  const toy::CasProtocol registered_;
  const Protocol cas_ = registered_.protocol();
};

TEST_F(ToyProtocolTest, ItsScenarioRunsOnTwoWritersAndLosesNoIncrement) {
  Result<Scenario> s = Parse(
      "repeat 5: a: read; cas\n"
      "repeat 5: b: read; cas\n"
      "expect latest-snapshot 10\n"
      "expect tally committed 10\n"
      "expect per-user a=5 b=5\n");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->tables[0].protocol, cas_);
  EXPECT_EQ(ProtocolName(cas_), "cas");
  int64_t lost_races = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Result<RunReport> r = RunScenario(*s, {.seed = seed});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->ok()) << "seed " << seed << ": " << FailureSummary(*r);
    EXPECT_EQ(r->tally.attempts, 10 + r->tally.atomic_failures);
    lost_races += r->tally.atomic_failures;
    EXPECT_EQ(RunJson(*r)["tables"][0]["protocol"], "cas");
    EXPECT_THAT(InvariantLines(*r).front(), HasSubstr("every acknowledged increment is in the register"));
  }
  EXPECT_GT(lost_races, 0) << "two writers reading before they swap must lose some CASes";
}

TEST_F(ToyProtocolTest, ItsCheckFindsTheIncrementABlindWriteLoses) {
  // `set` writes what it read + 1 without comparing: b's read before a's write is overwritten.
  Result<Scenario> s = Parse(
      "a.r: read\n"
      "b.r: read\n"
      "a.w: set\n"
      "b.w: set\n"
      "order a.r -> b.r -> a.w -> b.w\n"
      "expect invariant-violation lost_update\n");
  ASSERT_TRUE(s.ok()) << s.status().message();
  Result<RunReport> r = RunScenario(*s, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->violations.size(), 1u);
  EXPECT_EQ(r->violations[0].violation.message, "lost update: register r is 1, but 2 increment(s) were acknowledged");
  EXPECT_TRUE(r->ok()) << FailureSummary(*r);
}

TEST_F(ToyProtocolTest, TheSameSeedGivesTheSameHistory) {
  Result<Scenario> s = Parse("repeat 3: a: read; cas\nrepeat 3: b: cas\n");
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto trace = [&](uint64_t seed) {
    sim::History history;
    Result<RunReport> r = RunScenario(*s, {.seed = seed, .history = &history});
    EXPECT_TRUE(r.ok());
    std::string out;
    for (const std::string& line : history.lines()) out += line + "\n";
    return out + (r.ok() ? r->schedule : "");
  };
  const std::string first = trace(7);
  EXPECT_THAT(first, HasSubstr("\"op\":\"cas\""));
  EXPECT_EQ(first, trace(7));
}

TEST_F(ToyProtocolTest, TheSharedMessagesNameItFromTheRegistry) {
  Result<Scenario> s = Parse("a: write\n");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(),
            "toy.scn:5:4: step \"write\" is for paimon tables, but writer a writes cas table r (its steps: read, cas, "
            "set)");
  s = ParseScenario("title \"t\"\ntable name=r protocol=cas buckets=2\n", "toy.scn");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "toy.scn:2:27: key \"buckets\" applies to paimon tables only, not to cas table r");
  s = Parse("a: cas\nfault a:manifest.before:always:crash\n");
  ASSERT_TRUE(s.ok()) << s.status().message();
  Result<RunReport> r = RunScenario(*s, {});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("writer a's cas commits have no manifest.before point (a register has only its CAS)"));
  EXPECT_EQ(WordsOf(cas_).chain_entry, "version");
  EXPECT_EQ(ScenarioProtocols().back(), cas_);
  EXPECT_FALSE(TakesTableKey(cas_, "catalog"));
}

}  // namespace
}  // namespace commitlab::scenarios
