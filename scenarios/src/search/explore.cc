// Explore: stateless depth-first search over a scenario's scheduling and fault choices, with sleep
// sets and a preemption bound (explore.h).
#include "commitlab/scenarios/explore.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_set>
#include <utility>

#include "commitlab/core/rng.h"
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
  // With coverage: the state here (CoveragePoint): the hash of the shared steps' order so far,
  // and each writer's steps.
  uint64_t order = 0;
  std::vector<int> steps = {};

  bool Preempts(int w) const { return !free_switch && w != last; }
};

enum class Stop { kNone, kSleepBlocked, kPreemptions, kSteps, kNotOwned };

class Search;

// What the executions found, kept across the searches of one exploration (kBounded runs one per
// bound): outcomes, findings, the states seen and the coverage curve.
struct Found {
  std::map<std::string, ExploreOutcome> outcomes;
  std::map<std::string, ExploreFinding> findings;
  std::unordered_set<uint64_t> states;
  std::vector<CoveragePoint> coverage;
  int64_t executions = 0;  // run to the end, over every search
  std::clock_t start = std::clock();

  void Point() {
    coverage.push_back({executions, static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC,
                        static_cast<int64_t>(outcomes.size()), static_cast<int64_t>(states.size())});
  }
};

uint64_t Mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e37'79b9'7f4a'7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51'afd7'ed55'8ccdULL;
}

// The run's strategy: follows the path's prefix, then extends it with default choices.
class ExploreStrategy final : public sim::Strategy {
 public:
  explicit ExploreStrategy(Search* search) : search_(search) {}
  std::string Describe() const override { return "explore"; }
  Status Start(std::span<const std::string> writers, uint64_t) override;
  Result<int> Pick(const sim::SchedulePoint& p) override;

 private:
  Search* const search_;
};

class Search {
 public:
  Search(const Scenario& scenario, RunOptions base, const ExploreOptions& options, Found* found)
      : scenario_(scenario),
        base_(std::move(base)),
        options_(options),
        found_(*found),
        walk_(options.mode == ExploreOptions::Mode::kRandomWalk),
        rng_(options.walk_seed) {}

  Result<ExploreReport> Run();

  Result<int> Pick(const sim::SchedulePoint& p);
  bool ChooseFault();
  void set_writers(size_t n) { writers_ = static_cast<int>(n); }

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
  bool reducing() const { return options_.reduce && options_.preemptions < 0 && !walk_; }
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
  // The schedule string of the execution that made stack_[0, decisions): its picks, which are
  // every step's (the runs keep none: RunOptions::record_schedule).
  std::string ScheduleOf(int64_t decisions) const {
    sim::RecordedSchedule schedule{.writers = writers_, .runs = {}};
    for (size_t i = 0; i < static_cast<size_t>(decisions) && i < stack_.size(); ++i)
      if (!stack_[i].fault) schedule.Append(stack_[i].chosen);
    return sim::FormatSchedule(schedule);
  }
  // Sharded: a decision at depth split_depth in a subtree this shard does not own ends the run.
  bool LeavesShard() {
    if (options_.split_depth == 0 || cursor_ != static_cast<size_t>(options_.split_depth)) return false;
    if (new_unit_) ++report_.units_split;
    new_unit_ = false;  // counted once
    if (owned_) return false;
    stop_ = Stop::kNotOwned;
    return true;
  }
  // Sharded: whether a count made while backtracking at stack_[depth] is this shard's. Above the
  // split every shard backtracks alike, and shard 0 counts; below, the subtree's owner.
  bool Counts(size_t depth) const {
    if (options_.split_depth == 0) return true;
    return depth < static_cast<size_t>(options_.split_depth) ? options_.shard_index == 0 : owned_;
  }
  // Starts the next execution's subtree if the last backtrack went above the split.
  void EnterUnit();
  // With coverage: the state at the new node stack_[cursor_], from the decision before it.
  void NoteState(Node* n);
  std::string UnitPrefix() const;

