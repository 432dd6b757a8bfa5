// Retry-policy sweeps: many small simulated runs through the real Committer, in virtual time,
// aggregated per cell (writer count, capacity, protocol, policy). Three experiments:
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
//            commit), the race's latency (kLectureLatencySpec), through each table format's own
//            commit protocol (Protocol): Paimon's committer (idempotency scan on), Iceberg's
//            SnapshotProducer against an in-memory catalog, Delta's OptimisticTransaction.
//   capacity Brooker's experiment at one N against a store of limited capacity (StoreCapacity),
//            swept over the capacity: where backing off starts to pay for everyone.
//
// Every run is single-threaded and self-contained (its own scheduler, store and committers); its
// seed is DeriveSeed(base seed, experiment, N, policy, run index) and its result lands in a slot
// fixed by (N, policy, run), so a sweep's rows are identical whatever the number of threads.
#ifndef COMMITLAB_SIM_SWEEP_H_
#define COMMITLAB_SIM_SWEEP_H_

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/protocol.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"
#include "commitlab/sim/latency.h"

namespace commitlab::sim {

// Brooker's network: read-latest and publish hops |Normal(10 ms, 2 ms)|, every other op zero.
inline constexpr std::string_view kBrookerLatencySpec = "read-latest=normal:10,2;publish=normal:10,2";

// The default policy list of every experiment, in the order the outputs use: Brooker's five
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

// A formats sweep compares the engines' protocols (core/protocol.h), one per table format.
// "paimon,iceberg,delta" (any order, each once); errors name the offending piece.
Result<std::vector<Protocol>> ParseProtocolList(std::string_view list);
// The protocol of S2 第 5 讲's race and of Brooker's client: Paimon's committer. Brooker's
// experiments run it whatever a config's protocol list says.
Protocol LectureProtocol();

// A store that pushes back: one first-come-first-served server in front of every storage call,
// serving `requests_per_s` (each request takes 1e6 / R microseconds, rounded down: 62 us at
// 16 000 req/s). A request that arrives while `queue` others wait is refused with an object
// store's 503 SlowDown after its request hop; the storage client waits U(0, min(20 s, 500 ms x
// 2^k)) for its k-th refusal in a row, as an AWS SDK's throttling backoff does, and sends it again
// (unlike an SDK, without limit or retry quota), so throttling costs a writer time but never fails
// its commit. Unlimited (the default) means no server at all: Brooker's experiment as he ran it,
// byte for byte.
struct StoreCapacity {
  int64_t requests_per_s = 0;  // 0: unlimited
  int queue = 32;
  bool limited() const { return requests_per_s > 0; }
  friend bool operator==(const StoreCapacity&, const StoreCapacity&) = default;
};
// "unlimited" or "500 req/s, queue 32".
std::string FormatCapacity(const StoreCapacity& c);

// ---- One run --------------------------------------------------------------------------------

struct RunOutcome {
  int64_t calls = 0;                           // publish attempts that reached the store
  int64_t commits_ok = 0;                      // commits that landed
  int64_t gave_up = 0;                         // writers stopped by their policy's retry (or time) limit
  int64_t completion_micros = 0;               // when the last successful commit's response arrived
  int64_t finish_micros = 0;                   // when the last writer stopped (success or give-up)
  std::vector<int64_t> latencies_micros = {};  // one per landed commit: Commit() call to response
  int64_t throttled = 0;                       // requests the store refused (503 SlowDown)
  Status status = {};                          // not OK if the simulator itself failed
};

// One Brooker run: `writers` writers, one commit each (the sweep passes kBrookerLatencySpec).
// Against an unlimited store it is RunBrookerLoop, else RunBrookerThroughCommitter.
RunOutcome RunBrookerOnce(int writers, const RetryPolicy& policy, uint64_t seed, const LatencyModel& latency,
                          const StoreCapacity& capacity = {});
// The reference: Paimon's Committer for each writer, on fibers, under the Scheduler and SweepEnv.
RunOutcome RunBrookerThroughCommitter(int writers, const RetryPolicy& policy, uint64_t seed,
                                      const LatencyModel& latency, const StoreCapacity& capacity = {});
// The same run against an unlimited store as an event loop that reproduces the reference draw
// for draw and step for step (brooker_run.cc says what it mirrors): equal RunOutcomes at a third
// of the instructions. The sweep runs this one; sweep_test.cc holds the two equal.
RunOutcome RunBrookerLoop(int writers, const RetryPolicy& policy, uint64_t seed, const LatencyModel& latency);
// One formats run: `writers` appenders x `commits` commits each through `protocol`; a writer
// stops at its first failed commit (the sweep passes kLectureLatencySpec).
RunOutcome RunAppendersOnce(int writers, int commits, const RetryPolicy& policy, uint64_t seed,
                            const LatencyModel& latency, Protocol protocol = LectureProtocol(),
                            const StoreCapacity& capacity = {});

// ---- Sweeps ---------------------------------------------------------------------------------

enum class Experiment { kBrooker, kFormats, kCapacity };
std::string_view ExperimentName(Experiment e);  // "brooker", "formats", "capacity"

struct SweepConfig {
  Experiment experiment = Experiment::kBrooker;
  std::vector<int> writer_counts;  // N (brooker, capacity) or appenders (formats)
  std::vector<RetryPolicy> policies;
  std::vector<Protocol> protocols = {LectureProtocol()};  // formats only: brooker's is Paimon's
  // Requests per second of the store, 0 = unlimited; the capacity experiment sweeps them.
  std::vector<int64_t> capacities = {0};
  int queue = StoreCapacity{}.queue;
  int runs = 100;    // per (N, policy)
  int commits = 10;  // per appender (formats only)
  uint64_t seed = 1;
  LatencyModel latency;  // the experiment's default when not set by the caller
  int threads = 0;       // 0: std::thread::hardware_concurrency()
  // Shard shard_index of shard_count (`commitlab sweep --shard`): only the cells whose index in
  // row order is shard_index mod shard_count run; each keeps its seeds, so the shards' rows are
  // the unsharded sweep's.
  int shard_index = 0;
  int shard_count = 1;
  // Called after every run with (runs done, runs in all), one call at a time, from a worker.
  std::function<void(int64_t, int64_t)> progress;
};

// A config with the experiment's defaults: N = 10..190:10 (brooker), 2,4,..,32 appenders x 10 commits and the
// three protocols (formats), or N = 50 against kDefaultCapacities (capacity); DefaultSweepPolicies()
// and the experiment's latency model.
SweepConfig DefaultSweepConfig(Experiment e);

// The 10th and 90th percentiles (nearest rank) of a figure across a cell's runs.
struct Spread {
  double p10 = 0;
  double p90 = 0;
  friend bool operator==(const Spread&, const Spread&) = default;
};

// Requests per second the capacity experiment sweeps by default (each with the default queue).
inline constexpr std::array<int64_t, 8> kDefaultCapacities = {125, 250, 500, 1000, 2000, 4000, 8000, 16000};

// One row per cell, in writer_counts x capacities x protocols x policies order.
struct SweepRow {
  int writers = 0;
  int64_t capacity_rps = 0;  // 0 = unlimited
  std::string protocol = {};
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
  double attempts_per_commit = 0;  // publish attempts / landed commits: calls per successful writer (brooker)
  double gave_up_pct = 0;          // writers that gave up, % of all writers of all runs
  double mean_latency_ms = 0;      // per landed commit: a successful writer's time to success (brooker)
  double mean_throttled = 0;       // 503 SlowDown answers per run
  // Across runs: per-run calls, completion, commits/s, attempts per commit, p99 and mean latency.
  Spread calls_spread = {};
  Spread completion_ms_spread = {};
  Spread commits_per_s_spread = {};
  Spread attempts_per_commit_spread = {};
  Spread p99_latency_ms_spread = {};
  Spread latency_ms_spread = {};  // of each run's mean latency

