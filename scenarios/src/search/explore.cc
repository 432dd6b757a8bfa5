// Explore: stateless depth-first search over a scenario's scheduling and fault choices, with sleep
// sets and a preemption bound (explore.h).
#include "commitlab/scenarios/explore.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/schedule.h"
#include "commitlab/sim/scheduler.h"
#include "commitlab/sim/step_access.h"

namespace commitlab::scenarios {
namespace {

bool Contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// One choice on the current path.
struct Node {
  bool fault = false;  // a `maybe` hit: 0 does not fire, 1 fires
  int chosen = 0;
  std::vector<int> done;    // alternatives explored here, the chosen one included
  std::vector<int> passed;  // alternatives not started: asleep, or over the preemption bound
  // Scheduling points only.
  std::vector<int> runnable;
  std::vector<sim::StepAccess> access;  // by writer index: what its next step touches
  std::vector<int> sleep;               // writers asleep here
  int last = -1;
  bool free_switch = true;  // leaving `last` here is not a preemption
  int preemptions = 0;      // on the path before this choice

  bool Preempts(int w) const { return !free_switch && w != last; }
};

enum class Stop { kNone, kSleepBlocked, kPreemptions, kSteps };

class Search;

// The run's strategy: follows the path's prefix, then extends it with default choices.
class ExploreStrategy final : public sim::Strategy {
 public:
  explicit ExploreStrategy(Search* search) : search_(search) {}
  std::string Describe() const override { return "explore"; }
  Status Start(std::span<const std::string>, uint64_t) override { return Status::OK(); }
  Result<int> Pick(const sim::SchedulePoint& p) override;

 private:
  Search* const search_;
};

class Search {
 public:
  Search(const Scenario& scenario, RunOptions base, const ExploreOptions& options)
      : scenario_(scenario), base_(std::move(base)), options_(options) {}

  Result<ExploreReport> Run();

  Result<int> Pick(const sim::SchedulePoint& p);
  bool ChooseFault();

 private:
  // Runs one execution along stack_[0, prefix_) and beyond. Error: the run could not start.
  Status Execute();
  // Moves to the next unexplored alternative; false when the search is over.
  bool Backtrack();
  // The best default at a new scheduling point, or nullopt (and stop_ set) when there is none.
  std::optional<int> DefaultPick(const Node& n);
  int PathPreemptions() const;
  // Sleep sets and a preemption bound together can cut an order the bound allows (Coons,
  // Musuvathi and McKinley, "Bounded Partial-Order Reduction", OOPSLA 2013): a bounded search
  // runs without them.
  bool reducing() const { return options_.reduce && options_.preemptions < 0; }
  // The run asked for another decision than the one it asked for at this point before.
  Status Diverged() {
    if (error_.ok())
      error_ = Status::InvalidArgument(
          fmt::format("explore: the scenario did not run the same way twice (decision {} differs): its runs are not "
                      "deterministic, so they cannot be explored",
                      cursor_ + 1));
    stop_ = Stop::kSteps;
    return error_;
  }
  // `decisions`: how many of stack_ this execution made.
  void Record(const RunReport& r, int64_t decisions);