  const Scenario& scenario_;
  RunOptions base_;
  const ExploreOptions& options_;
  std::vector<Node> stack_;
  size_t prefix_ = 0;  // decisions fixed for this execution
  size_t cursor_ = 0;  // next decision of this execution
  Stop stop_ = Stop::kNone;
  Status error_;
  ExploreReport report_;
  Found& found_;
  const int base_writers_ = static_cast<int>(scenario_.writers.size());
  const bool walk_;  // kRandomWalk: each choice drawn from rng_
  Rng rng_;
  int writers_ = 0;       // the scheduler's writers (a schedule string names their count)
  int64_t unit_ = -1;     // the subtree being explored, in depth-first order
  bool owned_ = true;     // ... is this shard's
  bool new_unit_ = true;  // this execution entered a subtree, and has not reached the split yet
  bool entered_ = false;  // this execution entered a subtree
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

Status ExploreStrategy::Start(std::span<const std::string> writers, uint64_t) {
  search_->set_writers(writers.size());
  return Status::OK();
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
  if (LeavesShard()) return Status::InvalidArgument("another shard's subtree");
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
  const std::optional<int> pick =
      walk_ ? std::optional<int>(n.runnable[rng_.Below(n.runnable.size())]) : DefaultPick(n);
  if (!pick) return Status::InvalidArgument("execution stopped");
  n.chosen = *pick;
  n.done = {*pick};
  if (options_.coverage) NoteState(&n);
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
  if (LeavesShard()) return false;
  Node n;
  n.fault = true;
  n.chosen = walk_ && rng_.Chance(0.5) ? 1 : 0;  // depth first: first the path where it does not fire
  n.done = {n.chosen};
  if (options_.coverage) NoteState(&n);
  const bool fire = n.chosen == 1;
  stack_.push_back(std::move(n));
  ++cursor_;
  return fire;
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
  run.step_details = false;     // narration nobody reads here
  run.record_schedule = false;  // Record formats one from stack_ when a finding needs it
  run.schedule.clear();
  run.wrap_strategy = [this](std::unique_ptr<sim::Strategy>) -> std::unique_ptr<sim::Strategy> {
    return std::make_unique<ExploreStrategy>(this);
  };
  run.choose_fault = [this](const sim::FaultRule&, std::string_view, int64_t) { return ChooseFault(); };
  Result<RunReport> r = RunScenario(scenario_, run);
  COMMITLAB_RETURN_IF_ERROR(error_);
  if (entered_ && owned_) report_.owned.push_back(UnitPrefix());
  const int64_t mine = owned_ ? 1 : 0;
  switch (stop_) {
    case Stop::kSleepBlocked: report_.sleep_blocked += mine; return Status::OK();
    case Stop::kPreemptions: report_.cut_preemptions += mine; return Status::OK();
    case Stop::kSteps: report_.cut_steps += mine; return Status::OK();
    case Stop::kNotOwned:
      // None of this subtree is ours: back to the split, whose next choice starts another.
      stack_.resize(std::min(stack_.size(), static_cast<size_t>(options_.split_depth)));
      return Status::OK();
    case Stop::kNone: break;
  }
  if (!owned_) {
    if (!r.ok()) return r.status();
    return Status::OK();  // it ended above the split: a subtree of one execution, another shard's
  }
  if (!r.ok()) return r.status();
  if (cursor_ < prefix_) return Diverged();  // it ended before the choices it made last time
  ++report_.executions;
  Record(*r, static_cast<int64_t>(cursor_));
  // A point at every power of two: the curve costs nothing between them.
  if (options_.coverage) {
    const int64_t n = ++found_.executions;
    if ((n & (n - 1)) == 0) found_.Point();
  }
  return Status::OK();
}

void Search::Record(const RunReport& r, int64_t decisions) {
  // The explorer is asked at every step (ExploreStrategy picks even a lone writer), so the steps
  // and context switches are its own picks: no need to parse the schedule string back.
  int64_t steps = 0, switches = 0;
  int last = -1;
  for (size_t i = 0; i < static_cast<size_t>(decisions) && i < stack_.size(); ++i) {
    if (stack_[i].fault) continue;
    switches += steps > 0 && stack_[i].chosen != last ? 1 : 0;
    last = stack_[i].chosen;
    ++steps;
  }
  report_.max_depth = std::max(report_.max_depth, steps);
  std::string key = OutcomeKey(r);
  ExploreOutcome& o = found_.outcomes[key];
  if (o.count++ == 0) {
    o.key = std::move(key);
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
    ExploreFinding& f = found_.findings[kinds[i].kind];
    // The shortest: fewest context switches (the easiest to read), then fewest steps.
    if (f.executions++ == 0 || std::pair(switches, steps) < std::pair(f.switches, f.steps)) {
      f.switches = switches;
      f.kind = kinds[i].kind;
      f.detail = kinds[i].detail;
      f.expected = expected[i];
      f.steps = steps;
      f.schedule = ScheduleOf(decisions);
      f.faults = fired;
      f.decisions = path;
      f.unit = std::max<int64_t>(unit_, 0);
    }
  }
}

void Search::EnterUnit() {
  new_unit_ = entered_ = options_.split_depth > 0 && prefix_ <= static_cast<size_t>(options_.split_depth);
  if (!new_unit_) return;
  ++unit_;
  report_.units = unit_ + 1;
  owned_ = options_.shard_index >= 0 && unit_ % options_.shard_count == options_.shard_index;
}

std::string Search::UnitPrefix() const {
  std::string out;
  const size_t n = std::min(stack_.size(), static_cast<size_t>(options_.split_depth));
  for (size_t i = 0; i < n; ++i)
    out += fmt::format("{}{}{}", i == 0 ? "" : " ", stack_[i].fault ? "f" : "", stack_[i].chosen);
  return out;
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
          report_.sleep_skipped += Counts(stack_.size() - 1) ? 1 : 0;
          n.passed.push_back(w);  // counted once
          continue;
        }
        if (options_.preemptions >= 0 && n.preemptions + (n.Preempts(w) ? 1 : 0) > options_.preemptions) {
          report_.cut_preemptions += Counts(stack_.size() - 1) ? 1 : 0;
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
  COMMITLAB_ASSIGN_OR_RETURN(RunPlan plan, PlanRun(scenario_, base_));
  if (plan.free)
    return Status::InvalidArgument("explore runs the scenario simulated: it has `sched free` (pass --sched random)");
  for (const sim::FaultRule& rule : plan.faults) {
    if (rule.trigger.kind == sim::FaultTrigger::Kind::kProbability)
      return Status::InvalidArgument(fmt::format(
          "explore: fault {} draws from the run's random stream, so whether it fires would depend on the order "
          "explored; write the trigger as maybe (explore tries both) or nth=N",
          sim::FormatFaultRule(rule)));
  }
  prefix_ = 0;
  for (;;) {
    EnterUnit();
    COMMITLAB_RETURN_IF_ERROR(Execute());
    if (options_.progress) options_.progress(report_.executions);
    const bool failed =
        std::any_of(found_.findings.begin(), found_.findings.end(), [](const auto& f) { return !f.second.expected; });
    const int64_t runs = report_.executions + report_.sleep_blocked + report_.cut_steps;
    if ((options_.stop_at_first && failed) || runs >= options_.max_executions) {
      report_.stopped = walk_ || Backtrack();  // more to explore? (a walk never knows)
      break;
    }
    if (walk_) {  // every walk starts afresh from the root
      stack_.clear();
      prefix_ = 0;
      continue;
    }
    if (!Backtrack()) break;
  }
  return std::move(report_);
}

void Search::NoteState(Node* n) {
  if (cursor_ == 0) {
    n->steps.assign(static_cast<size_t>(base_writers_), 0);
  } else {
    const Node& before = stack_[cursor_ - 1];
    n->order = before.order;
    n->steps = before.steps;
    if (before.fault) {
      n->order = Mix(n->order, 0xfa00 + static_cast<uint64_t>(before.chosen));
    } else {
      const auto w = static_cast<size_t>(before.chosen);
      if (w >= n->steps.size()) n->steps.resize(w + 1, 0);
      ++n->steps[w];
      if (before.access[w] != sim::StepAccess::kLocal)
        n->order = Mix(n->order, (w << 8) | static_cast<uint64_t>(before.access[w]));
    }
  }
  uint64_t h = n->order;
  for (int c : n->steps) h = Mix(h, static_cast<uint64_t>(c));
  found_.states.insert(h);
}

// The report's outcomes and findings, in their order, from what the searches found.
void Finish(Found* found, ExploreReport* report) {
  for (auto& [key, o] : found->outcomes) report->outcomes.push_back(std::move(o));
  std::stable_sort(report->outcomes.begin(), report->outcomes.end(),
                   [](const ExploreOutcome& a, const ExploreOutcome& b) { return a.count > b.count; });
  for (auto& [kind, f] : found->findings) report->findings.push_back(std::move(f));
  // Invariant violations (those the file does not expect first), then expectations, then run errors.
  auto rank = [](const ExploreFinding& f) {
    if (f.kind.rfind("expect ", 0) == 0) return 2;
    if (f.kind == "run error") return 3;
    return f.expected ? 1 : 0;
  };
  std::stable_sort(report->findings.begin(), report->findings.end(),
                   [&rank](const ExploreFinding& a, const ExploreFinding& b) { return rank(a) < rank(b); });
}

// kBounded: bound 0, 1, 2, ... until a bound cuts nothing (the search is complete) or the
// executions run out. Each bound's search repeats the executions of the bounds below it.
Result<ExploreReport> ExploreBounded(const Scenario& scenario, const RunOptions& base, const ExploreOptions& options,
                                     Found* found) {
  ExploreReport total;
  int64_t left = options.max_executions;
  for (int bound = 0;; ++bound) {
    ExploreOptions o = options;
    o.preemptions = bound;
    o.max_executions = left;
    Search search(scenario, base, o, found);
    COMMITLAB_ASSIGN_OR_RETURN(ExploreReport r, search.Run());
    total.executions += r.executions;
    total.sleep_blocked += r.sleep_blocked;
    total.cut_steps += r.cut_steps;
    total.cut_preemptions = r.cut_preemptions;  // the last bound's: zero means nothing was cut
    total.max_depth = std::max(total.max_depth, r.max_depth);
    total.bound = bound;
    left -= r.executions + r.sleep_blocked + r.cut_steps;
    if (r.stopped || (r.cut_preemptions > 0 && left <= 0)) {
      total.stopped = true;
      break;
    }
    if (r.cut_preemptions == 0) break;
  }
  return total;
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
  // Built by appending, not fmt::format: every execution makes one, and formatting was a tenth of
  // an execution's cost.
  std::string key;
  key.reserve(256);
  auto number = [&key](int64_t v) {
    char buf[24];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    key.append(buf, end);
  };
  for (const TableReport& t : r.tables) {
    key.append(t.name).append(": latest ");
    number(t.latest_snapshot);
    key.append(" [");
    for (size_t i = 0; i < t.chain.size(); ++i) {
      const Snapshot& s = t.chain[i];
      if (i > 0) key.append(", ");
      number(s.id);
      key.append(" ").append(i < t.operations.size() ? std::string_view(t.operations[i]) : CommitKindName(s.kind));
      key.append(" ").append(s.commit_user).append("/");
      number(s.commit_identifier);
    }
    key.append("]");
    for (const auto& [name, value] : t.counters) {
      key.append(" ").append(name).append("=");
      number(value);
    }
    key.append("; ");
  }
  for (const WriterReport& w : r.writers) {
    key.append(w.name).append(" ").append(OutcomeName(w.outcome));
    const Counters& c = w.counters;
    const std::pair<const char*, int64_t> shown[] = {
        {"committed", c.committed}, {"attempts", c.attempts},        {"atomic_failures", c.atomic_failures},
        {"conflicts", c.conflicts}, {"unknown", c.unknown_outcomes}, {"idempotent", c.idempotent_matches},
        {"gave_up", c.gave_up},     {"orphans", c.orphan_files}};
    for (const auto& [name, value] : shown) {
      if (value == 0) continue;
      key.append(" ").append(name).append("=");
      number(value);
    }
    key.append("; ");
  }
  std::vector<std::string_view> kinds;
  for (const ViolationReport& v : r.violations) kinds.push_back(v.violation.kind);
  std::sort(kinds.begin(), kinds.end());
  kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
  key.append("violations:");
  if (kinds.empty()) key.append(" none");
  for (std::string_view k : kinds) key.append(" ").append(k);
  return key;
}

Result<int> ChooseSplitDepth(const Scenario& scenario, RunOptions base, const ExploreOptions& options,
                             int shard_count) {
  constexpr int kMaxDepth = 64;
  for (int depth = 1;; ++depth) {
    ExploreOptions probe = options;
    probe.split_depth = depth;
    probe.shard_index = -1;  // own nothing: only the prefixes run
    probe.shard_count = 1;
    probe.progress = {};
    probe.max_executions = INT64_MAX;
    Found found;
    Search search(scenario, base, probe, &found);
    COMMITLAB_ASSIGN_OR_RETURN(ExploreReport r, search.Run());
    // Enough subtrees to deal out evenly, or no deeper split adds any (every execution is shorter).
    if (r.units >= 8 * static_cast<int64_t>(shard_count) || r.units_split == 0 || depth == kMaxDepth) return depth;
  }
}

Result<ExploreReport> Explore(const Scenario& scenario, RunOptions base, const ExploreOptions& options) {
  Found found;
  Result<ExploreReport> r = options.mode == ExploreOptions::Mode::kBounded
                                ? ExploreBounded(scenario, base, options, &found)
                                : Search(scenario, base, options, &found).Run();
  if (!r.ok()) return r.status();
  Finish(&found, &*r);
  if (options.coverage) {
    if (found.coverage.empty() || found.coverage.back().executions != found.executions) found.Point();
    r->coverage = std::move(found.coverage);
  }
  return r;
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
