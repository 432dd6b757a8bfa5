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
  // How the tree is searched. kDepthFirst: complete, with sleep sets. For searches that cannot
  // finish: kBounded, iterative preemption bounding (every execution with 0 preemptions, then 1,
  // 2, ...: CHESS's order, which reaches most outcomes with few switches first), and kRandomWalk
  // (every choice drawn from walk_seed's stream; never complete). `explore --portfolio` runs them
  // side by side in shards.
  enum class Mode { kDepthFirst, kBounded, kRandomWalk };
  Mode mode = Mode::kDepthFirst;
  uint64_t walk_seed = 0;
  bool coverage = false;       // record ExploreReport::coverage (and hash the states visited)
  int preemptions = -1;        // -1: unbounded
  int64_t max_steps = 10'000;  // per execution
  int64_t max_executions = 1'000'000;
  bool reduce = true;          // sleep sets (unbounded searches only); off explores every order
  bool stop_at_first = false;  // stop at the first execution that fails
  // Sharding (labs/hunt/shard.h): the subtrees under the first `split_depth` decisions (and the
  // executions that end before making that many) are numbered in depth-first order and dealt
  // round-robin; this search runs the ones numbered shard_index mod shard_count. It still makes
  // the common prefix's decisions, stopping each execution of a subtree it does not own at depth
  // split_depth, so every node above the split sees the siblings and sleep sets the whole search
  // would: the shards together run exactly the unsharded search's executions. 0: no split.
  int split_depth = 0;
  int shard_index = 0;  // -1: own nothing (counts the subtrees, SplitUnits)
  int shard_count = 1;
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
  int64_t unit = 0;  // the subtree it ran in (sharded searches; 0 otherwise): ties go to the first
};

// Coverage as the search goes: after 1, 2, 4, 8, ... executions and at its end, how many distinct
// outcomes and states it had reached, and the CPU time spent. A state is where a scheduling point
// stands: how many steps each writer has taken, and in which order the steps that touch shared
// state (StepAccess other than local) and the `maybe` choices came, i.e. the execution's prefix
// up to reordering of steps that touch nothing shared. A curve that flattens says the search has
// stopped paying.
struct CoveragePoint {
  int64_t executions = 0;
  double cpu_seconds = 0;
  int64_t outcomes = 0;
  int64_t states = 0;
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
  // Sharded searches: the subtrees enumerated (all shards see the same) and the decisions leading
  // into each one this shard owned ("1 0 f1": writer indices, fN a maybe fault's choice).
  std::vector<CoveragePoint> coverage = {};  // with ExploreOptions::coverage
  int bound = -1;                            // kBounded: the last preemption bound searched
  int64_t units = 0;
  int64_t units_split = 0;  // ... of which went as deep as the split (the rest ended above it)
  std::vector<std::string> owned = {};

  // Every execution within the bounds was explored (or proved equivalent to one that was).
  bool complete() const { return !stopped && cut_preemptions == 0 && cut_steps == 0; }
  bool ok() const;  // no execution failed
};

// Explores `scenario` with `base` (seed, faults, store; its untimed, strategy, history, events and
// observer are the explorer's). InvalidArgument: a free-threaded scenario, a `p=` fault rule (its
// draw would depend on the order; write `maybe`), or a run that could not start.
Result<ExploreReport> Explore(const Scenario& scenario, RunOptions base, const ExploreOptions& options);

// The split depth for `shard_count` shards: the smallest depth (up to 64) whose subtrees number
// at least 8 per shard, found by running only the common prefixes; the same for every shard.
Result<int> ChooseSplitDepth(const Scenario& scenario, RunOptions base, const ExploreOptions& options, int shard_count);

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
