// The lecture's scenario 1 as a reusable harness: N writers append M commits each to one table
// and race for snapshot ids. The CLI's `race` command, the tests and the benchmarks all run it.
#ifndef COMMITLAB_SIM_RACE_H_
#define COMMITLAB_SIM_RACE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "commitlab/core/events.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/store.h"

namespace commitlab::sim {

struct RaceConfig {
  int writers = 2;
  int commits = 30;
  std::string table = "race_log";
  RetryPolicy policy = PaimonDefaultPolicy();
  uint64_t seed = 1;
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
};

// Writer names: job-A, job-B, ..., job-Z, then job-27, job-28, ...
std::string WriterName(int index);

// Reads snapshots 1..latest back from the store, in id order.
Status ReadChain(SnapshotStore* store, std::vector<Snapshot>* chain);

// Runs the race on OS threads with the real clock. `events` must be thread-safe.
RaceReport RunThreadRace(const RaceConfig& config, SnapshotStore* store, EventSink* events);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_RACE_H_
