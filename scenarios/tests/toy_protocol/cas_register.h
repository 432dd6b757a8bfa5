// The toy protocol's engine: a register holding one integer, written only by compare-and-swap on
// its version (a Java AtomicLong's compareAndSet, with the version standing for the value it
// expects). Each version remembers who wrote it. Thread-safe.
#ifndef COMMITLAB_SCENARIOS_TESTS_TOY_PROTOCOL_CAS_REGISTER_H_
#define COMMITLAB_SCENARIOS_TESTS_TOY_PROTOCOL_CAS_REGISTER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "commitlab/core/mutex.h"

namespace commitlab::toy {

class CasRegister {
 public:
  struct Read {
    int64_t version = 0;  // 0: never written
    int64_t value = 0;
  };

  Read Get() const {
    MutexLock lock(&mu_);
    return {static_cast<int64_t>(writers_.size()), value_};
  }
  // Sets `value` if the register is still at `expected_version`; false when another write came
  // first (a lost race).
  bool CompareAndSet(int64_t expected_version, int64_t value, const std::string& writer) {
    MutexLock lock(&mu_);
    if (expected_version != static_cast<int64_t>(writers_.size())) return false;
    value_ = value;
    writers_.push_back(writer);
    return true;
  }
  // A write that compares nothing: the lost update the toy's `set` step makes possible.
  int64_t Set(int64_t value, const std::string& writer) {
    MutexLock lock(&mu_);
    value_ = value;
    writers_.push_back(writer);
    return static_cast<int64_t>(writers_.size());
  }
  // Who wrote each version, version 1 first.
  std::vector<std::string> writers() const {
    MutexLock lock(&mu_);
    return writers_;
  }

 private:
  mutable Mutex mu_;
  int64_t value_ GUARDED_BY(mu_) = 0;
  std::vector<std::string> writers_ GUARDED_BY(mu_);
};

}  // namespace commitlab::toy

#endif  // COMMITLAB_SCENARIOS_TESTS_TOY_PROTOCOL_CAS_REGISTER_H_
