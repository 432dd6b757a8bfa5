// Harness benchmarks: what a context switch and a simulated commit attempt cost, on one core.
// Targets: >= 2,000,000 scheduler switches/s; >= 500,000 simulated commit attempts/s
// for two appenders on the memory store.
//
// Link: commitlab_sim + benchmark::benchmark_main.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/sim/fiber.h"
#include "commitlab/sim/latency.h"
#include "commitlab/sim/scheduler.h"
#include "commitlab/sim/sim_env.h"
#include "commitlab/sim/strategy.h"

namespace commitlab::sim {
namespace {

// The floor: one Resume + one Suspend of a bare fiber (two stack switches).
void BM_FiberRoundTrip(benchmark::State& state) {
  bool stop = false;
  Fiber* self = nullptr;
  Fiber fiber([&] {
    while (!stop) self->Suspend();
  });
  self = &fiber;
  for (auto _ : state) fiber.Resume();
  stop = true;
  fiber.Resume();  // let the body return so the fiber ends cleanly
  state.counters["switches/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 2, benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FiberRoundTrip);

// Two writers ping-ponging Yield: every step hands the baton to the other writer (through the
// scheduler's loop: two stack switches per hand-over). Counts writer-to-writer switches.
void PingPong(benchmark::State& state, std::string_view strategy) {
  const int64_t yields = state.range(0);
  int64_t switches = 0;
  for (auto _ : state) {
    Scheduler sched(std::move(MakeStrategy(strategy)).value(), 1);
    for (int w = 0; w < 2; ++w)
      sched.AddWriter(fmt::format("w{}", w), [&sched, yields] {
        for (int64_t i = 0; i < yields; ++i) sched.Yield();
      });
    if (!sched.Run().ok()) state.SkipWithError("run failed");
    switches += static_cast<int64_t>(sched.schedule().runs.size()) - 1;
  }
  state.counters["switches/s"] = benchmark::Counter(static_cast<double>(switches), benchmark::Counter::kIsRate);
}
void BM_PingPongRoundRobin(benchmark::State& state) { PingPong(state, "round-robin"); }
void BM_PingPongRandom(benchmark::State& state) { PingPong(state, "random"); }
BENCHMARK(BM_PingPongRoundRobin)->Arg(100'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PingPongRandom)->Arg(100'000)->Unit(benchmark::kMillisecond);

// Two Paimon appenders racing for snapshot ids on the memory store under SimEnv, random
// scheduling; range(0) commits each, range(1) selects the latency model.
void BM_SimulatedCommits(benchmark::State& state) {
  const int commits = static_cast<int>(state.range(0));
  const std::string_view latency_spec = state.range(1) == 0 ? "" : "*=uniform:0,2";
  const LatencyModel latency = *ParseLatencyModel(latency_spec);
  int64_t attempts = 0;
  int64_t failures = 0;
  int64_t steps = 0;
  for (auto _ : state) {
    Scheduler sched(MakeRandomStrategy(), 7);
    SimEnv env(&sched, latency);
    MemoryStore store;
    NullEventSink sink;
    std::vector<std::unique_ptr<paimon::Committer>> committers;
    for (std::string name : {"job-A", "job-B"}) {
      committers.push_back(std::make_unique<paimon::Committer>(name, paimon::CommitOptions{}, &env, &store, &sink));
      paimon::Committer* c = committers.back().get();
      sched.AddWriter(name, [c, name, commits] {
        for (int i = 1; i <= commits; ++i) {
          DataFile f{.name = fmt::format("data-{}-{}.parquet", name, i), .row_count = 1};
          benchmark::DoNotOptimize(c->Commit(Committable{.identifier = i, .append_changes = {{ChangeKind::kAdd, f}}}));
        }
      });
    }
    if (!sched.Run().ok()) state.SkipWithError("run failed");
    for (const auto& c : committers) {
      attempts += c->stats().attempts;
      failures += c->stats().atomic_failures;
    }
    steps += sched.steps();
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["attempts/s"] = benchmark::Counter(static_cast<double>(attempts), benchmark::Counter::kIsRate);
  state.counters["steps/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  state.counters["attempts/run"] = static_cast<double>(attempts) / runs;
  state.counters["failures/run"] = static_cast<double>(failures) / runs;
}
BENCHMARK(BM_SimulatedCommits)
    ->ArgNames({"commits", "latency"})
    ->Args({30, 0})
    ->Args({1000, 0})
    ->Args({30, 1})
    ->Args({1000, 1})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace commitlab::sim