  // Exact, doubles included: a cell's runs and their order are fixed, so its row is too.
  friend bool operator==(const SweepRow&, const SweepRow&) = default;
};

struct SweepResult {
  SweepConfig config;  // without progress
  std::vector<SweepRow> rows;
  std::vector<int64_t> cells;  // each row's cell: its index among all the sweep's rows (shards skip some)
  int64_t all_cells = 0;       // the rows of the unsharded sweep
  Status status;               // the first simulator failure, if any
};

// The seed of one run: DeriveSeed(DeriveSeed(base, experiment, N), FNV-1a of the policy's canonical
// spec, run), so a point's runs do not depend on the other points or policies of the sweep. The
// protocols and capacities of a point share its seeds: they are compared on the same draws.
uint64_t RunSeed(uint64_t base, Experiment e, int writers, const RetryPolicy& policy, int run);

// Runs every (N, policy, run) on a pool of config.threads workers.
SweepResult RunSweep(const SweepConfig& config);

// Keeps freed fiber stacks (256 KiB each) in the allocator instead of handing them back to the
// kernel after every run; otherwise each run page-faults its writers' stacks in afresh (about 4 s
// of system time over the Brooker sweep). Process-wide (glibc mallopt): the sweep command and
// the sweep benchmarks call it once at start-up.
void TuneAllocatorForSweeps();

// Aggregates the runs of one cell, in run order.
SweepRow Aggregate(int writers, const RetryPolicy& policy, std::span<const RunOutcome> runs,
                   Protocol protocol = LectureProtocol(), int64_t capacity_rps = 0);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SWEEP_H_
