// The pessimistic baseline the lectures contrast optimistic commits with (无锁并发写入, "为什么不使用
// 锁": a table lock makes every job wait for the slowest): one lock per table, taken before a
// commit reads the latest snapshot and released when its publish has ended, so no two commits
// overlap and no race is ever lost. An EffectGate (scenarios/runner.h): it needs a simulated run
// with a history.
#ifndef COMMITLAB_LABS_COMMIT_LOCK_H_
#define COMMITLAB_LABS_COMMIT_LOCK_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/scheduler.h"

namespace commitlab::cli {

class CommitLock final : public scenarios::EffectGate {
 public:
  void Attach(sim::Scheduler* scheduler) override { scheduler_ = scheduler; }
  void Before(size_t writer, Effect effect) override;
  void After(size_t writer, Effect effect, int64_t snapshot, PublishOutcome outcome) override;

  int64_t waited_micros() const { return waited_; }  // all writers' time spent waiting for the lock
  int64_t waits() const { return waits_; }           // how many times one had to wait

 private:
  static constexpr size_t kNobody = static_cast<size_t>(-1);
  sim::Scheduler* scheduler_ = nullptr;
  size_t holder_ = kNobody;
  std::vector<size_t> waiting_;
  int64_t waited_ = 0;
  int64_t waits_ = 0;
};

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_COMMIT_LOCK_H_
