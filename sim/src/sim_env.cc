#include "commitlab/sim/sim_env.h"

#include <utility>

namespace commitlab::sim {

SimEnv::SimEnv(Scheduler* scheduler, LatencyModel latency, FaultPlan* faults)
    : scheduler_(scheduler), latency_(std::move(latency)), faults_(faults) {}

void SimEnv::BeginStorageOp(StorageOp op) { SleepMicros(latency_.RequestMicros(op, rng())); }

void SimEnv::EndStorageOp(StorageOp op) { SleepMicros(latency_.ResponseMicros(op, rng())); }

Status SimEnv::FaultPoint(std::string_view name) {
  scheduler_->Yield();
  if (faults_ == nullptr) return Status::OK();
  FaultDecision d = faults_->Check(scheduler_->current_name(), name, rng());
  if (d.delay_micros > 0) SleepMicros(d.delay_micros);
  return std::move(d.status);
}

}  // namespace commitlab::sim
