#include "commitlab/report/sweep_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "commitlab/report/line_chart.h"

namespace commitlab::report {
namespace {

using sim::Experiment;
using sim::Spread;
using sim::SweepResult;
using sim::SweepRow;

constexpr std::string_view kBandNote = "band: p10-p90 of the runs";
constexpr std::string_view kHollowNote = "hollow, dashed: writers gave up";

// What a chart plots of a row.
struct Figure {
  std::function<double(const SweepRow&)> value;
  std::function<Spread(const SweepRow&)> spread = nullptr;  // null: no band
};

// One line per series key (in first-seen order), x = `x(row)`, over the rows `keep` accepts.
std::vector<ChartSeries> Series(const SweepResult& r, const std::function<bool(const SweepRow&)>& keep,
                                const std::function<std::string(const SweepRow&)>& key,
                                const std::function<double(const SweepRow&)>& x, const Figure& f) {
  std::vector<ChartSeries> series;
  std::map<std::string, size_t> index;
  for (const SweepRow& row : r.rows) {
    if (!keep(row)) continue;
    auto [it, added] = index.emplace(key(row), series.size());
    if (added) series.push_back({.name = it->first});
    ChartSeries& s = series[it->second];
    s.points.emplace_back(x(row), f.value(row));
    if (f.spread) {
      const Spread sp = f.spread(row);
      s.band.emplace_back(sp.p10, sp.p90);
    }
    s.hollow.push_back(row.gave_up_total > 0);
  }
  return series;
}

std::string Settings(const SweepResult& r) {
  return fmt::format("seed {}, {} runs per point", r.config.seed, r.config.runs);
}

std::vector<double> Ticks(const std::vector<int>& v) { return {v.begin(), v.end()}; }
std::vector<double> Ticks(const std::vector<int64_t>& v) {
  std::vector<double> out;
  for (const int64_t x : v)
    if (x > 0) out.push_back(static_cast<double>(x));
  return out;
}

std::vector<std::string> Notes(const Figure& f) {
  std::vector<std::string> notes{std::string(kHollowNote)};
  if (f.spread) notes.emplace_back(kBandNote);
  return notes;
}

const Figure kCalls{[](const SweepRow& w) { return w.mean_calls; }, [](const SweepRow& w) { return w.calls_spread; }};
const Figure kCompletion{[](const SweepRow& w) { return w.mean_completion_ms / 1000; },
                         [](const SweepRow& w) {
                           return Spread{w.completion_ms_spread.p10 / 1000, w.completion_ms_spread.p90 / 1000};
                         }};
const Figure kGaveUp{[](const SweepRow& w) { return w.gave_up_pct; }};
const Figure kCallsPerSuccess{[](const SweepRow& w) { return w.attempts_per_commit; },
                              [](const SweepRow& w) { return w.attempts_per_commit_spread; }};
const Figure kLatency{[](const SweepRow& w) { return w.mean_latency_ms; },
                      [](const SweepRow& w) { return w.latency_ms_spread; }};
const Figure kThrottled{[](const SweepRow& w) { return w.mean_throttled; }};
const Figure kRate{[](const SweepRow& w) { return w.commits_per_s; },
                   [](const SweepRow& w) { return w.commits_per_s_spread; }};
const Figure kP99{[](const SweepRow& w) { return w.p99_latency_ms; },
                  [](const SweepRow& w) { return w.p99_latency_ms_spread; }};

// Brooker's experiment and the capacity experiment: the same workload, against N or capacity.
void BrookerLike(const SweepResult& r, std::vector<SweepChart>* charts) {
  const bool capacity = r.config.experiment == Experiment::kCapacity;
  const std::string settings = Settings(r);
  const std::string prefix = capacity ? "capacity" : "brooker";
  const std::string what = capacity ? fmt::format("Brooker's experiment, N = {}, against a limited store",
                                                  r.config.writer_counts.empty() ? 0 : r.config.writer_counts.front())
                                    : "Brooker's experiment";
  const std::string x_label = capacity ? fmt::format("store capacity, requests/s (queue {}; log scale)", r.config.queue)
                                       : "writers N (each commits once)";
  auto keep = [](const SweepRow&) { return true; };
  auto key = [](const SweepRow& w) { return w.policy; };
  std::function<double(const SweepRow&)> x = [](const SweepRow& w) { return static_cast<double>(w.writers); };
  if (capacity) x = [](const SweepRow& w) { return static_cast<double>(w.capacity_rps); };
  auto chart = [&](std::string file, std::string title, std::string y_label, bool log_y, const Figure& f) {
    LineChart c{.title = fmt::format("{}: {} ({})", what, title, settings),
                .x_label = x_label,
                .y_label = std::move(y_label),
                .log_x = capacity,
                .log_y = log_y,
                .series = Series(r, keep, key, x, f),
                .x_ticks = capacity ? Ticks(r.config.capacities) : Ticks(r.config.writer_counts),
                .notes = Notes(f)};
    if (capacity && std::count(r.config.capacities.begin(), r.config.capacities.end(), 0) > 0)
      c.notes.emplace_back("unlimited capacity: in summary.md");
    charts->push_back({prefix + "-" + file, RenderLineChartSvg(c)});
  };
  chart("calls.svg", "work", "mean calls (publish attempts) per run", false, kCalls);
  chart("completion.svg", "completion time", "mean completion of the last successful writer, s (log scale)", true,
        kCompletion);
  chart("gave-up.svg", "writers that gave up", "% of writers that gave up at their retry limit", false, kGaveUp);
  chart("calls-per-success.svg", "work per successful writer", "calls per writer that succeeded", false,
        kCallsPerSuccess);
  chart("latency-per-success.svg", "time to success", "mean time to success of a successful writer, ms (log scale)",
        true, kLatency);
  if (capacity) chart("throttled.svg", "requests refused", "503 SlowDown answers per run", false, kThrottled);
}

}  // namespace

std::string_view NativePolicy(std::string_view protocol) {
  if (protocol == "paimon") return "paimon";
  if (protocol == "iceberg") return "iceberg";
  return "none";  // Delta retries a lost version at once, without limit
}

namespace {

void Formats(const SweepResult& r, std::vector<SweepChart>* charts) {
  const std::string settings = Settings(r);
  const std::string x_label = fmt::format("appenders ({} commits each; log scale)", r.config.commits);
  auto x = [](const SweepRow& w) { return static_cast<double>(w.writers); };
  for (Protocol p : r.config.protocols) {
    const std::string name(ProtocolName(p));
    // S2 第 5 讲's race is 2 writers on Paimon with its default policy. (SVG text stays ASCII: a
    // viewer without CJK fonts draws boxes.)
    std::vector<ChartMarker> markers;
    if (p == sim::LectureProtocol()) markers.push_back({2, "the lecture's race: 2 writers, Paimon's default"});
    auto keep = [&name](const SweepRow& w) { return w.protocol == name; };
    auto key = [](const SweepRow& w) { return w.policy; };
    auto chart = [&](std::string file, std::string title, std::string y_label, bool log_y, const Figure& f) {
      LineChart c{.title = fmt::format("{} appends: {} ({})", name, title, settings),
                  .x_label = x_label,
                  .y_label = std::move(y_label),
                  .log_x = true,
                  .log_y = log_y,
                  .series = Series(r, keep, key, x, f),
                  .x_ticks = Ticks(r.config.writer_counts),
                  .markers = markers,
                  .notes = Notes(f)};
      charts->push_back({fmt::format("formats-{}-{}", name, file), RenderLineChartSvg(c)});
    };
    chart("commits-per-s.svg", "throughput", "landed commits per simulated second", false, kRate);
    chart("attempts-per-commit.svg", "publish attempts per landed commit", "attempts per commit (log scale)", true,
          {[](const SweepRow& w) { return w.attempts_per_commit; },
           [](const SweepRow& w) { return w.attempts_per_commit_spread; }});
    chart("p99-latency.svg", "p99 commit latency", "p99 commit latency, ms (log scale)", true, kP99);
    chart("gave-up.svg", "appenders that gave up", "% of appenders that gave up at their retry limit", false, kGaveUp);
  }
  if (r.config.protocols.size() < 2) return;
  // The protocols side by side, each under its own default policy and under full jitter.
  auto keep = [](const SweepRow& w) { return w.policy == "full-jitter" || w.policy == NativePolicy(w.protocol); };
  LineChart c{.title = fmt::format("The protocols compared: throughput ({})", settings),
              .x_label = x_label,
              .y_label = "landed commits per simulated second",
              .log_x = true,
              .series = Series(
                  r, keep, [](const SweepRow& w) { return fmt::format("{} / {}", w.protocol, w.policy); }, x, kRate),
              .x_ticks = Ticks(r.config.writer_counts),
              .markers = {{2, "the lecture's race: 2 writers"}},
              .notes = Notes(kRate)};
  charts->push_back({"formats-protocols-commits-per-s.svg", RenderLineChartSvg(c)});
}

}  // namespace

std::vector<SweepChart> SweepCharts(const SweepResult& r) {
  std::vector<SweepChart> charts;
  if (r.config.experiment == Experiment::kFormats) {
    Formats(r, &charts);
  } else {
    BrookerLike(r, &charts);
  }
  return charts;
}

}  // namespace commitlab::report
