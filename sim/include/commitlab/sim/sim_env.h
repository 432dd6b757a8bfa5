// SimEnv: the Env of a deterministic simulated run. Time is the scheduler's virtual clock, the
// random stream is the scheduler's one stream, and every call that can let another writer act
// (sleep, a storage hop, a fault point) is a scheduling point. Nothing ever sleeps for real.
//
// All writers of a scheduler run on the thread that called Scheduler::Run(), one at a time, so
// SimEnv needs no locking. A store shared by simulated writers must not block on a lock held
// across a scheduling point: the holder could never run again.
#ifndef COMMITLAB_SIM_SIM_ENV_H_
#define COMMITLAB_SIM_SIM_ENV_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>

#include "commitlab/core/env.h"
#include "commitlab/sim/fault_plan.h"
#include "commitlab/sim/latency.h"
#include "commitlab/sim/scheduler.h"

namespace commitlab::sim {

class SimEnv : public Env {
 public:
  // The seed is the scheduler's: one run, one stream. `faults` may be null.
  explicit SimEnv(Scheduler* scheduler, LatencyModel latency = {}, FaultPlan* faults = nullptr);

  // The virtual clock; not a scheduling point.
  int64_t NowMicros() override { return scheduler_->now_micros(); }
  // Not runnable for `micros` of virtual time; 0 (or less) still yields.
  void SleepMicros(int64_t micros) override {
    scheduler_->set_next_access(StepAccess::kWait);
    Sleep(micros);
  }
  Rng& rng() override { return scheduler_->rng(); }
  // Sleeps the request hop's latency: the operation takes effect when the writer resumes.
  void BeginStorageOp(StorageOp op) override;
  // Sleeps the response hop's latency.
  void EndStorageOp(StorageOp op) override;
  // Yields, then asks the fault plan (if any) as the current writer; sleeps a delay effect.
  Status FaultPoint(std::string_view name) override;

  Scheduler* scheduler() const { return scheduler_; }
  const LatencyModel& latency() const { return latency_; }

 protected:
  // A scheduling point whose next step's access the caller has declared (or, in a sweep, which no
  // strategy reads: SweepEnv sleeps without declaring it).
  void Sleep(int64_t micros) {
    const int64_t now = scheduler_->now_micros();
    const int64_t room = std::numeric_limits<int64_t>::max() - now;  // a wake-up time never overflows
    scheduler_->SleepUntil(micros <= 0 ? now : now + std::min(micros, room));
  }

 private:
  Scheduler* const scheduler_;
  const LatencyModel latency_;
  FaultPlan* const faults_;
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SIM_ENV_H_
