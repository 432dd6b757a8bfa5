// Retry-policy sweep benchmarks: the CPU cost of one simulated run of each experiment, per policy,
// so that a change to the committer, the store, the scheduler or SimEnv shows up as a cost here.
// Iteration i runs the sweep's run i (same seed as `commitlab sweep --seed 1`), so the work per
// iteration is fixed for a given iteration count; counters report the calls each run made.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "commitlab/sim/sweep.h"

namespace commitlab::sim {
namespace {

RetryPolicy PolicyNamed(std::string_view name) {
  for (const RetryPolicy& p : DefaultSweepPolicies())
    if (FormatRetryPolicy(p) == name) return p;
  return DefaultRetryPolicy(RetryKind::kNone);
}

// One Brooker run: N = 100 writers, one commit each, Brooker's latency, as the sweep runs it
// (RunBrookerLoop); BM_BrookerRunThroughCommitter runs the same through Paimon's committer on
// fibers, the reference the loop reproduces.
template <RunOutcome (*kRun)(int, const RetryPolicy&, uint64_t, const LatencyModel&, const StoreCapacity&)>
void BrookerRun(benchmark::State& state, std::string_view policy_name) {
  TuneAllocatorForSweeps();
  const RetryPolicy policy = PolicyNamed(policy_name);
  const LatencyModel latency = *ParseLatencyModel(kBrookerLatencySpec);
  constexpr int kWriters = 100;
  int64_t calls = 0, gave_up = 0, run = 0;
  for (auto _ : state) {
    RunOutcome r = kRun(kWriters, policy, RunSeed(1, Experiment::kBrooker, kWriters, policy, static_cast<int>(run++)),
                        latency, {});
    if (!r.status.ok()) state.SkipWithError(r.status.message().c_str());
    calls += r.calls;
    gave_up += r.gave_up;
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["calls/run"] = static_cast<double>(calls) / runs;
  state.counters["gave_up/run"] = static_cast<double>(gave_up) / runs;
  state.counters["calls/s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}
void BM_BrookerRun(benchmark::State& state, std::string_view policy_name) {
  BrookerRun<RunBrookerOnce>(state, policy_name);
}
void BM_BrookerRunThroughCommitter(benchmark::State& state, std::string_view policy_name) {
  BrookerRun<RunBrookerThroughCommitter>(state, policy_name);
}
BENCHMARK_CAPTURE(BM_BrookerRunThroughCommitter, none, "none")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BrookerRunThroughCommitter, full_jitter, "full-jitter")->Unit(benchmark::kMillisecond);

// One Paimon formats run: 16 appenders x 30 commits, the race's latency (sim::kLectureLatencySpec).
void BM_AppendersRun(benchmark::State& state, std::string_view policy_name) {
  TuneAllocatorForSweeps();
  const RetryPolicy policy = PolicyNamed(policy_name);
  const LatencyModel latency = *ParseLatencyModel(kLectureLatencySpec);
  constexpr int kAppenders = 16;
  int64_t calls = 0, commits = 0, run = 0;
  for (auto _ : state) {
    RunOutcome r = RunAppendersOnce(
        kAppenders, 30, policy, RunSeed(1, Experiment::kFormats, kAppenders, policy, static_cast<int>(run++)), latency);
    if (!r.status.ok()) state.SkipWithError(r.status.message().c_str());
    calls += r.calls;
    commits += r.commits_ok;
  }
  state.counters["attempts/commit"] = commits > 0 ? static_cast<double>(calls) / static_cast<double>(commits) : 0;
  state.counters["calls/s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}

// One formats run of each protocol: 16 appenders x 10 commits under full jitter.
void BM_ProtocolRun(benchmark::State& state, Protocol protocol) {
  TuneAllocatorForSweeps();
  const RetryPolicy policy = DefaultRetryPolicy(RetryKind::kFullJitter);
  const LatencyModel latency = *ParseLatencyModel(kLectureLatencySpec);
  constexpr int kAppenders = 16;
  int64_t calls = 0, run = 0;
  for (auto _ : state) {
    RunOutcome r = RunAppendersOnce(kAppenders, 10, policy,
                                    RunSeed(1, Experiment::kFormats, kAppenders, policy, static_cast<int>(run++)),
                                    latency, protocol);
    if (!r.status.ok()) state.SkipWithError(r.status.message().c_str());
    calls += r.calls;
  }
  state.counters["calls/s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}
// BM_ProtocolRun/paimon, /iceberg, /delta: one per engine.
const bool kProtocolRuns = [] {
  for (Protocol p : kEngineProtocols) {
    const std::string name = fmt::format("BM_ProtocolRun/{}", ProtocolName(p));
    benchmark::RegisterBenchmark(name.c_str(), BM_ProtocolRun, p)->Unit(benchmark::kMillisecond);
  }
  return true;
}();

// One Brooker run at N = 50 against a store of 500 requests/s: every call is ordered by the
// server's queue, so this is the capacity model's own cost.
void BM_BrookerLimitedStore(benchmark::State& state) {
  TuneAllocatorForSweeps();
  const RetryPolicy policy = DefaultRetryPolicy(RetryKind::kNone);
  const LatencyModel latency = *ParseLatencyModel(kBrookerLatencySpec);
  int64_t calls = 0, throttled = 0, run = 0;
  for (auto _ : state) {
    RunOutcome r = RunBrookerOnce(50, policy, RunSeed(1, Experiment::kCapacity, 50, policy, static_cast<int>(run++)),
                                  latency, StoreCapacity{.requests_per_s = 500});
    if (!r.status.ok()) state.SkipWithError(r.status.message().c_str());
    calls += r.calls;
    throttled += r.throttled;
  }
  state.counters["503/run"] = static_cast<double>(throttled) / static_cast<double>(state.iterations());
  state.counters["calls/s"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BrookerLimitedStore)->Unit(benchmark::kMillisecond);

#define COMMITLAB_SWEEP_BENCH(policy, id)                                      \
  BENCHMARK_CAPTURE(BM_BrookerRun, id, policy)->Unit(benchmark::kMillisecond); \
  BENCHMARK_CAPTURE(BM_AppendersRun, id, policy)->Unit(benchmark::kMillisecond)

COMMITLAB_SWEEP_BENCH("none", none);
COMMITLAB_SWEEP_BENCH("exponential", exponential);
COMMITLAB_SWEEP_BENCH("equal-jitter", equal_jitter);
COMMITLAB_SWEEP_BENCH("full-jitter", full_jitter);
COMMITLAB_SWEEP_BENCH("decorrelated", decorrelated);
COMMITLAB_SWEEP_BENCH("paimon", paimon);
COMMITLAB_SWEEP_BENCH("iceberg", iceberg);

}  // namespace
}  // namespace commitlab::sim
