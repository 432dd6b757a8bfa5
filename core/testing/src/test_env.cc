#include "commitlab/testing/test_env.h"

namespace commitlab::test {

int64_t TestEnv::NowMicros() {
  MutexLock l(&mu_);
  return now_;
}

void TestEnv::SleepMicros(int64_t micros) {
  MutexLock l(&mu_);
  now_ += micros;
  slept_ += micros;
  sleeps_.push_back(micros);
}

void TestEnv::BeginStorageOp(StorageOp op) {
  MutexLock l(&mu_);
  ++ops_[op];
}

Status TestEnv::FaultPoint(std::string_view name) {
  MutexLock l(&mu_);
  auto it = faults_.find(std::string(name));
  if (it == faults_.end() || it->second.empty()) return Status::OK();
  Status s = it->second.front();
  it->second.pop_front();
  return s;
}

void TestEnv::InjectOnce(std::string_view point, Status s) {
  MutexLock l(&mu_);
  faults_[std::string(point)].push_back(std::move(s));
}

int64_t TestEnv::slept_micros() {
  MutexLock l(&mu_);
  return slept_;
}

std::vector<int64_t> TestEnv::sleeps() {
  MutexLock l(&mu_);
  return sleeps_;
}

int TestEnv::ops(StorageOp op) {
  MutexLock l(&mu_);
  return ops_[op];
}

}  // namespace commitlab::test
