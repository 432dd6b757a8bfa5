// The engine of `commitlab explore`: every distinct interleaving of a scenario's writers, depth
// first, each execution replayed from the start along a prefix of choices (stateless model
// checking, as CHESS and loom do it).
//
// Choices: at every scheduling point (sim/scheduler.h) which runnable writer goes next, and at
// every hit of a `maybe` fault rule whether it fires. Runs are untimed (RunOptions::untimed):
// latency is ordering only, so a writer may be held back arbitrarily and every delay is some
// interleaving; that is what makes the search complete.
//
// Reduction: sleep sets (Godefroid, "Partial-Order Methods for the Verification of Concurrent
// Systems", 1996). Once the subtree under writer A's step has been explored, a sibling that runs
// writer B first keeps A asleep for as long as the steps taken commute with A's step
// (sim/step_access.h), since any such order reaches a state already explored. An execution whose
// every runnable writer is asleep is stopped: it is equivalent to one already run.
//
// Bounds: `preemptions` (CHESS): switching away from a writer that could go on, at a point that is
// not a wait, is a preemption; executions needing more are cut. A bounded search runs without
// sleep sets, which could otherwise cut an order the bound allows. `max_steps`: an execution
// longer than this is cut (a writer spinning on a lock could run forever). A cut makes the search
// incomplete, and the report says so. `max_executions` counts every execution started.
#ifndef COMMITLAB_SCENARIOS_EXPLORE_H_
#define COMMITLAB_SCENARIOS_EXPLORE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/step_access.h"

namespace commitlab::scenarios {

struct ExploreOptions {
  int preemptions = -1;        // -1: unbounded
  int64_t max_steps = 10'000;  // per execution
  int64_t max_executions = 1'000'000;
  bool reduce = true;          // sleep sets (unbounded searches only); off explores every order
  bool stop_at_first = false;  // stop at the first execution that fails
  // Called after each execution with the number run so far (progress); may be empty.
  std::function<void(int64_t executions)> progress = {};
};

// One distinct final state: the tables (snapshot chains, counters), each writer's outcome and
// counters, and the invariant violations, as one canonical line.
struct ExploreOutcome {
  std::string key = {};
  int64_t count = 0;  // executions that ended so
  bool ok = true;     // a run ending so passes (RunReport::ok)
};

// What failed in some execution, and the shortest execution it failed in.
struct ExploreFinding {
  std::string kind = {};    // a checker violation kind ("lost"), "expect FILE:LINE" or "run error"
  std::string detail = {};  // the violation's message, the expectation with what was seen, the error
  bool expected = false;    // an `expect invariant-violation` line names it: the file says it happens
  int64_t executions = 0;   // executions that showed it
  // The shortest (fewest context switches, then fewest steps): its schedule (replay with `run
  // --untimed --schedule`), the `maybe` faults that fired in it as nth= rules, and its decisions
  // (writer picks and fault choices, in order).
  int64_t switches = 0;
  int64_t steps = 0;
  std::string schedule = {};
  std::vector<std::string> faults = {};
  std::vector<int> decisions = {};
};

struct ExploreReport {
  int64_t executions = 0;                     // run to their end
  int64_t sleep_blocked = 0;                  // stopped early: every runnable writer asleep (equivalent to one run)
  int64_t sleep_skipped = 0;                  // alternatives never started because the writer was asleep
  int64_t cut_preemptions = 0;                // alternatives or continuations over the preemption bound
  int64_t cut_steps = 0;                      // executions stopped at max_steps
  bool stopped = false;                       // max_executions or stop_at_first ended the search early
  std::vector<ExploreOutcome> outcomes = {};  // most frequent first, then by key
  std::vector<ExploreFinding> findings = {};  // unexpected first, then by kind
  int64_t max_depth = 0;                      // the longest execution, in steps

  // Every execution within the bounds was explored (or proved equivalent to one that was).
  bool complete() const { return !stopped && cut_preemptions == 0 && cut_steps == 0; }
  bool ok() const;  // no execution failed
};

// Explores `scenario` with `base` (seed, faults, store; its untimed, strategy, history, events and
// observer are the explorer's). InvalidArgument: a free-threaded scenario, a `p=` fault rule (its
// draw would depend on the order; write `maybe`), or a run that could not start.
Result<ExploreReport> Explore(const Scenario& scenario, RunOptions base, const ExploreOptions& options);

// The canonical outcome line of one finished run.
std::string OutcomeKey(const RunReport& report);

// One scheduling step of a replayed exploration: who ran, and what the step touched.
struct ExploredStep {
  int writer = 0;
  sim::StepAccess access = sim::StepAccess::kLocal;
};

// Replays decisions recorded by Explore (ExploreFinding::decisions): the same run, with `base`'s
// history, events and observer attached. `steps`, if given, receives every step in order.
Result<RunReport> ReplayExploration(const Scenario& scenario, RunOptions base, const std::vector<int>& decisions,
                                    std::vector<ExploredStep>* steps = nullptr);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_EXPLORE_H_
