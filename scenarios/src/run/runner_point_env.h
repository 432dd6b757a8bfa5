// PointEnv: one writer's view of the run's Env. When an engine reaches fault point publish.before
// (all three engines call it just before their one atomic step), it first runs the writer's hook,
// which holds the writer at its `W.L.publish` order gates. The engines need no change to be held
// there, and a line without such gates passes straight through.
#ifndef COMMITLAB_SCENARIOS_RUNNER_POINT_ENV_H_
#define COMMITLAB_SCENARIOS_RUNNER_POINT_ENV_H_

#include <functional>
#include <string_view>
#include <utility>

#include "commitlab/core/env_wrapper.h"

namespace commitlab::scenarios::internal {

class PointEnv final : public EnvWrapper {
 public:
  // `before_publish` returns an error when the gate can never open (the publish then fails).
  PointEnv(Env* env, std::function<Status()> before_publish)
      : EnvWrapper(env), before_publish_(std::move(before_publish)) {}

  Status FaultPoint(std::string_view name) override {
    if (name == fault::kPublishBefore) COMMITLAB_RETURN_IF_ERROR(before_publish_());
    return EnvWrapper::FaultPoint(name);
  }

 private:
  std::function<Status()> before_publish_;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_POINT_ENV_H_
