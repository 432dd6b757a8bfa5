// Scheduler: runs simulated writers one at a time in virtual time. Each writer runs on its own
// fiber (fiber.h) on the thread that calls Run(); a writer gives up control only at a scheduling
// point (Yield, SleepUntil, or returning), and there the strategy (strategy.h) picks who runs next.
//
// Time: the clock moves only when no writer can run: it jumps to the earliest wake-up, every
// writer due at that instant becomes runnable (listed by index), and the strategy chooses. Yield
// does not move the clock, so a writer waiting for another must not spin on Yield: it Blocks, and
// the writer it waits for Unblocks it (a sync point between scripted steps, say).
//
// Blocking: a blocked writer is not runnable and takes no steps; it does not hold the clock back.
// When every unfinished writer is blocked, nobody could ever unblock them: the scheduler declares
// a deadlock, releases them all (Block returns the error, so each can stop), and Run() returns it.
//
// Randomness: the scheduler owns the run's one random stream (rng()). Run() draws one value for
// the strategy's set-up and then exactly one per step, whatever the strategy; the engine's retry
// jitter, latencies and fault triggers draw from the same stream between steps. Same seed, same
// strategy, same writers => same steps, same draws, same virtual times.
//
// The schedule string (format in schedule.h) lists the writer picked at every step, e.g.
//   sched1:2w:7s:ab3a2b    2 writers, 7 steps: a, b, b, b, a, a, b
// Replaying it (strategy "replay:<string>") with the same seed reproduces the run exactly; a
// schedule that no longer fits (another writer count, a writer that cannot run at step K, too few
// or too many steps) makes Run() return InvalidArgument("schedule diverged at step K: ...").
#ifndef COMMITLAB_SIM_SCHEDULER_H_
#define COMMITLAB_SIM_SCHEDULER_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/rng.h"
#include "commitlab/core/status.h"
#include "commitlab/sim/schedule.h"
#include "commitlab/sim/step_access.h"
#include "commitlab/sim/strategy.h"
#include "commitlab/sim/wake_queue.h"

namespace commitlab::sim {

class Fiber;

class Scheduler {
 public:
  Scheduler(std::unique_ptr<Strategy> strategy, uint64_t seed);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Adds a writer, runnable at time 0; returns its index (0, 1, ...). Returns -1 once Run() has
  // been called: the writer count is part of the schedule.
  int AddWriter(std::string name, std::function<void()> body);

  // Runs every writer to completion, then returns. Once per scheduler. Errors: the strategy's
  // (a replayed schedule that diverged). After a divergence the remaining writers are finished
  // under round-robin so that every fiber ends cleanly; their effects are not to be trusted.
  Status Run();

  // Scheduling points, called from inside a writer. Outside one, Yield does nothing and SleepUntil
  // only moves the clock forward.
  void Yield();
  // The writer cannot run before `wake_micros` (a time in the past means now: a plain yield).
  void SleepUntil(int64_t wake_micros);
  // The running writer is not runnable until another writer calls Unblock on it; returns then, once
  // the strategy picks it again. Returns InvalidArgument("deadlock: ...", naming the blocked
  // writers) when every unfinished writer is blocked, and at once after such a deadlock. Outside a
  // writer it returns InvalidArgument at once.
  Status Block();
  // Makes a blocked writer runnable again (no scheduling point: the caller keeps running). A writer
  // that is not blocked is left alone.
  void Unblock(int writer);
  bool blocked(int writer) const { return writers_[static_cast<size_t>(writer)].blocked; }

  int64_t now_micros() const { return now_; }
  // The running writer's index, or -1 outside a writer.
  int current() const { return current_; }
  // The running writer's name, or "" outside a writer.
  std::string_view current_name() const;
  // Steps taken so far: one per pick of the strategy.
  int64_t steps() const { return steps_; }
  // The schedule so far (all of it once Run() returned).
  std::string ScheduleString() const { return FormatSchedule(schedule_); }
  const RecordedSchedule& schedule() const { return schedule_; }
  // Off: the schedule is not kept (a run nobody will replay, e.g. a sweep's) and the two above stay
  // empty. Set before Run().
  void set_record_schedule(bool on) { record_schedule_ = on; }

  // What the running writer's next step will touch (step_access.h); the Env says so just before
  // each scheduling point. While the writer is marked opaque its steps are kOpaque whatever is
  // declared. Outside a writer both do nothing.
  void set_next_access(StepAccess access);
  void set_opaque(bool on);
  // The running writer is about to touch state shared outside the storage brackets: its next
  // step is `access` (opaque unless the caller knows better), and in an untimed run (where the
  // explorer chooses) it yields first, so that step is one the strategy saw coming. A timed run
  // keeps its schedule as it was.
  void OpaqueStep(StepAccess access = StepAccess::kOpaque);
  StepAccess next_access(int writer) const { return writers_[static_cast<size_t>(writer)].next; }

