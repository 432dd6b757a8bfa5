// The timeline's drawing at scale (sim/timeline.h): building the timeline of a race of 8 writers
// from its history and writing its page, at 10^3, 10^4 and 10^5 commits. The page's size is a
// counter; past a few thousand spans a lane the lanes are binned, so the 10^5 page stays a few
// MB (before binning: 4.8 MB, 46 MB, 454 MB). Peak memory is `commitlab timeline`'s, measured with
// /usr/bin/time (README, "Seeing a run").
//
// Link: commitlab_scenarios + benchmark::benchmark_main.
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

#include "commitlab/scenarios/race.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/latency.h"
#include "commitlab/sim/timeline.h"

namespace commitlab::sim {
namespace {

// The history of 8 writers × commits/8 each, simulated with the lecture's latency, retrying
// until each lands: made once per size.
const std::vector<Json>& RaceHistory(int commits) {
  static std::map<int, std::vector<Json>> made;
  auto it = made.find(commits);
  if (it != made.end()) return it->second;
  scenarios::RaceSpec spec{.writers = 8,
                           .commits = commits / 8,
                           .policy = "paimon:retries=unlimited",
                           .latency = std::string(kLectureLatencySpec)};
  Result<scenarios::Scenario> s = scenarios::RaceScenario(spec);
  History history;
  history.Header({{"scenario", {{"file", s->file_name}, {"text", s->text}}}, {"plan", {{"retry", spec.policy}}}});
  scenarios::RunOptions o;
  o.sched = "random";
  o.seed = 1;
  NullEventSink quiet;
  o.events = &quiet;
  o.history = &history;
  Result<scenarios::RunReport> r = scenarios::RunScenario(*s, o);
  history.Footer(scenarios::HistoryFooter(*r));
  std::vector<Json>& lines = made[commits];
  for (const std::string& line : history.lines()) lines.push_back(Json::parse(line));
  return lines;
}

void BM_TimelinePage(benchmark::State& state) {
  const std::vector<Json>& history = RaceHistory(static_cast<int>(state.range(0)));
  size_t bytes = 0;
  bool binned = false;
  for (auto _ : state) {
    Result<Timeline> t = BuildTimeline(history, TimelineOptions{});
    const std::string page = TimelineHtml(*t);
    bytes = page.size();
    binned = t->aggregated;
    benchmark::DoNotOptimize(page.data());
  }
  state.counters["page_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["binned"] = binned ? 1 : 0;
  state.counters["history_lines"] = static_cast<double>(history.size());
}
BENCHMARK(BM_TimelinePage)->Arg(1'000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace commitlab::sim
