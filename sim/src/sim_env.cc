#include "commitlab/sim/sim_env.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace commitlab::sim {

SimEnv::SimEnv(Scheduler* scheduler, LatencyModel latency, FaultPlan* faults)
    : scheduler_(scheduler), latency_(std::move(latency)), faults_(faults) {}

void SimEnv::SleepMicros(int64_t micros) {
  const int64_t now = scheduler_->now_micros();
  const int64_t room = std::numeric_limits<int64_t>::max() - now;
  scheduler_->SleepUntil(micros <= 0 ? now : now + std::min(micros, room));
}

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
