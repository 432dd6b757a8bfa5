// The lecture's scenario 1 as a reusable harness: N writers append M commits each to one table
// and race for snapshot ids. The CLI's `race` command, the tests and the benchmarks all run it,
// either on OS threads with the real clock ("free") or on fibers in virtual time under a seeded
// scheduling strategy.
#ifndef COMMITLAB_SIM_RACE_H_
#define COMMITLAB_SIM_RACE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/store.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/latency.h"

namespace commitlab::sim {

class TraceWriter;

struct RaceConfig {
  int writers = 2;
  int commits = 30;
  std::string table = "race_log";
  RetryPolicy policy = PaimonDefaultPolicy();
  bool idempotency_check = true;
  uint64_t seed = 1;
  // "free" runs OS threads; otherwise a strategy spec for the simulator (strategy.h):
  // random, pct, pct:depth=3, round-robin, replay:<schedule>.
  std::string sched = "free";
  LatencyModel latency = {};
  std::vector<FaultRule> faults = {};
};

struct WriterReport {
  std::string name;
  int64_t commits_ok = 0;
  int64_t attempts = 0;
  int64_t atomic_failures = 0;
  int64_t unknown_outcomes = 0;
  std::string error;  // empty unless the writer stopped on a failed commit
};

struct RaceReport {
  std::vector<WriterReport> writers;
  int64_t latest_snapshot = 0;
  int64_t atomic_failures = 0;
  int failed_jobs = 0;
  std::map<std::string, int64_t> snapshots_per_user;
  std::vector<std::string> violations;  // empty when every invariant held
  std::vector<std::string> fired_faults;
  std::string schedule;       // simulated runs: the schedule string to replay
  int64_t virtual_micros = 0; // simulated runs: when the last writer finished
  Status status;              // not OK when the run itself failed (a replayed schedule diverged)
};

// Writer names: job-A, job-B, ..., job-Z, then job-27, job-28, ...
std::string WriterName(int index);

// Reads snapshots 1..latest back from the store, in id order.
Status ReadChain(SnapshotStore* store, std::vector<Snapshot>* chain);

// Runs the race. `events` must be thread-safe for free runs; `trace` may be null.
RaceReport RunRace(const RaceConfig& config, SnapshotStore* store, EventSink* events, TraceWriter* trace = nullptr);

// The same, for a store that needs the run's Env (an object store pauses between its existence
// check and its put); the store lives for the run unless the factory shares ownership.
using StoreFactory = std::function<std::shared_ptr<SnapshotStore>(Env* env)>;
RaceReport RunRace(const RaceConfig& config, const StoreFactory& make_store, EventSink* events,
                   TraceWriter* trace = nullptr);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_RACE_H_
