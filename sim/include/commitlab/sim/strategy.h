// Scheduling strategies: at each scheduling point of a simulated run, which runnable writer goes
// next. A strategy never touches the random stream itself: the scheduler draws exactly one value
// from the run's stream when the run starts and one per step, whatever the strategy, and hands it
// over. So every strategy consumes the stream identically, and a schedule recorded under `random`
// or `pct` replays under `replay` with the same seed and the same retry jitter, latencies and
// fault triggers.
//
//   random            uniform among the runnable writers
//   pct[:depth=D,k=K] PCT (Burckhardt et al., ASPLOS'10): random distinct writer priorities, the
//                     highest-priority runnable writer runs; at D-1 change points drawn in [1, K]
//                     the running writer drops below every other. Finds a bug of depth D with
//                     probability >= 1/(n * K^(D-1)) per run when K >= the run's steps.
//                     Defaults: D = 3, K = 200; set K near the run's step count (the schedule
//                     string's header shows it). Depth 1 never preempts a writer that can go on.
//   round-robin       the next runnable writer after the one that ran last, by index
//   replay:SCHEDULE   follows a schedule string (schedule.h) and refuses one that no longer fits
#ifndef COMMITLAB_SIM_STRATEGY_H_
#define COMMITLAB_SIM_STRATEGY_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab::sim {

class Scheduler;

// What a strategy sees at one scheduling step.
struct SchedulePoint {
  int64_t step = 0;                      // 0-based index of this pick in the run
  int last = -1;                         // the writer that ran until now (maybe finished); -1 at the start
  std::span<const int> runnable;         // the writers that may run now: ascending, never empty
  uint64_t draw = 0;                     // this step's value from the run's random stream
  const Scheduler* scheduler = nullptr;  // for what each writer's next step touches (next_access)
};

class Strategy {
 public:
  virtual ~Strategy() = default;

  // The canonical spec: MakeStrategy(Describe()) makes an equivalent strategy.
  virtual std::string Describe() const = 0;
  // Once when a run starts, with the writers' names and one value from the run's random stream.
  // An error (a replayed schedule for another number of writers) stops the run before it starts.
  virtual Status Start(std::span<const std::string> writers, uint64_t draw) = 0;
  // The writer to run at this step, one of p.runnable. An error means a replayed schedule diverged.
  virtual Result<int> Pick(const SchedulePoint& p) = 0;
  // True when Pick, given one runnable writer, returns it and changes nothing else: the
  // scheduler then skips the call (the step's draw is still taken). False unless a strategy says.
  virtual bool PicksALoneWriterWithoutState() const { return false; }
  // Once, after every writer finished, `steps` steps into the run.
  virtual Status Finish(int64_t /*steps*/) { return Status::OK(); }
  // What Start drew (PCT's priorities and change points), for the run's header; "" if nothing.
  virtual std::string DrawnSettings() const { return ""; }
};

inline constexpr int kDefaultPctDepth = 3;
inline constexpr int64_t kDefaultPctSteps = 200;

std::unique_ptr<Strategy> MakeRandomStrategy();
std::unique_ptr<Strategy> MakeRoundRobinStrategy();
// REQUIRES: depth >= 1, k >= 1.
std::unique_ptr<Strategy> MakePctStrategy(int depth = kDefaultPctDepth, int64_t k = kDefaultPctSteps);
Result<std::unique_ptr<Strategy>> MakeReplayStrategy(std::string_view schedule);

// Parses "random", "round-robin", "pct", "pct:depth=3", "pct:depth=2,k=500", "replay:sched1:...".
// Errors name the spec and what was expected.
Result<std::unique_ptr<Strategy>> MakeStrategy(std::string_view spec);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_STRATEGY_H_