  const Scenario& scenario_;
  RunOptions base_;
  const ExploreOptions& options_;
  std::vector<Node> stack_;
  size_t prefix_ = 0;  // decisions fixed for this execution
  size_t cursor_ = 0;  // next decision of this execution
  Stop stop_ = Stop::kNone;
  Status error_;
  ExploreReport report_;
  std::map<std::string, ExploreOutcome> outcomes_;
  std::map<std::string, ExploreFinding> findings_;
};

Result<int> ExploreStrategy::Pick(const sim::SchedulePoint& p) { return search_->Pick(p); }

int Search::PathPreemptions() const {
  for (size_t i = cursor_; i-- > 0;) {
    const Node& n = stack_[i];
    if (!n.fault) return n.preemptions + (n.Preempts(n.chosen) ? 1 : 0);
  }
  return 0;
}

std::optional<int> Search::DefaultPick(const Node& n) {
  std::vector<int> candidates;
  for (int w : n.runnable)
    if (!Contains(n.sleep, w)) candidates.push_back(w);
  if (candidates.empty()) {
    stop_ = Stop::kSleepBlocked;
    return std::nullopt;
  }
  // Keep running the writer that ran (no preemption), unless it waits: a wait lets others go first.
  int pick = -1;
  if (!n.free_switch && Contains(candidates, n.last)) {
    pick = n.last;
  } else {
    for (int w : candidates) {
      if (w > n.last) {
        pick = w;
        break;
      }
    }
    if (pick < 0) pick = candidates.front();
  }
  if (options_.preemptions >= 0 && n.preemptions + (n.Preempts(pick) ? 1 : 0) > options_.preemptions) {
    stop_ = Stop::kPreemptions;
    return std::nullopt;
  }
  return pick;
}

Result<int> Search::Pick(const sim::SchedulePoint& p) {
  if (stop_ != Stop::kNone) return Status::InvalidArgument("execution stopped");
  if (p.step >= options_.max_steps) {
    stop_ = Stop::kSteps;
    return Status::InvalidArgument("execution cut at max steps");
  }
  if (cursor_ < prefix_) {
    const Node& n = stack_[cursor_];
    if (n.fault || !std::binary_search(p.runnable.begin(), p.runnable.end(), n.chosen)) return Diverged();
    ++cursor_;
    return n.chosen;
  }
  Node n;
  n.runnable.assign(p.runnable.begin(), p.runnable.end());
  n.access.assign(static_cast<size_t>(p.scheduler->num_writers()), sim::StepAccess::kOpaque);
  for (int w : n.runnable) n.access[static_cast<size_t>(w)] = p.scheduler->next_access(w);
  n.last = p.last;
  n.free_switch =
      n.last < 0 || !Contains(n.runnable, n.last) || n.access[static_cast<size_t>(n.last)] == sim::StepAccess::kWait;
  n.preemptions = PathPreemptions();
  if (reducing()) {
    // Asleep here: whoever was asleep at the parent, or explored there before the chosen step, and
    // commutes with the chosen step.
    for (size_t i = cursor_; i-- > 0;) {
      const Node& parent = stack_[i];
      if (parent.fault) continue;
      const sim::StepAccess taken = parent.access[static_cast<size_t>(parent.chosen)];
      auto keep = [&](int u) {
        if (u != parent.chosen && Contains(n.runnable, u) && !Contains(n.sleep, u) &&
            sim::Commute(parent.access[static_cast<size_t>(u)], taken))
          n.sleep.push_back(u);
      };
      for (int u : parent.sleep) keep(u);
      for (int u : parent.done) keep(u);
      break;
    }
  }
  const std::optional<int> pick = DefaultPick(n);
  if (!pick) return Status::InvalidArgument("execution stopped");
  n.chosen = *pick;
  n.done = {*pick};
  stack_.push_back(std::move(n));
  ++cursor_;
  return *pick;
}

bool Search::ChooseFault() {
  if (stop_ != Stop::kNone) return false;
  if (cursor_ < prefix_) {
    const Node& n = stack_[cursor_];
    if (!n.fault) {
      (void)Diverged();
      return false;
    }
    ++cursor_;
    return n.chosen == 1;
  }
  Node n;
  n.fault = true;
  n.chosen = 0;  // first the path where it does not fire
  n.done = {0};
  stack_.push_back(std::move(n));
  ++cursor_;
  return false;
}

Status Search::Execute() {
  cursor_ = 0;
  stop_ = Stop::kNone;
  RunOptions run = base_;
  NullEventSink quiet;
  run.events = &quiet;
  run.history = nullptr;
  run.observer = nullptr;
  run.effect_gate = nullptr;
  run.untimed = true;
  run.schedule.clear();
  run.wrap_strategy = [this](std::unique_ptr<sim::Strategy>) -> std::unique_ptr<sim::Strategy> {
    return std::make_unique<ExploreStrategy>(this);
  };
  run.choose_fault = [this](const sim::FaultRule&, std::string_view, int64_t) { return ChooseFault(); };
  Result<RunReport> r = RunScenario(scenario_, run);
  COMMITLAB_RETURN_IF_ERROR(error_);
  switch (stop_) {
    case Stop::kSleepBlocked: ++report_.sleep_blocked; return Status::OK();
    case Stop::kPreemptions: ++report_.cut_preemptions; return Status::OK();
    case Stop::kSteps: ++report_.cut_steps; return Status::OK();
    case Stop::kNone: break;
  }
  if (!r.ok()) return r.status();
  if (cursor_ < prefix_) return Diverged();  // it ended before the choices it made last time
  ++report_.executions;
  Record(*r, static_cast<int64_t>(cursor_));
  return Status::OK();
}

void Search::Record(const RunReport& r, int64_t decisions) {
  int64_t steps = 0, switches = 0;
  if (Result<sim::RecordedSchedule> s = sim::ParseSchedule(r.schedule); s.ok()) {
    steps = s->steps();
    switches = static_cast<int64_t>(s->runs.size()) - 1;
  }
  report_.max_depth = std::max(report_.max_depth, steps);
  ExploreOutcome& o = outcomes_[OutcomeKey(r)];
  if (o.count++ == 0) {
    o.key = OutcomeKey(r);
    o.ok = r.ok();
  }
  // What failed, and the violations the file expects: "can this happen?" is the question here.
  std::vector<RunFailure> kinds = RunFailures(r);
  std::vector<bool> expected(kinds.size(), false);
  for (const ViolationReport& v : r.violations) {
    if (!v.expected) continue;
    kinds.push_back({v.violation.kind, v.violation.message});
    expected.push_back(true);
  }
  std::vector<int> path;
  for (size_t i = 0; i < static_cast<size_t>(decisions) && i < stack_.size(); ++i) path.push_back(stack_[i].chosen);
  std::vector<std::string> fired;
  const std::vector<sim::FaultRule>& rules = r.plan.faults;
  for (const std::string& f : r.fired_faults) {
    // "W:POINT:hit=N:EFFECT": a maybe rule's hit becomes nth=N.
    const size_t hit = f.find(":hit=");
    if (hit == std::string::npos) continue;
    const std::string writer = f.substr(0, f.find(':'));
    const std::string point = f.substr(writer.size() + 1, hit - writer.size() - 1);
    bool maybe = false;
    for (const sim::FaultRule& rule : rules)
      maybe = maybe || (rule.trigger.kind == sim::FaultTrigger::Kind::kMaybe && rule.point == point &&
                        (rule.writer == "*" || rule.writer == writer));
    if (maybe) fired.push_back(std::string(f).replace(hit + 1, 3, "nth"));
  }
  std::set<std::string> counted;  // an execution counts once for each kind it shows
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (!counted.insert(kinds[i].kind).second) continue;
    ExploreFinding& f = findings_[kinds[i].kind];
    // The shortest: fewest context switches (the easiest to read), then fewest steps.
    if (f.executions++ == 0 || std::pair(switches, steps) < std::pair(f.switches, f.steps)) {
      f.switches = switches;
      f.kind = kinds[i].kind;
      f.detail = kinds[i].detail;
      f.expected = expected[i];
      f.steps = steps;
      f.schedule = r.schedule;
      f.faults = fired;
      f.decisions = path;
    }
  }
}

bool Search::Backtrack() {
  while (!stack_.empty()) {
    Node& n = stack_.back();
    std::optional<int> next;
    if (n.fault) {
      if (!Contains(n.done, 1)) next = 1;
    } else {
      for (int w : n.runnable) {
        if (Contains(n.done, w) || Contains(n.passed, w)) continue;
        if (Contains(n.sleep, w)) {
          ++report_.sleep_skipped;
          n.passed.push_back(w);  // counted once
          continue;
        }
        if (options_.preemptions >= 0 && n.preemptions + (n.Preempts(w) ? 1 : 0) > options_.preemptions) {
          ++report_.cut_preemptions;
          n.passed.push_back(w);
          continue;
        }
        next = w;
        break;
      }
    }
    if (next) {
      n.chosen = *next;
      n.done.push_back(*next);
      prefix_ = stack_.size();
      return true;
    }
    stack_.pop_back();
  }
  return false;
}

Result<ExploreReport> Search::Run() {
  Result<RunPlan> plan = PlanRun(scenario_, base_);
  if (!plan.ok()) return plan.status();
  if (plan->free)
    return Status::InvalidArgument("explore runs the scenario simulated: it has `sched free` (pass --sched random)");
  for (const sim::FaultRule& rule : plan->faults) {
    if (rule.trigger.kind == sim::FaultTrigger::Kind::kProbability)
      return Status::InvalidArgument(fmt::format(
          "explore: fault {} draws from the run's random stream, so whether it fires would depend on the order "
          "explored; write the trigger as maybe (explore tries both) or nth=N",
          sim::FormatFaultRule(rule)));
  }
  prefix_ = 0;
  for (;;) {
    COMMITLAB_RETURN_IF_ERROR(Execute());
    if (options_.progress) options_.progress(report_.executions);
    const bool failed =
        std::any_of(findings_.begin(), findings_.end(), [](const auto& f) { return !f.second.expected; });
    const int64_t runs = report_.executions + report_.sleep_blocked + report_.cut_steps;
    if ((options_.stop_at_first && failed) || runs >= options_.max_executions) {
      report_.stopped = Backtrack();  // more to explore?
      break;
    }
    if (!Backtrack()) break;
  }
  for (auto& [key, o] : outcomes_) report_.outcomes.push_back(std::move(o));
  std::stable_sort(report_.outcomes.begin(), report_.outcomes.end(),
                   [](const ExploreOutcome& a, const ExploreOutcome& b) { return a.count > b.count; });
  for (auto& [kind, f] : findings_) report_.findings.push_back(std::move(f));
  // Invariant violations (those the file does not expect first), then expectations, then run errors.
  auto rank = [](const ExploreFinding& f) {
    if (f.kind.rfind("expect ", 0) == 0) return 2;
    if (f.kind == "run error") return 3;
    return f.expected ? 1 : 0;
  };
  std::stable_sort(report_.findings.begin(), report_.findings.end(),
                   [&rank](const ExploreFinding& a, const ExploreFinding& b) { return rank(a) < rank(b); });
  return std::move(report_);
}

// Follows recorded decisions exactly; the run ends as it ended when explored.
class ReplayDecisions {
 public:
  explicit ReplayDecisions(std::vector<int> decisions) : decisions_(std::move(decisions)) {}
  Result<int> Next() {
    if (at_ >= decisions_.size()) return Status::InvalidArgument("the recorded decisions ran out");
    return decisions_[at_++];
  }

