// Retry-policy sweeps: many small simulated runs through the real Committer, in virtual time,
// aggregated per (writer count, policy). Two experiments:
//
//   brooker  Brooker's 2015 "Exponential Backoff And Jitter" set-up: N writers start together,
//            each commits one single-file APPEND and stops after its one success (or when its
//            policy's retry limit makes it give up). Each commit is Brooker's two calls: read the
//            latest snapshot, then publish snapshot N+1 (create-if-absent: a conditional write
//            on the version). Each call is a request hop and a response hop of |Normal(10, 2)| ms
//            and takes effect when the request arrives; the committer's manifest write is given
//            zero latency and its idempotency scan is off, so no other store call costs time or
//            happens at all. After a failed publish the wait uses failures = 1 first (10 ms for
//            plain exponential with base 5 ms) and comes before the retry's read request hop.
//   formats  S2 第 5 讲's race scaled: W appenders x M commits each (a data file write, then a
//            commit), committer defaults (idempotency scan on), the race's latency (kLectureLatencySpec).
//
// Every run is single-threaded and self-contained (its own scheduler, store and committers); its
// seed is DeriveSeed(base seed, experiment, N, policy, run index) and its result lands in a slot
// fixed by (N, policy, run), so a sweep's rows are identical whatever the number of threads.
#ifndef COMMITLAB_SIM_SWEEP_H_
#define COMMITLAB_SIM_SWEEP_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"
#include "commitlab/sim/latency.h"

namespace commitlab::sim {

// Brooker's network: read-latest and publish hops |Normal(10 ms, 2 ms)|, every other op zero.
inline constexpr std::string_view kBrookerLatencySpec = "read-latest=normal:10,2;publish=normal:10,2";

// The default policy list of both experiments, in the order the outputs use: Brooker's five
// (base 5 ms, cap 2 s, unlimited retries), then Paimon's and Iceberg's defaults with their own
// retry limits.
std::vector<RetryPolicy> DefaultSweepPolicies();
// "none,exponential,full-jitter" or full specs: "exponential:base=5ms,cap=1s,full-jitter". A
// comma-separated piece with '=' but no ':' continues the previous spec (policy names never hold
// '='). Errors name the offending piece; an empty or repeated policy is an error too.
Result<std::vector<RetryPolicy>> ParsePolicyList(std::string_view list);
// "10..190:10" (from..to:step), "2,4,8" or a mix: "2,4,8..64:8"; ascending, unique, each in
// [min_value, max_value].
Result<std::vector<int>> ParseIntList(std::string_view list, int min_value, int max_value);

// The nearest-rank percentile of `sorted` (ascending): the value at rank ceil(p/100 * n),
// 1-based, clamped to [1, n]. 0 for an empty list. REQUIRES: 0 <= p <= 100.
int64_t Percentile(std::span<const int64_t> sorted, double p);

// ---- One run --------------------------------------------------------------------------------

struct RunOutcome {
  int64_t calls = 0;                           // publish attempts that reached the store
  int64_t commits_ok = 0;                      // commits that landed
  int64_t gave_up = 0;                         // writers stopped by their policy's retry (or time) limit
  int64_t completion_micros = 0;               // when the last successful commit's response arrived
  int64_t finish_micros = 0;                   // when the last writer stopped (success or give-up)
  std::vector<int64_t> latencies_micros = {};  // one per landed commit: Commit() call to response
  Status status = {};                          // not OK if the simulator itself failed
};

// One Brooker run: `writers` writers, one commit each (the sweep passes kBrookerLatencySpec).
RunOutcome RunBrookerOnce(int writers, const RetryPolicy& policy, uint64_t seed, const LatencyModel& latency);
// One formats run: `writers` appenders x `commits` commits each; a writer stops at its first
// failed commit (the sweep passes kLectureLatencySpec).
RunOutcome RunAppendersOnce(int writers, int commits, const RetryPolicy& policy, uint64_t seed,
                            const LatencyModel& latency);

// ---- Sweeps ---------------------------------------------------------------------------------

enum class Experiment { kBrooker, kFormats };
std::string_view ExperimentName(Experiment e);  // "brooker", "formats"

struct SweepConfig {
  Experiment experiment = Experiment::kBrooker;
  std::vector<int> writer_counts;  // N (brooker) or appenders (formats)
  std::vector<RetryPolicy> policies;
  int runs = 100;    // per (N, policy)
  int commits = 30;  // per appender (formats only)
  uint64_t seed = 1;
  LatencyModel latency;  // the experiment's default when not set by the caller
  int threads = 0;       // 0: std::thread::hardware_concurrency()
  // Called after every run with (runs done, runs in all), one call at a time, from a worker.
  std::function<void(int64_t, int64_t)> progress;
};

// A config with the experiment's defaults: N = 10..190:10 (brooker) or 2,4,..,64 (formats),
// DefaultSweepPolicies(), the experiment's latency model.
SweepConfig DefaultSweepConfig(Experiment e);

// One row per (N, policy), in writer_counts x policies order.
struct SweepRow {
  int writers = 0;
  std::string policy = {};  // FormatRetryPolicy
  int runs = 0;
  double mean_calls = 0;          // publish attempts per run
  double mean_completion_ms = 0;  // when the last successful writer got its success
  double mean_finish_ms = 0;      // when the last writer stopped
  double p50_latency_ms = 0;      // over every landed commit of every run
  double p99_latency_ms = 0;
  double mean_commits_ok = 0;
  double mean_gave_up = 0;  // writers that gave up, per run
  int64_t gave_up_total = 0;
  double commits_per_s = 0;        // landed commits / virtual seconds until the last writer stopped
  double attempts_per_commit = 0;  // publish attempts / landed commits

  // Exact, doubles included: a cell's runs and their order are fixed, so its row is too.
  friend bool operator==(const SweepRow&, const SweepRow&) = default;
};

struct SweepResult {
  SweepConfig config;  // without progress
  std::vector<SweepRow> rows;
  Status status;  // the first simulator failure, if any
};

// The seed of one run: DeriveSeed(DeriveSeed(base, experiment, N), FNV-1a of the policy's canonical
// spec, run), so a point's runs do not depend on the other points or policies of the sweep.
uint64_t RunSeed(uint64_t base, Experiment e, int writers, const RetryPolicy& policy, int run);

// Runs every (N, policy, run) on a pool of config.threads workers.
SweepResult RunSweep(const SweepConfig& config);

// Keeps freed fiber stacks (256 KiB each) in the allocator instead of handing them back to the
// kernel after every run; otherwise each run page-faults its writers' stacks in afresh (about 4 s
// of system time over the Brooker sweep). Process-wide (glibc mallopt): the sweep command and
// the sweep benchmarks call it once at start-up.
void TuneAllocatorForSweeps();

// Aggregates the runs of one (N, policy) cell, in run order.
SweepRow Aggregate(int writers, const RetryPolicy& policy, std::span<const RunOutcome> runs);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SWEEP_H_
