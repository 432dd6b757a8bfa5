#include "commitlab/scenarios/stepper.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "commitlab/sim/history.h"
#include "commitlab/sim/history_fields.h"
#include "commitlab/sim/schedule.h"

namespace commitlab::scenarios {
namespace {

using sim::Json;

// Where a replay stopped: the point the user chooses at.
struct Pause {
  bool paused = false;
  std::vector<int> runnable;
  int seed_pick = -1;
};

// Follows the picks made so far, then stops the run at the next point (`pause`), or lets the
// wrapped strategy go on to the end. The wrapped strategy is asked at every point, so it sees the
// run as an unattended one would and its choice at the pause is the seed's.
class FollowThenPause final : public sim::Strategy {
 public:
  FollowThenPause(std::unique_ptr<sim::Strategy> inner, std::vector<int> picks, bool pause, Pause* out)
      : inner_(std::move(inner)), picks_(std::move(picks)), pause_(pause), out_(out) {}

  std::string Describe() const override { return inner_->Describe(); }
  Status Start(std::span<const std::string> writers, uint64_t draw) override { return inner_->Start(writers, draw); }
  Result<int> Pick(const sim::SchedulePoint& p) override {
    Result<int> own = inner_->Pick(p);
    const size_t at = static_cast<size_t>(p.step);
    if (at < picks_.size()) {
      if (!std::binary_search(p.runnable.begin(), p.runnable.end(), picks_[at]))
        return Status::InvalidArgument(
            fmt::format("pick {}: writer {} cannot run", at + 1, sim::WriterSymbol(picks_[at])));
      return picks_[at];
    }
    if (!pause_) return own;
    out_->paused = true;
    out_->runnable.assign(p.runnable.begin(), p.runnable.end());
    out_->seed_pick = own.ok() ? *own : -1;
    return Status::InvalidArgument("paused for the user's pick");
  }
  Status Finish(int64_t steps) override { return inner_->Finish(steps); }
  std::string DrawnSettings() const override { return inner_->DrawnSettings(); }

