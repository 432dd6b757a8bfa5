// FaultPlan: decides what happens when a writer reaches a named fault point in the engine
// (core/env.h, namespace fault). Env implementations consult it in FaultPoint().
#ifndef COMMITLAB_SIM_FAULT_PLAN_H_
#define COMMITLAB_SIM_FAULT_PLAN_H_

#include <cstdint>
#include <string_view>

#include "commitlab/core/rng.h"
#include "commitlab/core/status.h"

namespace commitlab::sim {

struct FaultDecision {
  Status status;             // OK, IOError("simulated ...") or Crashed("simulated crash ...")
  int64_t delay_micros = 0;  // a delay effect: the caller sleeps this long, then goes on
};

class FaultPlan {
 public:
  virtual ~FaultPlan() = default;
  // Called once per hit of `point` by `writer`. Probabilistic triggers draw from `rng`.
  // Implementations used with RealEnv must be thread-safe.
  virtual FaultDecision Check(std::string_view writer, std::string_view point, Rng& rng) = 0;
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_FAULT_PLAN_H_
