#include "commitlab/sim/sim_env.h"

#include <fmt/format.h>

#include <utility>

namespace commitlab::sim {

SimEnv::SimEnv(Scheduler* scheduler, LatencyModel latency, FaultPlan* faults)
    : scheduler_(scheduler), latency_(std::move(latency)), faults_(faults) {}

namespace {

StepAccess AccessOf(StorageOp op) {
  switch (op) {
    case StorageOp::kReadLatest:
    case StorageOp::kReadSnapshot: return StepAccess::kRead;
    case StorageOp::kWriteManifest:
    case StorageOp::kWriteData: return StepAccess::kWriteFile;
    case StorageOp::kPublish: return StepAccess::kPublish;
    case StorageOp::kCheckData: return StepAccess::kCheckFile;
  }
  return StepAccess::kOpaque;
}

}  // namespace

void SimEnv::BeginStorageOp(StorageOp op) {
  scheduler_->set_next_access(AccessOf(op));
  Sleep(latency_.RequestMicros(op, rng()));
}

void SimEnv::EndStorageOp(StorageOp op) {
  scheduler_->set_next_access(StepAccess::kLocal);
  Sleep(latency_.ResponseMicros(op, rng()));
}

Status SimEnv::FaultPoint(std::string_view name) {
  scheduler_->set_next_access(StepAccess::kFault);
  scheduler_->Yield();
  if (scheduler_->over_budget()) {  // the run will not end by itself: stop here, as a crash would
    return Status::Crashed(fmt::format("stopped: the run {}", scheduler_->budget_verdict()));
  }
  if (faults_ == nullptr) return Status::OK();
  FaultDecision d = faults_->Check(scheduler_->current_name(), name, rng());
  if (d.delay_micros > 0) SleepMicros(d.delay_micros);
  return std::move(d.status);
}

}  // namespace commitlab::sim