 private:
  std::unique_ptr<sim::Strategy> inner_;
  const std::vector<int> picks_;
  const bool pause_;
  Pause* const out_;
};

std::string Num(const Json& e, const char* key) {
  return e.contains(key) && e[key].is_number_integer() ? std::to_string(e[key].get<int64_t>()) : "?";
}
std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

// One event of the last step, as a line for the stepper's screen.
std::string EventLine(const Json& e) {
  const std::string type = sim::StringField(e, "type");
  const std::string who = sim::StringField(e, "writer");
  if (type == "op_start") return fmt::format("{} starts {}", who, sim::StringField(e, "op"));
  if (type == "op_end") {
    const std::string op = sim::StringField(e, "op");
    if (e.contains("saw")) return fmt::format("{} {}: saw {}", who, op, Num(e, "saw"));
    if (op == "publish")
      return fmt::format("{} publish #{}: {}", who, Num(e, "snapshot"), sim::StringField(e, "outcome"));
    return fmt::format("{} {} done{}", who, op,
                       sim::StringField(e, "file").empty() ? "" : ": " + sim::StringField(e, "file"));
  }
  if (type == "step_start") return fmt::format("{} line {}: {}", who, Num(e, "line"), sim::StringField(e, "op"));
  if (type == "step_end") {
    return fmt::format("{} line {} {}: {}", who, Num(e, "line"), sim::StringField(e, "status"),
                       FirstLine(sim::StringField(e, sim::StringField(e, "status") == "failed" ? "error" : "detail")));
  }
  if (type == "gate_wait")
    return fmt::format("{} waits at order {} (line {})", who, sim::StringField(e, "order"), Num(e, "line"));
  if (type == "gate_open") return fmt::format("{} goes on past order {}", who, sim::StringField(e, "order"));
  if (type == "retry_wait")
    return fmt::format("{} waits {} ms", who, static_cast<double>(e.value("wait_us", 0)) / 1000.0);
  if (type == "fault")
    return fmt::format("{} fault {} at {}", who, sim::StringField(e, "effect"), sim::StringField(e, "point"));
  if (type == "attempt") return fmt::format("{} attempt {} on base {}", who, Num(e, "attempt"), Num(e["plan"], "base"));
  const std::string level = sim::StringField(e, "level");
  return fmt::format("{} {}{}", who, level.empty() ? "" : level + " ", FirstLine(sim::StringField(e, "message")));
}

// How a writer stands after `e`, its latest event.
void Track(const Json& e, StepperWriter* w) {
  const std::string type = sim::StringField(e, "type");
  if (type == "op_start") {
    w->phase = "in " + sim::StringField(e, "op");
  } else if (type == "op_end") {
    w->phase = e.contains("saw") ? fmt::format("read the latest: {}", Num(e, "saw"))
                                 : fmt::format("{} done", sim::StringField(e, "op"));
  } else if (type == "attempt") {
    w->attempt = static_cast<int>(e.value("attempt", 0));
    if (e.contains("plan") && e["plan"].is_object() && e["plan"].contains("base") &&
        e["plan"]["base"].is_number_integer())
      w->base = e["plan"]["base"].get<int64_t>();
    w->phase = fmt::format("attempt {}", w->attempt);
  } else if (type == "retry_wait") {
    w->phase = fmt::format("waits {} ms", static_cast<double>(e.value("wait_us", 0)) / 1000.0);
  } else if (type == "gate_wait") {
    w->phase = fmt::format("held at order line {}", Num(e, "line"));
  } else if (type == "step_start") {
    w->phase = fmt::format("line {}: {}", Num(e, "line"), sim::StringField(e, "op"));
    w->failed = false;
  } else if (type == "step_end") {
    w->phase = fmt::format("line {} {}", Num(e, "line"), sim::StringField(e, "status"));
    w->failed = sim::StringField(e, "status") == "failed";
  } else if (type == "published") {
    w->phase = "published #" + Num(e, "snapshot");
  } else if (type == "atomic_commit_failed") {
    w->phase = "lost the race for #" + Num(e, "snapshot");
  } else if (type == "conflict" || type == "gave_up" || type == "crashed") {
    w->phase = type == "conflict" ? "refused" : type == "gave_up" ? "gave up" : "crashed";
  }
}

}  // namespace

Result<std::unique_ptr<Stepper>> Stepper::Create(const Scenario& scenario, RunOptions options) {
  COMMITLAB_ASSIGN_OR_RETURN(RunPlan plan, PlanRun(scenario, options));
  if (plan.free)
    return Status::InvalidArgument("the stepper runs a simulated scenario: pass --sched random (or pct, round-robin)");
  std::unique_ptr<Stepper> s(new Stepper(scenario, std::move(options)));
  COMMITLAB_RETURN_IF_ERROR(s->Replay());
  return s;
}

Status Stepper::Pick(int writer) {
  if (state_.finished) return Status::InvalidArgument("the run is over");
  for (const StepperWriter& w : state_.writers) {
    if (&w - state_.writers.data() != writer) continue;
    if (!w.runnable) return Status::InvalidArgument(fmt::format("{} ({}) cannot run now", w.name, w.symbol));
    picks_.push_back(writer);
    return Replay();
  }
  return Status::InvalidArgument(fmt::format("there is no writer {}", sim::WriterSymbol(writer)));
}

Status Stepper::PickAsTheSeedWould() {
  if (state_.finished) return Status::InvalidArgument("the run is over");
  return Pick(state_.seed_pick);
}

Result<bool> Stepper::Undo() {
  if (picks_.empty()) return false;
  picks_.pop_back();
  COMMITLAB_RETURN_IF_ERROR(Replay());
  return true;
}

Result<std::string> Stepper::CompleteSchedule() const {
  RunOptions run = options_;
  run.history = nullptr;
  run.observer = nullptr;
  NullEventSink none;
  run.events = &none;
  run.wrap_strategy = [picks = picks_](std::unique_ptr<sim::Strategy> inner) -> std::unique_ptr<sim::Strategy> {
    return std::make_unique<FollowThenPause>(std::move(inner), picks, /*pause=*/false, nullptr);
  };
  COMMITLAB_ASSIGN_OR_RETURN(RunReport report, RunScenario(scenario_, run));
  return report.schedule;
}

Status Stepper::Replay() {
  RunOptions run = options_;
  sim::History history;
  NullEventSink none;
  Pause pause;
  run.history = &history;
  run.observer = nullptr;
  run.events = &none;
  run.wrap_strategy = [&pause, picks = picks_](std::unique_ptr<sim::Strategy> inner) -> std::unique_ptr<sim::Strategy> {
    return std::make_unique<FollowThenPause>(std::move(inner), picks, /*pause=*/true, &pause);
  };
  Result<RunReport> report = RunScenario(scenario_, run);
  // A pause ends the run as a diverged schedule does; anything else is the run's own error.
  if (!report.ok() && !pause.paused) return report.status();

  StepperState next;
  next.step = static_cast<int64_t>(picks_.size());
  next.finished = !pause.paused;
  next.seed_pick = pause.seed_pick;
  for (int p : picks_) next.picks += sim::WriterSymbol(p);
  std::map<std::string, size_t> index;
  std::vector<size_t> steps_ended(scenario_.writers.size(), 0);
  for (size_t i = 0; i < scenario_.writers.size(); ++i) {
    index[scenario_.writers[i].name] = i;
    next.writers.push_back({.name = scenario_.writers[i].name,
                            .symbol = sim::WriterSymbol(static_cast<int>(i)),
                            .runnable = false,
                            .phase = "not started"});
  }
  for (int r : pause.runnable)
    if (static_cast<size_t>(r) < next.writers.size()) next.writers[static_cast<size_t>(r)].runnable = true;
  for (const std::string& line : history.lines()) {
    const Json e = Json::parse(line);
    // Events of the run after the pause (finished under a fallback strategy) are not this state's.
    if (pause.paused && e.contains("step") && e["step"].is_number_integer() && e["step"].get<int64_t>() > next.step)
      break;
    auto w = index.find(sim::StringField(e, "writer"));
    if (w == index.end()) continue;
    StepperWriter& writer = next.writers[w->second];
    Track(e, &writer);
    if (sim::StringField(e, "type") == "step_end") ++steps_ended[w->second];
    if (sim::StringField(e, "type") == "published" && e.contains("snapshot") && e["snapshot"].is_number_integer())
      next.latest = e["snapshot"].get<int64_t>();
    if (e.contains("step") && e["step"].is_number_integer() && e["step"].get<int64_t>() == next.step && next.step > 0)
      next.events.push_back(EventLine(e));
  }
  // A writer that stopped on a failure keeps saying so; one that reached its end is done.
  for (size_t i = 0; i < next.writers.size(); ++i) {
    if (!next.writers[i].runnable && !next.writers[i].failed && steps_ended[i] == scenario_.writers[i].steps.size())
      next.writers[i].phase = "done";
  }
  if (next.finished && report.ok()) next.report = std::move(*report);
  state_ = std::move(next);
  return Status::OK();
}

}  // namespace commitlab::scenarios
