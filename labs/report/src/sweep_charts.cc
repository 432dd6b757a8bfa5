#include "commitlab/report/sweep_charts.h"

#include <fmt/format.h>

#include <map>

#include "commitlab/report/line_chart.h"

namespace commitlab::report {
namespace {

using sim::Experiment;
using sim::SweepResult;
using sim::SweepRow;

// One line per policy, in the sweep's policy order, with x = writers and y = `value`.
template <typename F>
std::vector<ChartSeries> SeriesByPolicy(const SweepResult& r, F value) {
  std::vector<ChartSeries> series;
  std::map<std::string, size_t> index;
  for (const SweepRow& row : r.rows) {
    auto [it, added] = index.emplace(row.policy, series.size());
    if (added) series.push_back({row.policy, {}});
    series[it->second].points.emplace_back(row.writers, value(row));
  }
  return series;
}

std::string Settings(const SweepResult& r) {
  return fmt::format("seed {}, {} runs per point", r.config.seed, r.config.runs);
}

}  // namespace

std::vector<SweepChart> SweepCharts(const SweepResult& r) {
  std::vector<SweepChart> charts;
  const std::string settings = Settings(r);
  if (r.config.experiment == Experiment::kBrooker) {
    LineChart calls{.title = "Brooker's experiment: work (" + settings + ")",
                    .x_label = "writers N (each commits once)",
                    .y_label = "mean calls (publish attempts) per run",
                    .series = SeriesByPolicy(r, [](const SweepRow& row) { return row.mean_calls; })};
    LineChart time{.title = "Brooker's experiment: completion time (" + settings + ")",
                   .x_label = "writers N (each commits once)",
                   .y_label = "mean completion of the last writer, s (log scale)",
                   .log_y = true,
                   .series = SeriesByPolicy(r, [](const SweepRow& row) { return row.mean_completion_ms / 1000; })};
    charts.push_back({"brooker-calls.svg", RenderLineChartSvg(calls)});
    charts.push_back({"brooker-completion.svg", RenderLineChartSvg(time)});
    return charts;
  }
  const std::string x_label = fmt::format("appenders ({} commits each; log scale)", r.config.commits);
  LineChart rate{.title = "Table-format sweep: throughput (" + settings + ")",
                 .x_label = x_label,
                 .y_label = "landed commits per simulated second",
                 .log_x = true,
                 .series = SeriesByPolicy(r, [](const SweepRow& row) { return row.commits_per_s; })};
  LineChart attempts{.title = "Table-format sweep: publish attempts per landed commit (" + settings + ")",
                     .x_label = x_label,
                     .y_label = "attempts per commit (log scale)",
                     .log_x = true,
                     .log_y = true,
                     .series = SeriesByPolicy(r, [](const SweepRow& row) { return row.attempts_per_commit; })};
  LineChart p99{.title = "Table-format sweep: p99 commit latency (" + settings + ")",
                .x_label = x_label,
                .y_label = "p99 commit latency, ms (log scale)",
                .log_x = true,
                .log_y = true,
                .series = SeriesByPolicy(r, [](const SweepRow& row) { return row.p99_latency_ms; })};
  charts.push_back({"formats-commits-per-s.svg", RenderLineChartSvg(rate)});
  charts.push_back({"formats-attempts-per-commit.svg", RenderLineChartSvg(attempts)});
  charts.push_back({"formats-p99-latency.svg", RenderLineChartSvg(p99)});
  return charts;
}

}  // namespace commitlab::report
