// RealEnv: the wall clock, real sleeps and OS threads. Nondeterministic by design, like the Java
// run of S2 第 5 讲 (docs/lectures.md#s2-5-race); TSan keeps it honest. Each writer thread registers
// its name so that fault plans can select it, and gets its own random stream derived from the
// run's seed. A latency model, if given, is slept for real around each storage operation: a
// teacher can make in-memory commits take as long as that lecture's Java commits did.
#ifndef COMMITLAB_SIM_REAL_ENV_H_
#define COMMITLAB_SIM_REAL_ENV_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/mutex.h"
#include "commitlab/sim/fault_plan.h"
#include "commitlab/sim/latency.h"

namespace commitlab::sim {

class RealEnv : public Env {
 public:
  explicit RealEnv(uint64_t seed, FaultPlan* faults = nullptr, LatencyModel latency = {});

  int64_t NowMicros() override;
  void SleepMicros(int64_t micros) override;
  Rng& rng() override;  // the calling thread's stream
  void BeginStorageOp(StorageOp op) override;
  void EndStorageOp(StorageOp op) override;
  Status FaultPoint(std::string_view name) override;

  // Runs each body on its own OS thread, released together, and joins them all. Inside a body,
  // rng() and fault plans see the writer's name and index. If the OS refuses a thread, no body
  // runs and the error names the writer.
  struct Writer {
    std::string name;
    std::function<void()> body;
  };
  Status RunThreads(std::vector<Writer> writers);

  // A wall-clock budget for runs that might not end (unbounded retries against a fault that
  // always fires, a latency of days): no sleep lasts past `micros` from the env's creation, and
  // once it has passed every fault point fails as a crash would, so the writers wind down.
  // <= 0: no limit. Set before RunThreads.
  void set_max_wall_micros(int64_t micros) { max_wall_micros_ = micros; }
  bool over_budget() { return max_wall_micros_ > 0 && NowMicros() >= max_wall_micros_; }
  // The writers a fault point stopped because the budget had run out, in the order they stopped.
  std::vector<std::string> stopped_by_budget() const;

 private:
  const uint64_t id_;  // unique in the process: how a thread knows which env it writes for
  const uint64_t seed_;
  FaultPlan* const faults_;  // may be null; must be thread-safe
  const LatencyModel latency_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<uint64_t> next_stream_{0};
  int64_t max_wall_micros_ = 0;  // set before the threads start
  mutable Mutex stopped_mu_;
  std::vector<std::string> stopped_ GUARDED_BY(stopped_mu_);
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_REAL_ENV_H_
