// Benchmarks of a scenario run as the CLI runs it, and of what grows with a run: a race's attempts
// as writers are added, the history a run writes (--trace), and its replay. Counters give the work
// of an iteration (attempts, steps, history lines and bytes), so that a cost per attempt or per
// line can be read off; the README's Speed section quotes instruction counts (callgrind) of the
// same runs, not these times, which a shared machine disturbs.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/scenarios/race.h"
#include "commitlab/scenarios/replay.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/latency.h"

namespace commitlab::scenarios {
namespace {

// `commitlab race --sched random --writers W --commits C --policy paimon:retries=1000`: the race's
// latency, and a retry limit no writer reaches, so that every commit lands and a run's attempts
// grow with contention rather than stopping at give-ups.
Scenario Race(int writers, int commits) {
  RaceSpec spec{.writers = writers,
                .commits = commits,
                .policy = "paimon:retries=1000",
                .latency = std::string(sim::kLectureLatencySpec)};
  return *RaceScenario(spec);
}

RunOptions Simulated(EventSink* events, sim::History* history) {
  RunOptions o;
  o.seed = 1;
  o.sched = "random";
  o.events = events;
  o.history = history;
  return o;
}

// "sched1:<W>w:<S>s:...": S.
int64_t Steps(const std::string& schedule) {
  const size_t w = schedule.find("w:");
  return w == std::string::npos ? 0 : std::stoll(schedule.substr(w + 2));
}

// A stream that keeps nothing: the history's cost without a disk's.
class NullBuffer final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    bytes_ += n;
    return n;
  }

 public:
  int64_t bytes() const { return bytes_; }

 private:
  int64_t bytes_ = 0;
};

// A race of range(0) writers, 4096 commits in all: the CPU of an attempt as writers are added.
void BM_RaceAttempts(benchmark::State& state) {
  const int writers = static_cast<int>(state.range(0));
  const Scenario race = Race(writers, 4096 / writers);
  NullEventSink quiet;
  int64_t attempts = 0, steps = 0;
  for (auto _ : state) {
    Result<RunReport> r = RunScenario(race, Simulated(&quiet, nullptr));
    if (!r.ok() || !r->ok()) state.SkipWithError("the race failed");
    attempts += r->tally.attempts;
    steps += Steps(r->schedule);
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["attempts/run"] = static_cast<double>(attempts) / runs;
  state.counters["steps/attempt"] = static_cast<double>(steps) / static_cast<double>(attempts);
  state.counters["attempts/s"] = benchmark::Counter(static_cast<double>(attempts), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RaceAttempts)->RangeMultiplier(4)->Range(2, 512)->Unit(benchmark::kMillisecond);

// A race of 2 writers x 2000 commits without a history (range(0) = 0) and with one written to a
// stream (1): what --trace adds to a run.
void BM_HistoryWrite(benchmark::State& state) {
  const bool traced = state.range(0) == 1;
  const Scenario race = Race(2, 2000);
  NullEventSink quiet;
  int64_t bytes = 0, attempts = 0;
  for (auto _ : state) {
    NullBuffer buffer;
    std::ostream out(&buffer);
    sim::History history(&out);
    Result<RunReport> r = RunScenario(race, Simulated(&quiet, traced ? &history : nullptr));
    if (!r.ok() || !r->ok()) state.SkipWithError("the race failed");
    if (traced) history.Footer(HistoryFooter(*r));
    bytes += buffer.bytes();
    attempts += r->tally.attempts;
  }
  state.counters["history_bytes/attempt"] = static_cast<double>(bytes) / static_cast<double>(attempts);
  state.counters["attempts/s"] = benchmark::Counter(static_cast<double>(attempts), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HistoryWrite)->ArgName("traced")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Lines held in memory, read one at a time as a file would be.
class LinesInMemory final : public RecordedLines {
 public:
  explicit LinesInMemory(const std::vector<std::string>& lines) : lines_(lines) {}
  Result<bool> Next(std::string* line) override {
    if (at_ == lines_.size()) return false;
    *line = lines_[at_++];
    return true;
  }
  size_t line_number() const override { return at_; }

 private:
  const std::vector<std::string>& lines_;
  size_t at_ = 1;  // past the header
};

// `commitlab replay` of the history BM_HistoryWrite writes, compared line by line as it streams.
void BM_Replay(benchmark::State& state) {
  const Scenario race = Race(2, 2000);
  sim::History recorded;
  sim::Json header = {{"commitlab", {{"version", "bench"}, {"git", ""}}},
                      {"command", "race"},
                      {"argv", sim::Json::array()},
                      {"settings", {{"seed", uint64_t{1}}, {"sched", "random"}}},
                      {"plan", {{"sched", "random"}}},
                      {"scenario", {{"file", race.file_name}, {"sha256", ""}, {"text", race.text}}}};
  recorded.Header(header);
  NullEventSink quiet;
  Result<RunReport> r = RunScenario(race, Simulated(&quiet, &recorded));
  if (!r.ok()) {
    state.SkipWithError("the race failed");
    return;
  }
  recorded.Footer(HistoryFooter(*r));
  const std::vector<std::string> lines = recorded.lines();
  const sim::Json parsed_header = sim::Json::parse(lines.front());
  for (auto _ : state) {
    LinesInMemory source(lines);
    Result<StreamedReplay> replay = ReplayHistoryStreamed(parsed_header, &source);
    if (!replay.ok() || replay->difference) state.SkipWithError("the replay differed");
  }
  state.counters["lines"] = static_cast<double>(lines.size());
  state.counters["lines/s"] = benchmark::Counter(
      static_cast<double>(lines.size()) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Replay)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace commitlab::scenarios
