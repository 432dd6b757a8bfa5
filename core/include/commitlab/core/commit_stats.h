// CommitStats: the one tally of commits. A committer counts into it (Paimon's and Iceberg's; a
// Delta transaction's TransactionStats map onto it), a scenario writer sums its committers' and a
// run sums its writers' (scenarios::Counters is this type: the keys of `commitlab run --json` and
// of `expect tally`).
#ifndef COMMITLAB_CORE_COMMIT_STATS_H_
#define COMMITLAB_CORE_COMMIT_STATS_H_

#include <cstdint>

namespace commitlab {

struct CommitStats {
  int64_t committed = 0;           // snapshots published (or found by the idempotency check)
  int64_t attempts = 0;            // publish attempts started
  int64_t atomic_failures = 0;     // lost races
  int64_t conflicts = 0;           // refusals by conflict detection
  int64_t unknown_outcomes = 0;    // publishes that ended in an error
  int64_t idempotent_matches = 0;  // unknown outcomes the idempotency check found committed
  int64_t gave_up = 0;             // commits that exhausted their retries
  int64_t manifests_written = 0;   // a committer's; run reports leave it out
  int64_t orphan_files = 0;        // a run's, counted once it is over: files no snapshot references

  CommitStats& operator+=(const CommitStats& o) {
    committed += o.committed;
    attempts += o.attempts;
    atomic_failures += o.atomic_failures;
    conflicts += o.conflicts;
    unknown_outcomes += o.unknown_outcomes;
    idempotent_matches += o.idempotent_matches;
    gave_up += o.gave_up;
    manifests_written += o.manifests_written;
    orphan_files += o.orphan_files;
    return *this;
  }
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_COMMIT_STATS_H_
