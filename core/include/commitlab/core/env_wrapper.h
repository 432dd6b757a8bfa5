// EnvWrapper: forwards every call to another Env (LevelDB's EnvWrapper), so that a wrapper
// overrides only what it changes or watches.
//
// A header of its own, on purpose: a translation unit that sees this class as the only Env with
// bodies lets GCC devirtualize every Env call speculatively towards it (a compare and a branch per
// call), which cost the committer's hot loop 3% in a sweep. Only wrappers include it.
#ifndef COMMITLAB_CORE_ENV_WRAPPER_H_
#define COMMITLAB_CORE_ENV_WRAPPER_H_

#include <cstdint>
#include <string_view>

#include "commitlab/core/env.h"

namespace commitlab {

class EnvWrapper : public Env {
 public:
  explicit EnvWrapper(Env* target) : target_(target) {}

  int64_t NowMicros() override { return target_->NowMicros(); }
  void SleepMicros(int64_t micros) override { target_->SleepMicros(micros); }
  Rng& rng() override { return target_->rng(); }
  void BeginStorageOp(StorageOp op) override { target_->BeginStorageOp(op); }
  void EndStorageOp(StorageOp op) override { target_->EndStorageOp(op); }
  Status FaultPoint(std::string_view name) override { return target_->FaultPoint(name); }

 private:
  Env* const target_;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_ENV_WRAPPER_H_
