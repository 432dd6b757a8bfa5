// Fault specs and ScriptedFaultPlan: the fault plan given on the command line and in scenario files.
//
// A rule is WRITER:POINT:TRIGGER:EFFECT, e.g.
//   job-B:publish.after:nth=1:unknown      the 1st publish.after of job-B: published, caller told error
//   *:publish.before:p=0.1:error           each publish.before of any writer fails with p = 0.1
//   job-A:manifest.before:nth=2:crash      job-A stops at its 2nd manifest.before
//   *:read-latest.before:every=3:delay=20ms
// WRITER is a writer name or `*`; POINT one of the engine's fault points (core/env.h);
// TRIGGER nth=N (N >= 1, the N-th hit only), first=N (hits 1..N, as upstream Iceberg's
// TestTables failCommits(N)), every=K (K >= 1, hits K, 2K, ...), p=P (0 <= P <= 1,
// one draw from the run's stream per hit), always, or maybe (fires at one hit per writer or at
// none: `commitlab explore` tries each, a seeded run draws p=0.5 per hit until it fires); EFFECT error, unknown
// (publish.after only), lost (publish.before only: the atomic step is refused as if another writer had won), crash or
// delay=D with D an integer followed by us, ms or s.
#ifndef COMMITLAB_SIM_FAULT_SPEC_H_
#define COMMITLAB_SIM_FAULT_SPEC_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/mutex.h"
#include "commitlab/core/rng.h"
#include "commitlab/core/status.h"
#include "commitlab/sim/fault_plan.h"

namespace commitlab::sim {

struct FaultTrigger {
  enum class Kind { kNth, kEvery, kProbability, kAlways, kFirst, kMaybe };
  Kind kind = Kind::kAlways;
  int64_t n = 0;             // kNth: the hit that fires; kEvery: the period; kFirst: hits 1..n fire
  double probability = 0.0;  // kProbability

  bool operator==(const FaultTrigger&) const = default;
};

struct FaultEffect {
  enum class Kind { kError, kUnknown, kCrash, kDelay, kLost };
  Kind kind = Kind::kError;
  int64_t delay_micros = 0;  // kDelay

  bool operator==(const FaultEffect&) const = default;
};

struct FaultRule {
  std::string writer;  // a writer name, or "*" for every writer
  std::string point;   // one of the names in commitlab::fault
  FaultTrigger trigger;
  FaultEffect effect;

  bool operator==(const FaultRule&) const = default;
};

// One fault that fired: what the trace and the tests see.
struct FiredFault {
  std::string writer;
  std::string point;
  int64_t hit = 0;  // the (rule, writer) hit count at which it fired, from 1
  size_t rule = 0;  // index of the rule in the plan
  FaultEffect effect;

  bool operator==(const FiredFault&) const = default;
};

// The engine's fault point names, in the order they are listed in messages.
const std::vector<std::string_view>& FaultPointNames();

// Parses WRITER:POINT:TRIGGER:EFFECT. Errors are InvalidArgument naming the spec, the field and
// what was expected; when `error_column` is given it receives the 0-based column of the offending
// field inside `spec`, so a scenario parser can report file:line:col.
Result<FaultRule> ParseFaultRule(std::string_view spec, size_t* error_column = nullptr);
// The spec ParseFaultRule reads back as the same rule.
std::string FormatFaultRule(const FaultRule& rule);
// "error", "unknown", "crash", "delay=20ms".
std::string FormatFaultEffect(const FaultEffect& effect);
// "job-B:publish.after:hit=1:unknown", in the spec's shape, for summaries and trace footers.
std::string FormatFiredFault(const FiredFault& fired);

// A fault plan made of rules. For each hit of a point by a writer, every matching rule counts the
// hit (per rule and writer) and, for p=, draws once from the stream, whatever the other rules do,
// so one rule's firing never shifts another's count. Delays of all firing rules add up; the first
// firing rule with a failing effect (error, unknown, crash) decides the status and later failing
// rules are suppressed for that hit. Thread-safe, so RealEnv's threads can share one plan.
class ScriptedFaultPlan : public FaultPlan {
 public:
  ScriptedFaultPlan() = default;
  // REQUIRES: each rule came from ParseFaultRule or passed ValidateFaultRule.
  explicit ScriptedFaultPlan(std::vector<FaultRule> rules);

  void AddRule(FaultRule rule);
  FaultDecision Check(std::string_view writer, std::string_view point, Rng& rng) override;

  std::vector<FaultRule> rules() const;
  // The faults that took effect, in firing order: the first kMaxFiredKept of them, so that a rule
  // firing on every hit of a run that retries for millions of steps does not hold them all.
  static constexpr size_t kMaxFiredKept = 1000;
  std::vector<FiredFault> fired() const;
  // How many took effect in all (fired() may list fewer).
  int64_t fired_total() const;

  // Called for each fault as it fires, on the writer's own thread or fiber, after the plan has
  // released its lock (a history records it there, with the writer's time).
  using FireListener = std::function<void(const FiredFault& fired, const FaultRule& rule)>;
  void set_on_fire(FireListener listener);

  // Decides each hit of a `maybe` rule instead of the random stream (the explorer's choice point).
  // Called with the plan's lock held: it must not call back into the plan.
  using Chooser = std::function<bool(const FaultRule& rule, std::string_view writer, int64_t hit)>;
  void set_chooser(Chooser chooser);

 private:
  mutable Mutex mu_;
  FireListener on_fire_ GUARDED_BY(mu_);
  Chooser chooser_ GUARDED_BY(mu_);
  std::vector<FaultRule> rules_ GUARDED_BY(mu_);
  struct HitCount {
    int64_t hits = 0;
    int64_t fired = 0;
  };
  // hits_[i] maps a writer to its hits of rule i's point, and how many fired.
  std::vector<std::map<std::string, HitCount, std::less<>>> hits_ GUARDED_BY(mu_);
  std::vector<FiredFault> fired_ GUARDED_BY(mu_);
  int64_t fired_total_ GUARDED_BY(mu_) = 0;
};

// Checks a rule built in code: the point exists, the trigger and effect parameters are in range
// and `unknown` is used only at publish.after, `lost` only at publish.before.
Status ValidateFaultRule(const FaultRule& rule);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_FAULT_SPEC_H_