 private:
  std::vector<int> decisions_;
  size_t at_ = 0;
};

class ReplayStrategy final : public sim::Strategy {
 public:
  ReplayStrategy(ReplayDecisions* d, std::vector<ExploredStep>* steps) : d_(d), steps_(steps) {}
  std::string Describe() const override { return "explore-replay"; }
  Status Start(std::span<const std::string>, uint64_t) override { return Status::OK(); }
  Result<int> Pick(const sim::SchedulePoint& p) override {
    Result<int> w = d_->Next();
    if (w.ok() && steps_ != nullptr && std::binary_search(p.runnable.begin(), p.runnable.end(), *w))
      steps_->push_back({*w, p.scheduler->next_access(*w)});
    return w;
  }

 private:
  ReplayDecisions* const d_;
  std::vector<ExploredStep>* const steps_;
};

}  // namespace

bool ExploreReport::ok() const {
  return std::all_of(outcomes.begin(), outcomes.end(), [](const ExploreOutcome& o) { return o.ok; });
}

std::string OutcomeKey(const RunReport& r) {
  std::string key;
  for (const TableReport& t : r.tables) {
    key += fmt::format("{}: latest {} [", t.name, t.latest_snapshot);
    for (size_t i = 0; i < t.chain.size(); ++i) {
      const Snapshot& s = t.chain[i];
      const std::string op = i < t.operations.size() ? t.operations[i] : std::string(CommitKindName(s.kind));
      key += fmt::format("{}{} {} {}/{}", i == 0 ? "" : ", ", s.id, op, s.commit_user, s.commit_identifier);
    }
    key += "]";
    for (const auto& [name, value] : t.counters) key += fmt::format(" {}={}", name, value);
    key += "; ";
  }
  for (const WriterReport& w : r.writers) {
    key += fmt::format("{} {}", w.name, OutcomeName(w.outcome));
    const Counters& c = w.counters;
    const std::pair<const char*, int64_t> shown[] = {
        {"committed", c.committed}, {"attempts", c.attempts},        {"atomic_failures", c.atomic_failures},
        {"conflicts", c.conflicts}, {"unknown", c.unknown_outcomes}, {"idempotent", c.idempotent_matches},
        {"gave_up", c.gave_up},     {"orphans", c.orphan_files}};
    for (const auto& [name, value] : shown)
      if (value != 0) key += fmt::format(" {}={}", name, value);
    key += "; ";
  }
  std::vector<std::string> kinds;
  for (const ViolationReport& v : r.violations) kinds.push_back(v.violation.kind);
  std::sort(kinds.begin(), kinds.end());
  kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
  key += "violations:";
  if (kinds.empty()) key += " none";
  for (const std::string& k : kinds) key += " " + k;
  return key;
}

Result<ExploreReport> Explore(const Scenario& scenario, RunOptions base, const ExploreOptions& options) {
  Search search(scenario, std::move(base), options);
  return search.Run();
}

Result<RunReport> ReplayExploration(const Scenario& scenario, RunOptions base, const std::vector<int>& decisions,
                                    std::vector<ExploredStep>* steps) {
  // The decisions interleave picks and fault choices in the order the run asked for them.
  ReplayDecisions d(decisions);
  base.untimed = true;
  base.schedule.clear();
  base.wrap_strategy = [&d, steps](std::unique_ptr<sim::Strategy>) -> std::unique_ptr<sim::Strategy> {
    return std::make_unique<ReplayStrategy>(&d, steps);
  };
  base.choose_fault = [&d](const sim::FaultRule&, std::string_view, int64_t) {
    Result<int> c = d.Next();
    return c.ok() && *c == 1;
  };
  return RunScenario(scenario, base);
}

}  // namespace commitlab::scenarios
