#include "commitlab/sim/fault_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "commitlab/core/env.h"

namespace commitlab::sim {
namespace {

using ::testing::ElementsAre;

FaultRule Parse(std::string_view spec) {
  Result<FaultRule> r = ParseFaultRule(spec);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : FaultRule{};
}

ScriptedFaultPlan PlanOf(std::string_view spec) { return ScriptedFaultPlan({Parse(spec)}); }

// The 1-based hits (out of `hits`) at which `plan` fires for writer/point.
std::vector<int> FiringHits(ScriptedFaultPlan& plan, std::string_view writer, std::string_view point, int hits,
                            Rng& rng) {
  std::vector<int> out;
  for (int i = 1; i <= hits; ++i) {
    FaultDecision d = plan.Check(writer, point, rng);
    if (!d.status.ok() || d.delay_micros > 0) out.push_back(i);
  }
  return out;
}

TEST(FaultSpecTest, ParsesEachField) {
  FaultRule r = Parse("job-B:publish.after:nth=1:unknown");
  EXPECT_EQ(r.writer, "job-B");
  EXPECT_EQ(r.point, fault::kPublishAfter);
  EXPECT_EQ(r.trigger, (FaultTrigger{FaultTrigger::Kind::kNth, 1, 0.0}));
  EXPECT_EQ(r.effect, (FaultEffect{FaultEffect::Kind::kUnknown, 0}));

  r = Parse("*:publish.before:p=0.1:error");
  EXPECT_EQ(r.writer, "*");
  EXPECT_EQ(r.trigger, (FaultTrigger{FaultTrigger::Kind::kProbability, 0, 0.1}));
  EXPECT_EQ(r.effect.kind, FaultEffect::Kind::kError);

  r = Parse("job-A:manifest.before:nth=2:crash");
  EXPECT_EQ(r.trigger.n, 2);
  EXPECT_EQ(r.effect.kind, FaultEffect::Kind::kCrash);

  r = Parse("*:read-latest.before:every=3:delay=20ms");
  EXPECT_EQ(r.trigger, (FaultTrigger{FaultTrigger::Kind::kEvery, 3, 0.0}));
  EXPECT_EQ(r.effect, (FaultEffect{FaultEffect::Kind::kDelay, 20000}));

  EXPECT_EQ(Parse("*:publish.before:always:delay=7us").effect.delay_micros, 7);
  EXPECT_EQ(Parse("*:publish.before:always:delay=2s").effect.delay_micros, 2000000);
  EXPECT_EQ(Parse("*:publish.before:always:error").trigger.kind, FaultTrigger::Kind::kAlways);
  EXPECT_EQ(Parse("w:publish.before:nth=2:lost").effect.kind, FaultEffect::Kind::kLost);
}

TEST(FaultSpecTest, LostIsALostRaceStatus) {
  ScriptedFaultPlan plan = PlanOf("w:publish.before:nth=1:lost");
  Rng rng(1);
  const FaultDecision d = plan.Check("w", fault::kPublishBefore, rng);
  EXPECT_EQ(d.status.code(), Code::kLostRace);
  EXPECT_TRUE(plan.Check("w", fault::kPublishBefore, rng).status.ok());
}

TEST(FaultSpecTest, FormatRoundTrips) {
  for (std::string_view spec :
       {"job-B:publish.after:nth=1:unknown", "*:publish.before:p=0.1:error", "job-A:manifest.before:nth=2:crash",
        "*:read-latest.before:every=3:delay=20ms", "w:publish.after:always:delay=2s", "w:publish.after:p=0:error",
        "w:publish.after:p=1:error", "w:publish.after:p=0.3333333333333333:error",
        "w:publish.before:nth=9000000000:delay=1500us", "w:publish.before:always:delay=0us",
        "w:publish.before:every=2:lost", "w:publish.before:first=3:error"}) {
    EXPECT_EQ(FormatFaultRule(Parse(spec)), spec);
  }
  // A non-canonical spelling formats canonically and still means the same rule.
  FaultRule r = Parse("w:publish.before:always:delay=3000ms");
  EXPECT_EQ(FormatFaultRule(r), "w:publish.before:always:delay=3s");
  EXPECT_EQ(Parse(FormatFaultRule(r)), r);
}

struct BadSpec {
  std::string_view spec;
  size_t column;
  std::string_view message;
};

TEST(FaultSpecTest, ErrorsNameTheSpecTheFieldAndWhatWasExpected) {
  const BadSpec cases[] = {
      {"job-B:publish.afterr:nth=1:unknown", 6,
       R"(fault "job-B:publish.afterr:nth=1:unknown": unknown point "publish.afterr" (expected one of )"
       R"(read-latest.before, manifest.before, publish.before, publish.after, catalog.before, catalog.after))"},
      {"job-B:publish.after:nth=1", 25,
       R"(fault "job-B:publish.after:nth=1": expected 4 fields WRITER:POINT:TRIGGER:EFFECT, got 3)"},
      {"a:publish.after:nth=1:error:x", 28,
       R"(fault "a:publish.after:nth=1:error:x": expected 4 fields WRITER:POINT:TRIGGER:EFFECT, got 5)"},
      {":publish.after:nth=1:error", 0,
       R"(fault ":publish.after:nth=1:error": empty writer (expected a writer name or *))"},
      {"a:publish.after:nth=0:error", 16,
       R"(fault "a:publish.after:nth=0:error": bad trigger "nth=0" (expected nth=N with N a whole number >= 1))"},
      {"a:publish.after:every=x:error", 16,
       R"(fault "a:publish.after:every=x:error": bad trigger "every=x" (expected every=K with K a whole number >= 1))"},
      {"a:publish.after:p=1.5:error", 16,
       R"(fault "a:publish.after:p=1.5:error": bad trigger "p=1.5" (expected p=P with P a number from 0 to 1))"},
      {"a:publish.after:p=:error", 16,
       R"(fault "a:publish.after:p=:error": bad trigger "p=" (expected p=P with P a number from 0 to 1))"},
      {"a:publish.after:sometimes:error", 16,
       R"(fault "a:publish.after:sometimes:error": unknown trigger "sometimes" )"
       R"((expected nth=N, first=N, every=K, p=P, always or maybe))"},
      {"a:publish.after:nth=1:boom", 22,
       R"(fault "a:publish.after:nth=1:boom": unknown effect "boom" (expected error, unknown, lost, crash or delay=D )"
       R"(with D like 500us, 20ms or 2s))"},
      {"a:publish.after:nth=1:delay=5", 22,
       R"(fault "a:publish.after:nth=1:delay=5": bad effect "delay=5" (expected delay=D with D a whole number )"
       R"(followed by us, ms or s, e.g. delay=20ms))"},
      {"a:publish.before:nth=1:unknown", 23,
       R"(fault "a:publish.before:nth=1:unknown": effect "unknown" is only meaningful at publish.after (the )"
       R"(publish took effect but the caller is not told); at publish.before use error)"},
      {"a:publish.after:nth=1:lost", 22,
       R"(fault "a:publish.after:nth=1:lost": effect "lost" is only meaningful at publish.before (the store )"
       R"(refuses the publish as if another writer had won); at publish.after use error)"},
  };
  for (const BadSpec& c : cases) {
    size_t column = 12345;
    Result<FaultRule> r = ParseFaultRule(c.spec, &column);
    ASSERT_FALSE(r.ok()) << c.spec;
    EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
    EXPECT_EQ(r.status().message(), c.message);
    EXPECT_EQ(column, c.column) << c.spec;
  }
}

TEST(FaultSpecTest, ValidateRejectsARuleBuiltInCode) {
  FaultRule r{"job-A", std::string(fault::kManifestBefore), {}, {FaultEffect::Kind::kUnknown, 0}};
  Status st = ValidateFaultRule(r);
  EXPECT_EQ(st.message(),
            R"(fault "job-A:manifest.before:always:unknown": effect "unknown" is only meaningful at publish.after )"
            R"((the publish took effect but the caller is not told); at manifest.before use error)");
  r.effect.kind = FaultEffect::Kind::kError;
  EXPECT_TRUE(ValidateFaultRule(r).ok());
  r.trigger = {FaultTrigger::Kind::kEvery, 0, 0.0};
  EXPECT_FALSE(ValidateFaultRule(r).ok());
}

TEST(FaultTriggerTest, FirstFiresOnHitsOneToN) {
  ScriptedFaultPlan plan = PlanOf("job-A:publish.before:first=3:lost");
  Rng rng(1);
  EXPECT_THAT(FiringHits(plan, "job-A", fault::kPublishBefore, 6, rng), ElementsAre(1, 2, 3));
}

TEST(FaultTriggerTest, NthFiresOnThatHitOnly) {
  ScriptedFaultPlan plan = PlanOf("job-A:manifest.before:nth=2:error");
  Rng rng(1);
  EXPECT_THAT(FiringHits(plan, "job-A", fault::kManifestBefore, 8, rng), ElementsAre(2));
}

TEST(FaultTriggerTest, EveryFiresOnMultiples) {
  ScriptedFaultPlan plan = PlanOf("job-A:manifest.before:every=3:error");
  Rng rng(1);
  EXPECT_THAT(FiringHits(plan, "job-A", fault::kManifestBefore, 10, rng), ElementsAre(3, 6, 9));
}

TEST(FaultTriggerTest, AlwaysFiresOnEveryHit) {
  ScriptedFaultPlan plan = PlanOf("job-A:manifest.before:always:error");
  Rng rng(1);
  EXPECT_THAT(FiringHits(plan, "job-A", fault::kManifestBefore, 3, rng), ElementsAre(1, 2, 3));
}

TEST(FaultTriggerTest, ProbabilityZeroNeverOneAlways) {
  ScriptedFaultPlan never = PlanOf("*:publish.before:p=0:error");
  ScriptedFaultPlan always = PlanOf("*:publish.before:p=1:error");
  Rng rng(7);
  EXPECT_TRUE(FiringHits(never, "w", fault::kPublishBefore, 1000, rng).empty());
  EXPECT_EQ(FiringHits(always, "w", fault::kPublishBefore, 1000, rng).size(), 1000u);
}

TEST(FaultTriggerTest, ProbabilityDrawsFromTheGivenStream) {
  auto run = [](uint64_t seed) {
    ScriptedFaultPlan plan = PlanOf("*:publish.before:p=0.5:error");
    Rng rng(seed);
    return FiringHits(plan, "w", fault::kPublishBefore, 64, rng);
  };
  const std::vector<int> a = run(42);
  EXPECT_EQ(a, run(42));
  EXPECT_NE(a, run(43));
  EXPECT_GT(a.size(), 0u);
  EXPECT_LT(a.size(), 64u);
  // One draw per hit: the stream is left exactly 64 draws further on.
  ScriptedFaultPlan plan = PlanOf("*:publish.before:p=0.5:error");
  Rng used(42), reference(42);
  FiringHits(plan, "w", fault::kPublishBefore, 64, used);
  for (int i = 0; i < 64; ++i) reference.Next();
  EXPECT_EQ(used.Next(), reference.Next());
}

TEST(FaultTriggerTest, SelectsTheWriterAndPointAndCountsPerWriter) {
  ScriptedFaultPlan plan = PlanOf("job-A:publish.after:nth=2:unknown");
  Rng rng(1);
  // job-B's hits and other points neither fire nor count toward job-A's.
  EXPECT_TRUE(FiringHits(plan, "job-B", fault::kPublishAfter, 5, rng).empty());
  EXPECT_TRUE(FiringHits(plan, "job-A", fault::kPublishBefore, 5, rng).empty());
  EXPECT_THAT(FiringHits(plan, "job-A", fault::kPublishAfter, 5, rng), ElementsAre(2));

  ScriptedFaultPlan any = PlanOf("*:publish.after:nth=1:unknown");
  EXPECT_THAT(FiringHits(any, "job-A", fault::kPublishAfter, 3, rng), ElementsAre(1));
  EXPECT_THAT(FiringHits(any, "job-B", fault::kPublishAfter, 3, rng), ElementsAre(1));
}

TEST(FaultEffectTest, EachEffectGivesItsDecision) {
  Rng rng(1);
  FaultDecision d = PlanOf("job-B:publish.after:always:unknown").Check("job-B", fault::kPublishAfter, rng);
  EXPECT_EQ(d.status.code(), Code::kIOError);
  EXPECT_EQ(d.status.message(), "simulated unknown outcome at publish.after of job-B: the publish took effect");

  d = PlanOf("*:publish.before:always:error").Check("job-A", fault::kPublishBefore, rng);
  EXPECT_EQ(d.status.code(), Code::kIOError);
  EXPECT_EQ(d.status.message(), "simulated error at publish.before of job-A");

  d = PlanOf("job-A:manifest.before:always:crash").Check("job-A", fault::kManifestBefore, rng);
  EXPECT_EQ(d.status.code(), Code::kCrashed);
  EXPECT_EQ(d.status.message(), "simulated crash at manifest.before of job-A");

  d = PlanOf("*:read-latest.before:always:delay=20ms").Check("job-A", fault::kReadLatestBefore, rng);
  EXPECT_TRUE(d.status.ok());
  EXPECT_EQ(d.delay_micros, 20000);
}

TEST(FaultPlanTest, RecordsFiredFaultsAndCombinesRules) {
  ScriptedFaultPlan plan({Parse("*:publish.before:always:delay=5ms"), Parse("job-A:publish.before:every=2:error"),
                          Parse("*:publish.before:nth=2:crash"), Parse("*:publish.before:always:delay=1ms")});
  Rng rng(1);
  FaultDecision first = plan.Check("job-A", fault::kPublishBefore, rng);
  EXPECT_TRUE(first.status.ok());
  EXPECT_EQ(first.delay_micros, 6000);
  // Hit 2: the error rule comes first, so the crash rule is suppressed; delays still add up.
  FaultDecision second = plan.Check("job-A", fault::kPublishBefore, rng);
  EXPECT_EQ(second.status.code(), Code::kIOError);
  EXPECT_EQ(second.delay_micros, 6000);
  const FaultEffect delay5{FaultEffect::Kind::kDelay, 5000}, delay1{FaultEffect::Kind::kDelay, 1000};
  const FaultEffect error{FaultEffect::Kind::kError, 0};
  EXPECT_THAT(plan.fired(), ElementsAre(FiredFault{"job-A", "publish.before", 1, 0, delay5},
                                        FiredFault{"job-A", "publish.before", 1, 3, delay1},
                                        FiredFault{"job-A", "publish.before", 2, 0, delay5},
                                        FiredFault{"job-A", "publish.before", 2, 1, error},
                                        FiredFault{"job-A", "publish.before", 2, 3, delay1}));
  EXPECT_EQ(FormatFiredFault(plan.fired()[3]), "job-A:publish.before:hit=2:error");
  EXPECT_EQ(FormatFiredFault(plan.fired()[0]), "job-A:publish.before:hit=1:delay=5ms");
}

TEST(FaultPlanTest, CountsHitsExactlyUnderConcurrentWriters) {
  ScriptedFaultPlan plan = PlanOf("*:publish.before:every=2:error");
  constexpr int kThreads = 4, kHits = 1000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&plan, t] {
      Rng rng(static_cast<uint64_t>(t));
      const std::string writer = t % 2 == 0 ? "w0" : "w1";  // two threads share each writer
      for (int i = 0; i < kHits; ++i) plan.Check(writer, fault::kPublishBefore, rng);
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(plan.fired_total(), kThreads * kHits / 2);
  std::vector<FiredFault> fired = plan.fired();
  EXPECT_EQ(fired.size(), std::min<size_t>(ScriptedFaultPlan::kMaxFiredKept, kThreads * kHits / 2));
  for (const FiredFault& f : fired) EXPECT_EQ(f.hit % 2, 0);
}

// A rule that fires on every hit of a run retrying for millions of steps must not keep a record
// per hit: the plan lists the first kMaxFiredKept and counts the rest.
TEST(FaultPlanTest, KeepsTheFirstFiredFaultsAndCountsTheRest) {
  ScriptedFaultPlan plan = PlanOf("w:publish.before:always:error");
  Rng rng(1);
  const int64_t hits = static_cast<int64_t>(ScriptedFaultPlan::kMaxFiredKept) * 3;
  for (int64_t i = 0; i < hits; ++i) ASSERT_FALSE(plan.Check("w", fault::kPublishBefore, rng).status.ok());
  EXPECT_EQ(plan.fired_total(), hits);
  const std::vector<FiredFault> fired = plan.fired();
  ASSERT_EQ(fired.size(), ScriptedFaultPlan::kMaxFiredKept);
  EXPECT_EQ(fired.front().hit, 1);
  EXPECT_EQ(fired.back().hit, static_cast<int64_t>(ScriptedFaultPlan::kMaxFiredKept));
}

TEST(FaultPlanTest, MaybeFiresAtOneHitPerWriterAsTheChooserSays) {
  ScriptedFaultPlan plan({*ParseFaultRule("*:publish.after:maybe:unknown")});
  std::vector<std::string> asked;
  plan.set_chooser([&asked](const FaultRule&, std::string_view writer, int64_t hit) {
    asked.push_back(std::string(writer) + "#" + std::to_string(hit));
    return hit == 2;
  });
  Rng rng(1);
  std::vector<bool> failed;
  for (const char* w : {"a", "a", "a", "b", "b"}) failed.push_back(!plan.Check(w, "publish.after", rng).status.ok());
  EXPECT_THAT(failed, testing::ElementsAre(false, true, false, false, true));
  // Once it fired for a writer it is not asked again for that writer.
  EXPECT_THAT(asked, testing::ElementsAre("a#1", "a#2", "b#1", "b#2"));
}

TEST(FaultPlanTest, MaybeWithoutAChooserDrawsUntilItFires) {
  ScriptedFaultPlan plan({*ParseFaultRule("w:publish.before:maybe:error")});
  Rng rng(7);
  int fired = 0;
  for (int i = 0; i < 100; ++i) fired += plan.Check("w", "publish.before", rng).status.ok() ? 0 : 1;
  EXPECT_EQ(fired, 1);
  EXPECT_EQ(FormatFaultRule(*ParseFaultRule("w:publish.before:maybe:error")), "w:publish.before:maybe:error");
}

}  // namespace
}  // namespace commitlab::sim
