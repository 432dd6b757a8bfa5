// TestEnv: the one deterministic Env of the tests (core, sim and scenarios link commitlab_testing).
// A virtual clock that advances only by sleeps, a fixed seed, a count of storage operations, and
// fault-point results a test scripts by name. A test that needs one behaviour more overrides that
// one method (as LevelDB's tests override one method of EnvWrapper); a test that wraps a real Env
// uses EnvWrapper (commitlab/core/env_wrapper.h).
#ifndef COMMITLAB_TESTING_TEST_ENV_H_
#define COMMITLAB_TESTING_TEST_ENV_H_

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/mutex.h"

namespace commitlab::test {

class TestEnv : public Env {
 public:
  explicit TestEnv(uint64_t seed = 1) : rng_(seed) {}

  int64_t NowMicros() override;
  void SleepMicros(int64_t micros) override;
  // Not thread-safe: multi-threaded tests use sim::RealEnv instead.
  Rng& rng() override { return rng_; }
  void BeginStorageOp(StorageOp op) override;
  void EndStorageOp(StorageOp) override {}
  Status FaultPoint(std::string_view name) override;

  // The next hit of `point` returns `s` (queued in order).
  void InjectOnce(std::string_view point, Status s);
  int64_t slept_micros();
  std::vector<int64_t> sleeps();  // every sleep so far, in order
  int ops(StorageOp op);

 private:
  Mutex mu_;
  int64_t now_ GUARDED_BY(mu_) = 0;
  int64_t slept_ GUARDED_BY(mu_) = 0;
  std::vector<int64_t> sleeps_ GUARDED_BY(mu_);
  std::map<StorageOp, int> ops_ GUARDED_BY(mu_);
  std::map<std::string, std::deque<Status>> faults_ GUARDED_BY(mu_);
  Rng rng_;
};

}  // namespace commitlab::test

#endif  // COMMITLAB_TESTING_TEST_ENV_H_
