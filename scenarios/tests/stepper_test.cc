#include "commitlab/scenarios/stepper.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "commitlab/scenarios/parser.h"
#include "commitlab/sim/schedule.h"

namespace commitlab::scenarios {
namespace {

// Two appenders, two commits each, with latency: enough points for the order to matter.
constexpr char kRace[] = R"(title "stepper race"
table name=t protocol=paimon
writer name=job-A
writer name=job-B
sched random
seed 7
latency publish=uniform:0.5,2
repeat 2: job-A: write rows=1; commit
repeat 2: job-B: write rows=1; commit
expect latest-snapshot 4
)";

Scenario Parse(const char* text) {
  Result<Scenario> s = ParseScenario(text, "race.scn");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(*s);
}

std::string Letters(const std::string& schedule) {
  Result<sim::RecordedSchedule> r = sim::ParseSchedule(schedule);
  EXPECT_TRUE(r.ok()) << schedule;
  std::string out;
  for (const sim::ScheduleRun& run : r->runs)
    for (int64_t i = 0; i < run.count; ++i) out += sim::WriterSymbol(run.writer);
  return out;
}

TEST(StepperTest, TakingTheSeedsPickEveryTimeIsTheUnattendedRun) {
  const Scenario s = Parse(kRace);
  Result<RunReport> unattended = RunScenario(s, {});
  ASSERT_TRUE(unattended.ok());
  Result<std::unique_ptr<Stepper>> stepper = Stepper::Create(s, {});
  ASSERT_TRUE(stepper.ok()) << stepper.status().ToString();
  EXPECT_EQ((*stepper)->state().step, 0);
  EXPECT_EQ((*stepper)->state().writers.size(), 2u);
  while (!(*stepper)->state().finished) ASSERT_TRUE((*stepper)->PickAsTheSeedWould().ok());
  EXPECT_EQ((*stepper)->state().picks, Letters(unattended->schedule));
  ASSERT_TRUE((*stepper)->state().report.has_value());
  EXPECT_TRUE((*stepper)->state().report->ok());
  EXPECT_EQ((*stepper)->state().latest, 4);
  for (const StepperWriter& w : (*stepper)->state().writers) EXPECT_EQ(w.phase, "finished") << w.name;
  EXPECT_EQ(*(*stepper)->CompleteSchedule(), unattended->schedule);
}

TEST(StepperTest, UndoReturnsToTheSameStateAndTheSamePointsAgain) {
  const Scenario s = Parse(kRace);
  std::unique_ptr<Stepper> stepper = std::move(*Stepper::Create(s, {}));
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(stepper->PickAsTheSeedWould().ok());
  const StepperState before = stepper->state();
  ASSERT_TRUE(stepper->Pick(before.seed_pick == 0 ? 1 : 0).ok() || stepper->PickAsTheSeedWould().ok());
  EXPECT_EQ(stepper->state().step, 6);
  ASSERT_TRUE(*stepper->Undo());
  EXPECT_EQ(stepper->state().step, before.step);
  EXPECT_EQ(stepper->state().picks, before.picks);
  EXPECT_EQ(stepper->state().events, before.events);
  EXPECT_EQ(stepper->state().seed_pick, before.seed_pick);
  for (size_t i = 0; i < before.writers.size(); ++i) {
    EXPECT_EQ(stepper->state().writers[i].phase, before.writers[i].phase);
    EXPECT_EQ(stepper->state().writers[i].runnable, before.writers[i].runnable);
  }
  while (*stepper->Undo()) {
  }
  EXPECT_EQ(stepper->state().step, 0);
  EXPECT_FALSE(*stepper->Undo());
}

TEST(StepperTest, TheUsersOrderDecidesWhoWins) {
  // Without latency nobody sleeps: always picking job-B runs both its commits first.
  std::string text = kRace;
  text.erase(text.find("latency"), text.find("repeat") - text.find("latency"));
  const Scenario s = Parse(text.c_str());
  std::unique_ptr<Stepper> stepper = std::move(*Stepper::Create(s, {}));
  while (!stepper->state().finished) {
    const bool b_can = stepper->state().writers[1].runnable;
    ASSERT_TRUE(stepper->Pick(b_can ? 1 : 0).ok());
  }
  ASSERT_TRUE(stepper->state().report.has_value());
  const RunReport& r = *stepper->state().report;
  ASSERT_EQ(r.tables.size(), 1u);
  EXPECT_EQ(r.latest_snapshot(), 4);
  EXPECT_EQ(r.tables[0].chain[0].commit_user, "job-B");
  EXPECT_EQ(r.tables[0].chain[1].commit_user, "job-B");
  // The path taken replays as a schedule string.
  RunOptions replay;
  replay.schedule = *stepper->CompleteSchedule();
  Result<RunReport> again = RunScenario(s, replay);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->tables[0].chain[0].commit_user, "job-B");
}

TEST(StepperTest, AWriterThatCannotRunIsRefusedAndNothingChanges) {
  const Scenario s = Parse(R"(title "held"
table name=t protocol=paimon
writer name=a
writer name=b
a.w: write rows=1; commit
b.w: write rows=1; commit
order a.w -> b.w
)");
  std::unique_ptr<Stepper> stepper = std::move(*Stepper::Create(s, {}));
  // b starts and is held at the order line until a's write ends.
  while (stepper->state().writers[1].phase != "held at order line 7") ASSERT_TRUE(stepper->Pick(1).ok());
  EXPECT_FALSE(stepper->state().writers[1].runnable);
  const int64_t step = stepper->state().step;
  // The refusal says why: what b waits for, and the clock.
  EXPECT_EQ(stepper->Pick(1).message(), "b (b) cannot run now: waits for a to reach w; the clock is at 0 ms");
  EXPECT_EQ(stepper->Pick(9).message(), "there is no writer j");
  EXPECT_EQ(stepper->state().step, step);
}

TEST(StepperTest, AFileForOsThreadsIsRefused) {
  const Scenario s = Parse("title \"t\"\ntable name=t protocol=paimon\nwriter name=a\nsched free\na: commit\n");
  EXPECT_THAT(Stepper::Create(s, {}).status().message(), ::testing::HasSubstr("the stepper runs a simulated scenario"));
}

}  // namespace
}  // namespace commitlab::scenarios
