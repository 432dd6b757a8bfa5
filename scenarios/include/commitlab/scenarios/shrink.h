// The engine of `commitlab shrink`: a failing scenario reduced, delta-debugging style (Zeller and
// Hildebrandt, "Simplifying and Isolating Failure-Inducing Input", 2002), while the same kind of
// invariant violation still occurs, to a small file that shows it as a regression test.
//
// The reducer works on the scenario's text, so every candidate is a file a person could have
// written, checked by the parser. In order, to a fixed point:
//   1. pin the faults: every fault rule becomes the nth= rules of the hits that fired in the
//      failing run (a p=0.1 rule is a coin a smaller run would toss differently);
//   2. drop the `expect` lines (they change what a run reports, never what it does);
//   3. remove whole writers, with their steps, order lines and faults;
//   4. cut `repeat N:` counts (to 1, to N/2, to N-1);
//   5. remove lines, in chunks of halving size (ddmin): steps, faults, latency, order lines.
// A candidate still fails when a run on the failing seed, or on one of a few others, shows the
// violation kind. Then the explorer finds the shortest interleaving showing it in the small file,
// and when order lines can force that interleaving they are added (every step line gets a label
// for them), so the file fails on every seed; the file ends with `expect invariant-violation KIND`
// (and a line for each other kind its run shows), so `commitlab run` passes while it happens.
#ifndef COMMITLAB_SCENARIOS_SHRINK_H_
#define COMMITLAB_SCENARIOS_SHRINK_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"

namespace commitlab::scenarios {

struct ShrinkOptions {
  std::string kind = {};         // the violation kind to keep; "" = the failing run's first
  uint64_t seed = kDefaultSeed;  // the failing run's seed
  uint64_t extra_seeds = 8;      // seeds 1..extra_seeds also count as "still fails"
  int64_t max_tests = 5'000;     // candidate files tried at most
  uint64_t check_seeds = 20;     // the result is run on seeds 1..check_seeds
  // Called for each reduction kept, with what it did ("removed writer job-C").
  std::function<void(const std::string&)> progress = {};
};

struct ShrinkSize {
  int64_t writers = 0;
  int64_t steps = 0;   // after repeats
  int64_t faults = 0;  // fault rules
  int64_t lines = 0;   // non-blank, non-comment lines
};

struct ShrinkResult {
  std::string kind = {};
  std::string detail = {};  // the violation as the minimal file shows it
  std::string text = {};    // the minimal scenario, ready to save
  ShrinkSize before = {};
  ShrinkSize after = {};
  int64_t tests = 0;                  // candidates run
  std::vector<std::string> log = {};  // each reduction kept
  std::vector<std::string> order_lines = {};
  std::string order_note = {};
  std::string schedule = {};   // the explorer's shortest interleaving showing it ("" if none)
  uint64_t failing_seeds = 0;  // of 1..check_seeds, with the minimal file as written
  uint64_t checked_seeds = 0;
  bool pinned_seed = false;  // the file carries a `seed` line: it fails on that one
  bool passes = false;       // `commitlab run` of the file as written passes
};

// The scenario's text is the starting point; `base` adds its command-line faults and latency
// to it (they become lines, so they shrink too). InvalidArgument: the run does not show the kind
// (or shows no violation at all), or the kind is not a checker violation.
Result<ShrinkResult> Shrink(const Scenario& scenario, const RunOptions& base, const ShrinkOptions& options);

ShrinkSize SizeOf(const Scenario& scenario);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_SHRINK_H_
