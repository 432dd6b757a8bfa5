#include "commitlab/scenarios/stepper.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "commitlab/scenarios/report_json.h"
#include "commitlab/sim/explain.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/history_fields.h"
#include "commitlab/sim/run_state.h"
#include "commitlab/sim/schedule.h"

namespace commitlab::scenarios {
namespace {

// A table row of the stepper's state panel names at most this many live files (fewer than the
// page's: a terminal is narrower).
constexpr size_t kPanelFiles = 6;

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

}  // namespace

Result<std::unique_ptr<Stepper>> Stepper::Create(const Scenario& scenario, RunOptions options, sim::Language language) {
  COMMITLAB_ASSIGN_OR_RETURN(RunPlan plan, PlanRun(scenario, options));
  if (plan.free)
    return Status::InvalidArgument("the stepper runs a simulated scenario: pass --sched random (or pct, round-robin)");
  std::unique_ptr<Stepper> s(new Stepper(scenario, std::move(options), language));
  COMMITLAB_RETURN_IF_ERROR(s->Replay());
  return s;
}

Status Stepper::Pick(int writer) {
  if (state_.finished) return Status::InvalidArgument(sim::Say(language_, "the run is over", "运行已经结束"));
  for (const StepperWriter& w : state_.writers) {
    if (&w - state_.writers.data() != writer) continue;
    if (!w.runnable) {
      const std::string why = w.waits_for.empty() ? w.phase : w.waits_for;
      return Status::InvalidArgument(sim::Say(language_, "{0} ({1}) cannot run now: {2}; the clock is at {3}",
                                              "{0}（{1}）现在不能运行：{2}；时钟在 {3}", w.name, w.symbol, why,
                                              sim::Clock(state_.now_micros)));
    }
    picks_.push_back(writer);
    return Replay();
  }
  return Status::InvalidArgument(
      sim::Say(language_, "there is no writer {0}", "没有写入方 {0}", sim::WriterSymbol(writer)));
}

Status Stepper::PickAsTheSeedWould() {
  if (state_.finished) return Status::InvalidArgument(sim::Say(language_, "the run is over", "运行已经结束"));
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

StepperState Stepper::Read(const sim::History& history, bool paused, const std::vector<int>& runnable, int seed_pick,
                           RunReport* report) const {
  StepperState next;
  next.step = static_cast<int64_t>(picks_.size());
  next.finished = !paused;
  next.seed_pick = seed_pick;
  for (int p : picks_) next.picks += sim::WriterSymbol(p);
  const std::vector<std::string> lines = history.lines();
  std::vector<Json> parsed;
  parsed.reserve(lines.size());
  for (const std::string& line : lines) parsed.push_back(Json::parse(line));
  sim::RunState state(parsed.empty() ? Json::object() : parsed.front(), language_);
  std::vector<std::string> before_rows;  // the writers' rows before the last pick
  std::vector<std::string> before_tables;
  size_t first_now = parsed.size();  // the first history line of the last pick
  size_t last_now = parsed.size();   // past the last line this state shows
  for (size_t i = 1; i < parsed.size(); ++i) {
    const Json& e = parsed[i];
    const int64_t step = sim::IntField(e, "step", -1);
    // Events of the run after the pause (finished under a fallback strategy) are not this state's.
    if (paused && step > next.step) {
      last_now = i;
      break;
    }
    // The footer's "the run is over" is the last screen's own line.
    const bool now = next.step > 0 && step == next.step;
    if (now && first_now == parsed.size()) {
      first_now = i;
      for (size_t w = 0; w < state.writers().size(); ++w) before_rows.push_back(state.WriterLine(w));
      for (size_t t = 0; t < state.tables().size(); ++t) before_tables.push_back(state.TableLine(t, kPanelFiles));
    }
    for (std::string& said : state.Apply(e))
      if (now) next.events.push_back(std::move(said));
  }
  for (size_t i = 0; i < scenario_.writers.size(); ++i) {
    StepperWriter w{.name = scenario_.writers[i].name, .symbol = sim::WriterSymbol(static_cast<int>(i))};
    for (size_t k = 0; k < state.writers().size(); ++k) {
      const sim::WriterNow& now = state.writers()[k];
      if (now.name != w.name) continue;
      w.phase = now.phase;
      w.waits_for = now.waits_for;
      w.base = now.base;
      if (now.base) w.base_name = state.IdOf(now.table, *now.base);
      w.attempt = now.attempt;
      w.failed = now.failed;
      w.changed = k < before_rows.size() && before_rows[k] != state.WriterLine(k);
    }
    next.writers.push_back(std::move(w));
  }
  for (int r : runnable)
    if (static_cast<size_t>(r) < next.writers.size()) next.writers[static_cast<size_t>(r)].runnable = true;
  for (size_t t = 0; t < state.tables().size(); ++t) {
    const std::string row = state.TableLine(t, kPanelFiles);
    next.tables.push_back(
        {.name = state.tables()[t].name, .state = row, .changed = t < before_tables.size() && before_tables[t] != row});
  }
  if (!state.tables().empty()) next.latest = state.tables().front().latest;
  next.now_micros = state.now_us();
  next.why = WhyNow(parsed, first_now, last_now);
  if (next.finished && report != nullptr) next.report = std::move(*report);
  return next;
}

// The explanations (sim/explain.h) of the events in lines [first, last): a refusal's merge table,
// a lost race's winner, a lost update once the run is over.
std::vector<std::string> Stepper::WhyNow(const std::vector<Json>& parsed, size_t first, size_t last) const {
  std::vector<std::string> out;
  if (first >= parsed.size()) return out;
  const std::vector<Json> upto(parsed.begin(), parsed.begin() + static_cast<std::ptrdiff_t>(last));
  Result<std::vector<sim::Explanation>> why = sim::ExplainHistory(upto, language_);
  if (!why.ok()) return out;
  for (const sim::Explanation& x : *why) {
    // Lines are 1-based: parsed[i] is line i + 1.
    if (x.line < first + 1 || x.line > last || x.kind == "lost-race") continue;
    for (size_t i = 0; i < x.lines.size(); ++i)
      out.push_back((i == 0 ? sim::Say(language_, "why: ", "原因：")
                            : std::string(language_ == sim::Language::kChinese ? 6 : 5, ' ')) +
                    x.lines[i]);
  }
  return out;
}

Status Stepper::Replay() {
  RunOptions run = options_;
  sim::History history;
  // What a reader of the history needs from its header: the tables and writers, the retry policy.
  Result<RunPlan> plan = PlanRun(scenario_, options_);
  if (!plan.ok()) return plan.status();
  history.Header({{"scenario", {{"file", scenario_.file_name}, {"text", scenario_.text}}}, {"plan", PlanJson(*plan)}});
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
  if (report.ok()) history.Footer(HistoryFooter(*report));  // the run's verdicts, for the last screen
  StepperState next = Read(history, pause.paused, pause.runnable, pause.seed_pick, report.ok() ? &*report : nullptr);
  state_ = std::move(next);
  return Status::OK();
}

}  // namespace commitlab::scenarios
