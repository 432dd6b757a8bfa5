// Order gates: `order A.x -> B.y` holds B before line y until A has finished line x (RocksDB's
// sync points). A step that failed has finished; one that was skipped after a crash, or that its
// writer never reached, never will, and a gate waiting for it can never open: the waiting writer
// gets an error naming the order line and both steps instead of hanging.
//
// In the simulator a waiting writer blocks in the scheduler (sim::Scheduler::Block): it takes no
// steps and does not hold the virtual clock back. On OS threads it waits on a condition variable.
// Either way, when every unfinished writer waits, the run reports a deadlock.
//
// `A.x.publish` points work the same way inside a step: the writer calls WaitAtPublish just
// before its line's first publish, which marks the point reached (opening gates from it) and
// waits for the gates into it.
#ifndef COMMITLAB_SCENARIOS_RUNNER_GATES_H_
#define COMMITLAB_SCENARIOS_RUNNER_GATES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/scheduler.h"

namespace commitlab::scenarios::internal {

// The bookkeeping both kinds of gate share: which steps have finished, which never will, and the
// order edges into each step. Not thread-safe.
class GateBook {
 public:
  explicit GateBook(const Scenario& s);

  enum class State { kOpen, kWait, kBroken };
  struct Verdict {
    State state = State::kOpen;
    const OrderEdge* edge = nullptr;  // kWait, kBroken: the first edge that does not hold
  };
  // The gates before `step` starts (publish = false) or before its first publish (true).
  Verdict Check(size_t writer, size_t step, bool publish = false) const;

  // The step reached its publish point. True when an order edge starts there (so writers
  // waiting on it must look again); without one nothing changes, and neither does the schedule.
  bool Arrived(size_t writer, size_t step);
  void Finished(size_t writer, size_t step);
  void Skipped(size_t writer, size_t step);
  // The writer runs no more steps; `why` says how it ended ("was refused", ...).
  void Stopped(size_t writer, std::string why);

  const std::string& writer_name(size_t writer) const { return s_.writers[writer].name; }

  // "file:line: order A.x -> B.y can never hold: ..." for a broken edge.
  std::string BrokenMessage(const OrderEdge& e) const;
  // "file:line: order A.x -> B.y: B waits at file:line for A to finish file:line".
  std::string WaitingMessage(const OrderEdge& e) const;

 private:
  enum class StepState : uint8_t { kPending, kArrived, kFinished, kNever };

  const Scenario& s_;
  std::vector<std::vector<StepState>> steps_;            // per writer, per step
  std::vector<std::string> stopped_;                     // per writer: how it ended, "" while running
  std::set<std::pair<size_t, size_t>> publish_sources_;  // (writer, step) of every A.x.publish -> edge
  // (writer, step, at its publish point) -> edges
  std::map<std::tuple<size_t, size_t, bool>, std::vector<const OrderEdge*>> into_;
};

class Gates {
 public:
  virtual ~Gates() = default;
  // Told when `writer` starts waiting at an order edge (opened = false) and when the gate it
  // waited at lets it go (true), on the writer's own fiber or thread.
  using Observer = std::function<void(size_t writer, const OrderEdge& edge, bool opened)>;
  void set_observer(Observer observer) { observer_ = std::move(observer); }
  // Before `writer` starts `step`: returns once every order edge into the step holds, or an
  // InvalidArgument (the run cannot go on) when one never will or every writer waits.
  virtual Status WaitToStart(size_t writer, size_t step) = 0;
  // Just before `step`'s first publish: marks the point reached, then waits like WaitToStart for
  // the order edges into `W.L.publish`.
  virtual Status WaitAtPublish(size_t writer, size_t step) = 0;
  // The step returned (successfully or not).
  virtual void Finished(size_t writer, size_t step) = 0;
  // The step will not run: the writer crashed and goes on at its next restart.
  virtual void Skipped(size_t writer, size_t step) = 0;
  // The writer's script is over; `why` is how it ended, for messages.
  virtual void Stopped(size_t writer, std::string why) = 0;
  // A wait ended in a deadlock (the scheduler's Run() returns that error too).
  virtual bool deadlocked() const = 0;

 protected:
  Observer observer_;  // set before the writers run
};

// Writer i of the scenario must be writer i of the scheduler.
std::unique_ptr<Gates> MakeSimGates(const Scenario& s, sim::Scheduler* scheduler);
std::unique_ptr<Gates> MakeThreadGates(const Scenario& s);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_GATES_H_
