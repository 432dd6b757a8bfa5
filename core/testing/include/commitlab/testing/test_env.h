// TestEnv: the one deterministic Env of the tests (core, sim and scenarios link commitlab_testing).
// A virtual clock that advances only by sleeps, a fixed seed, a count of storage operations, and
// fault-point results a test scripts by name. A test that needs one behaviour more overrides that
// one method (as LevelDB's tests override one method of EnvWrapper); a test that wraps a real Env
// uses EnvWrapper (commitlab/core/env_wrapper.h).
#ifndef COMMITLAB_TESTING_TEST_ENV_H_
#define COMMITLAB_TESTING_TEST_ENV_H_

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "commitlab/core/env.h"

namespace commitlab::test {

class TestEnv : public Env {
 public:
  explicit TestEnv(uint64_t seed = 1) : rng_(seed) {}

  int64_t NowMicros() override {
    std::lock_guard<std::mutex> l(mu_);
    return now_;
  }
  void SleepMicros(int64_t micros) override {
    std::lock_guard<std::mutex> l(mu_);
    now_ += micros;
    slept_ += micros;
    sleeps_.push_back(micros);
  }
  // Not thread-safe: multi-threaded tests use sim::RealEnv instead.
  Rng& rng() override { return rng_; }
  void BeginStorageOp(StorageOp op) override {
    std::lock_guard<std::mutex> l(mu_);
    ++ops_[op];
  }
  void EndStorageOp(StorageOp) override {}
  Status FaultPoint(std::string_view name) override {
    std::lock_guard<std::mutex> l(mu_);
    auto it = faults_.find(std::string(name));
    if (it == faults_.end() || it->second.empty()) return Status::OK();
    Status s = it->second.front();
    it->second.pop_front();
    return s;
  }

  // The next hit of `point` returns `s` (queued in order).
  void InjectOnce(std::string_view point, Status s) {
    std::lock_guard<std::mutex> l(mu_);
    faults_[std::string(point)].push_back(std::move(s));
  }
  int64_t slept_micros() {
    std::lock_guard<std::mutex> l(mu_);
    return slept_;
  }
  // Every sleep so far, in order.
  std::vector<int64_t> sleeps() {
    std::lock_guard<std::mutex> l(mu_);
    return sleeps_;
  }
  int ops(StorageOp op) {
    std::lock_guard<std::mutex> l(mu_);
    return ops_[op];
  }

 private:
  std::mutex mu_;
  int64_t now_ = 0;
  int64_t slept_ = 0;
  std::vector<int64_t> sleeps_;
  std::map<StorageOp, int> ops_;
  std::map<std::string, std::deque<Status>> faults_;
  Rng rng_;
};

}  // namespace commitlab::test

#endif  // COMMITLAB_TESTING_TEST_ENV_H_