  // Untimed: latency is ordering only. A sleep does not move the clock and leaves the writer
  // runnable, so the strategy alone decides how long a writer is held back (the explorer's
  // model: any delay is some interleaving). Set before Run().
  void set_untimed(bool on) { untimed_ = on; }
  bool untimed() const { return untimed_; }

  // A budget for runs that might not end (a writer retrying without limit against a fault that
  // always fires): once the run has taken more than `max_steps` steps or its clock has passed
  // `max_virtual_micros` (<= 0: no limit), over_budget() is true and stays so. The scheduler does
  // not stop writers itself: the Env fails their next fault point (SimEnv::FaultPoint) and they
  // wind down. budget_verdict() then says what ran out ("gave up after N steps (the --max-steps
  // budget)"), and over_budget_running() lists who had not finished. Set before Run().
  void set_budget(int64_t max_steps, int64_t max_virtual_micros) {
    max_steps_ = max_steps;
    max_virtual_micros_ = max_virtual_micros;
    step_limit_ = max_steps > 0 ? max_steps : kNoLimit;
    clock_limit_ = max_virtual_micros > 0 ? max_virtual_micros : kNoLimit;
  }
  bool over_budget() const { return !budget_verdict_.empty(); }
  const std::string& budget_verdict() const { return budget_verdict_; }
  const std::vector<int>& over_budget_running() const { return over_budget_running_; }

  Rng& rng() { return rng_; }
  uint64_t seed() const { return seed_; }
  int num_writers() const { return static_cast<int>(writers_.size()); }
  const std::string& writer_name(int index) const { return writers_[static_cast<size_t>(index)].name; }
  const Strategy& strategy() const { return *strategy_; }

 private:
  struct Writer {
    std::string name;
    Fiber* fiber;  // in fibers_
    bool done = false;
    bool blocked = false;
    bool opaque = false;
    StepAccess next = StepAccess::kLocal;
  };

  // Picks the writer for the next step, jumping the clock if nobody can run now; -1 when every
  // writer has finished.
  int NextWriter();
  // ready_ stays sorted. REQUIRES for RemoveReady: `writer` is in ready_.
  void AddReady(int writer);
  void RemoveReady(int writer) {
    if (ready_.size() == 1 && ready_.front() == writer) {
      ready_.clear();  // it was the one: a large sweep's usual case, without a search or a call
    } else {
      RemoveReadySearched(writer);
    }
  }
  void RemoveReadySearched(int writer);
  // Every unfinished writer is blocked: records the deadlock and releases them all.
  void BreakDeadlock();
  // At a scheduling point of the current writer: lets the picked writer run, if it is another.
  void Reschedule();
  // After a step past step_limit_ or clock_limit_: records the budget's verdict (once: it then
  // lifts both limits, so that a step costs two comparisons and no call, within budget or past it).
  void CheckBudget();

  const uint64_t seed_;
  Rng rng_;
  std::unique_ptr<Strategy> strategy_;
  bool alone_is_trivial_ = false;       // strategy_->PicksALoneWriterWithoutState(), asked once
  std::unique_ptr<Strategy> fallback_;  // round-robin after a divergence
  Status diverged_;
  Status deadlock_;  // set once every unfinished writer was blocked
  std::vector<Writer> writers_;
  // Every writer's fiber, in one container that allocates a block for several (a sweep sets up
  // millions of writers); a finished fiber has already given its stack back.
  struct Fibers;
  std::unique_ptr<Fibers> fibers_;
  // Every unfinished writer that is not blocked is in exactly one of these: ready_ (runnable now,
  // ascending index; includes the running writer) or sleepers_ (wake time > now_). A step then
  // costs O(log writers), not a scan of every writer.
  std::vector<int> ready_;
  WakeQueue sleepers_;
  RecordedSchedule schedule_;
  int64_t now_ = 0;
  int64_t steps_ = 0;
  int current_ = -1;  // running writer
  int last_ = -1;     // writer that ran last (the strategy's SchedulePoint::last)
  bool ran_ = false;
  bool record_schedule_ = true;
  bool untimed_ = false;
  int64_t max_steps_ = 0;
  int64_t max_virtual_micros_ = 0;
  static constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();
  int64_t step_limit_ = kNoLimit;   // max_steps_, or kNoLimit without one or once the verdict is in
  int64_t clock_limit_ = kNoLimit;  // max_virtual_micros_, likewise
  std::string budget_verdict_;      // "" while within budget
  std::vector<int> over_budget_running_;
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SCHEDULER_H_
