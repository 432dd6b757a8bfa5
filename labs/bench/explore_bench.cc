// `commitlab explore` throughput: scenario executions per second of CPU on the 2-writer x
// 2-commit Paimon race, the search the explorer exists for. Every execution replays the scenario
// from its start (stateless search), so this is the cost of one whole untimed run.
#include <benchmark/benchmark.h>

#include "commitlab/scenarios/explore.h"
#include "commitlab/scenarios/parser.h"

namespace commitlab::scenarios {
namespace {

// The same race as scenarios/tests/data/race_2x2.scn, whose explorations are golden.
constexpr char kRace[] = R"(title "2x2 race"
table name=t protocol=paimon
writer name=job-A
writer name=job-B
repeat 2: job-A.c: write rows=1; commit
repeat 2: job-B.c: write rows=1; commit
)";

// Arg 0: the whole search with sleep sets; arg 1: the first 20,000 executions of the unreduced one.
void BM_ExploreRace2x2(benchmark::State& state) {
  const Scenario s = *ParseScenario(kRace, "race.scn");
  const bool reduce = state.range(0) == 0;
  int64_t runs = 0;
  for (auto _ : state) {
    Result<ExploreReport> r = Explore(s, {}, {.max_executions = reduce ? 1'000'000 : 20'000, .reduce = reduce});
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      return;
    }
    runs += r->executions + r->sleep_blocked + r->cut_preemptions + r->cut_steps;
  }
  state.counters["executions_per_s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExploreRace2x2)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace commitlab::scenarios
