// RunScenario: puts a World on the simulator (fibers, virtual time, one seeded stream) or on OS
// threads (RealEnv), runs every writer to the end, and returns the report.
#include "commitlab/scenarios/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/real_env.h"
#include "commitlab/sim/scheduler.h"
#include "commitlab/sim/sim_env.h"
#include "commitlab/sim/strategy.h"
#include "run/runner_gates.h"
#include "run/runner_world.h"

namespace commitlab::scenarios {
namespace {

// "gave up after ...: still running then: job-A (1234 attempts, 30 committed)": what a budget
// stopped, with what each writer still running had done, so a reader sees who would not end.
// Writers are named in the scenario's order (on threads, which stopped first is chance).
std::string BudgetVerdict(const std::string& what, const RunReport& report, const std::vector<std::string>& running) {
  constexpr size_t kNamed = 5;
  std::string out = what + ": still running then:";
  size_t named = 0;
  for (const WriterReport& w : report.writers) {
    if (std::find(running.begin(), running.end(), w.name) == running.end() || named == kNamed) continue;
    out += fmt::format("{} {} ({} attempts, {} committed)", named++ == 0 ? "" : ",", w.name, w.counters.attempts,
                       w.counters.committed);
  }
  if (running.size() > named) out += fmt::format(" and {} more", running.size() - named);
  return out;
}

Result<RunReport> RunOnThreads(const Scenario& s, const RunOptions& options, const RunPlan& plan,
                               internal::World& world) {
  sim::RealEnv env(plan.seed, world.faults(), plan.latency);
  const int64_t max_wall = options.max_wall_micros.value_or(DefaultBudgets(s).max_wall_micros);
  env.set_max_wall_micros(max_wall);
  std::unique_ptr<internal::Gates> gates = internal::MakeThreadGates(s);
  if (Status st = env.RunThreads(world.Writers(&env, gates.get(), {})); !st.ok()) return st;
  RunReport report = world.Finish();
  if (const std::vector<std::string> stopped = env.stopped_by_budget(); !stopped.empty()) {
    report.run_errors.push_back(BudgetVerdict(
        fmt::format("gave up after {} of wall-clock time (the --max-wall-time budget)", FormatDurationMicros(max_wall)),
        report, stopped));
  }
  return report;
}

Result<RunReport> RunSimulated(const Scenario& s, const RunOptions& options, const RunPlan& plan,
                               internal::World& world) {
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<sim::Strategy> strategy, sim::MakeStrategy(plan.strategy));
  if (options.wrap_strategy) strategy = options.wrap_strategy(std::move(strategy));
  sim::Scheduler scheduler(std::move(strategy), plan.seed);
  scheduler.set_untimed(options.untimed);
  scheduler.set_record_schedule(options.record_schedule);
  const RunBudgets defaults = DefaultBudgets(s);
  scheduler.set_budget(options.max_steps.value_or(defaults.max_steps),
                       options.max_virtual_micros.value_or(defaults.max_virtual_micros));
  sim::SimEnv env(&scheduler, plan.latency, world.faults());
  std::unique_ptr<internal::Gates> gates = internal::MakeSimGates(s, &scheduler);
  if (options.effect_gate != nullptr) options.effect_gate->Attach(&scheduler);
  if (options.history != nullptr) options.history->set_step_source([&scheduler] { return scheduler.steps(); });
  auto drawn = [&scheduler] { return scheduler.strategy().DrawnSettings(); };
  world.set_opaque_hooks([&scheduler](sim::StepAccess a) { scheduler.OpaqueStep(a); },
                         [&scheduler](bool on) { scheduler.set_opaque(on); });
  for (sim::RealEnv::Writer& w : world.Writers(&env, gates.get(), drawn))
    scheduler.AddWriter(std::move(w.name), std::move(w.body));
  const Status status = scheduler.Run();
  if (options.history != nullptr) options.history->set_step_source({});
  // A deadlock is the script's fault and is in the writers' run errors; anything else (a
  // replayed schedule that diverged) means the run was not the one asked for.
  if (!status.ok() && !gates->deadlocked()) return status;
  RunReport report = world.Finish();
  if (options.record_schedule) report.schedule = scheduler.ScheduleString();
  report.drawn_settings = scheduler.strategy().DrawnSettings();
  report.virtual_micros = scheduler.now_micros();
  if (scheduler.over_budget()) {
    std::vector<std::string> running;
    for (int w : scheduler.over_budget_running()) running.push_back(scheduler.writer_name(w));
    report.run_errors.push_back(BudgetVerdict(scheduler.budget_verdict(), report, running));
  }
  return report;
}

}  // namespace

RunBudgets DefaultBudgets(const Scenario& scenario) {
  const int64_t steps = static_cast<int64_t>(scenario.TotalSteps());
  return {.max_steps = 10'000'000 + 200 * steps,
          .max_virtual_micros = int64_t{7} * 24 * 3600 * 1'000'000,
          .max_wall_micros = int64_t{10} * 60 * 1'000'000 + 50'000 * steps};
}

std::string_view StepStatusName(StepStatus s) {
  switch (s) {
    case StepStatus::kNotRun: return "not run";
    case StepStatus::kSkipped: return "skipped";
    case StepStatus::kOk: return "ok";
    case StepStatus::kFailed: return "failed";
  }
  return "?";
}

std::string_view WriterReport::StepError(size_t i) const {
  const auto it = std::lower_bound(step_errors.begin(), step_errors.end(), i,
                                   [](const auto& e, size_t step) { return e.first < step; });
  return it != step_errors.end() && it->first == i ? std::string_view(it->second) : std::string_view();
}

int64_t CounterValue(const Counters& c, Counter counter) {
  switch (counter) {
    case Counter::kCommitted: return c.committed;
    case Counter::kAttempts: return c.attempts;
    case Counter::kAtomicFailures: return c.atomic_failures;
    case Counter::kConflicts: return c.conflicts;
    case Counter::kUnknownOutcomes: return c.unknown_outcomes;
    case Counter::kIdempotentMatches: return c.idempotent_matches;
    case Counter::kGaveUp: return c.gave_up;
    case Counter::kOrphanFiles: return c.orphan_files;
  }
  return 0;
}

bool RunReport::invariants_ok() const {
  for (const ViolationReport& v : violations)
    if (!v.expected) return false;
  return true;
}

int RunReport::expectations_passed() const {
  int n = 0;
  for (const ExpectationResult& e : expectations) n += e.passed ? 1 : 0;
  return n;
}

int RunReport::expectations_failed() const { return static_cast<int>(expectations.size()) - expectations_passed(); }

sim::ScriptedFaultPlan::Chooser MaybeFaultChooser(std::string_view mode) {
  if (mode != "skip" && mode != "fire") return {};
  const bool fire = mode == "fire";
  return [fire](const sim::FaultRule&, std::string_view, int64_t) { return fire; };
}

Result<RunReport> RunScenario(const Scenario& scenario, const RunOptions& options) {
  COMMITLAB_ASSIGN_OR_RETURN(RunPlan plan, PlanRun(scenario, options));
  internal::World world(scenario, options, plan);
  COMMITLAB_RETURN_IF_ERROR(world.Open());
  if (plan.free) return RunOnThreads(scenario, options, plan, world);
  return RunSimulated(scenario, options, plan, world);
}

}  // namespace commitlab::scenarios
