// SweepEnv: the Env of one sweep run. SimEnv with lazy time, and optionally a store of limited
// capacity (StoreCapacity) in front of every storage call.
#ifndef COMMITLAB_SIM_SWEEP_ENV_H_
#define COMMITLAB_SIM_SWEEP_ENV_H_

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "commitlab/sim/scheduler.h"
#include "commitlab/sim/sim_env.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::sim::internal {

// A sweep injects no faults and its files have unique names, so the only effects whose order
// matters are reading the latest version and publishing. Every other delay (a response hop, a
// backoff wait, a data or manifest write) only moves the writer's own clock: it is added to the
// writer's pending time, and the writer sleeps it off in one piece right before its next ordered
// effect, which then happens at exactly the virtual time it would have without the shortcut. An
// attempt thus costs two scheduling points instead of four or more; ties between writers due at
// the same instant are still broken by the strategy.
//
// With a limited capacity every request is ordered (the server's queue is shared): a request
// sleeps off its writer's pending time and its request hop, and on arrival is either queued or
// refused with 503 SlowDown and sent again. A queued request takes effect at once, and its wait
// and service are deferred like any other delay. That is exact because (a) the one server is first
// come, first served, so services end in the order requests arrive, and a request that takes
// effect on arrival sees and changes the store as it would when its service ends; and (b) the
// caller reaches the store right after BeginStorageOp returns, with no scheduling point between.
// More servers, priorities or a yield there would break it.
//
// Its sleeps declare no step access (SimEnv::SleepMicros does): only the explorer's strategy reads
// it, and a sweep runs the random one.
class SweepEnv final : public SimEnv {
 public:
  SweepEnv(Scheduler* scheduler, const LatencyModel& latency, int writers, const StoreCapacity& capacity)
      : SimEnv(scheduler, latency),
        pending_micros_(static_cast<size_t>(writers), 0),
        capacity_(capacity),
        service_micros_(capacity.limited() ? std::max<int64_t>(1, 1'000'000 / capacity.requests_per_s) : 0) {}

  // The writer's own clock: the scheduler's plus what it has yet to sleep off.
  int64_t NowMicros() override { return SimEnv::NowMicros() + pending(); }
  void SleepMicros(int64_t micros) override { Defer(micros); }
  void BeginStorageOp(StorageOp op) override {
    Defer(latency().RequestMicros(op, rng()));
    if (capacity_.limited()) {
      Serve(op);
    } else if (op == StorageOp::kReadLatest || op == StorageOp::kReadSnapshot || op == StorageOp::kPublish) {
      Sleep(std::exchange(pending(), 0));
    }
  }
  void EndStorageOp(StorageOp op) override { Defer(latency().ResponseMicros(op, rng())); }
  // A sweep injects no faults; but past its run's budget (WritersRun) a writer stops here, as in a
  // simulated run (SimEnv::FaultPoint), so that a commit that never lands cannot spin for ever.
  Status FaultPoint(std::string_view) override {
    if (!scheduler()->over_budget()) return Status::OK();
    return Status::Crashed(scheduler()->budget_verdict());
  }

  int64_t throttled() const { return throttled_; }

 private:
  // The request has been sent (its hop is pending): it arrives, queues or is refused.
  void Serve(StorageOp op) {
    for (int refusals = 0;; ++refusals) {
      Sleep(std::exchange(pending(), 0));
      const int64_t now = SimEnv::NowMicros();
      const int64_t wait = std::max<int64_t>(0, server_free_micros_ - now);
      // Refused when `queue` requests wait already (the one in service does not count).
      if (wait <= int64_t{capacity_.queue} * service_micros_) {
        server_free_micros_ = now + wait + service_micros_;
        Defer(wait + service_micros_);  // see the class comment: it takes effect now
        return;
      }
      // 503 SlowDown: the answer's hop, the SDK's throttling wait, the request's hop again.
      ++throttled_;
      Defer(latency().ResponseMicros(op, rng()));
      const int64_t ceiling = std::min<int64_t>(kThrottleCapMicros, kThrottleBaseMicros << std::min(refusals, 10));
      Defer(rng().Between(0, ceiling));
      Defer(latency().RequestMicros(op, rng()));
    }
  }

  int64_t& pending() { return pending_micros_[static_cast<size_t>(scheduler()->current())]; }
  void Defer(int64_t micros) {
    if (micros > 0) pending() += micros;
  }

  // AWS SDKs' standard retry mode on a throttling error: THROTTLING_RETRY_DELAY_BASE 500 ms,
  // MAXIMUM_RETRY_DELAY 20 s, full jitter (see the backoff reference's SDK table).
  static constexpr int64_t kThrottleBaseMicros = 500'000;
  static constexpr int64_t kThrottleCapMicros = 20'000'000;

  std::vector<int64_t> pending_micros_;  // per writer; touched only by that writer's fiber
  const StoreCapacity capacity_;
  const int64_t service_micros_;
  int64_t server_free_micros_ = 0;  // when the server finishes the last request it accepted
  int64_t throttled_ = 0;
};

}  // namespace commitlab::sim::internal

#endif  // COMMITLAB_SIM_SWEEP_ENV_H_
