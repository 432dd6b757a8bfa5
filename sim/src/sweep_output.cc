// TSV, plots and the files on disk. The markdown summary is in sweep_summary.cc.
#include "commitlab/sim/sweep_output.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "commitlab/sim/sweep_svg.h"

namespace commitlab::sim {
namespace {

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

Status WriteFile(const std::filesystem::path& path, const std::string& text, std::vector<std::string>* written) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  if (!f) return Status::IOError(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
  written->push_back(path.string());
  return Status::OK();
}

}  // namespace

std::string SweepTsvHeader(Experiment e) {
  if (e == Experiment::kBrooker)
    return "writers\tpolicy\truns\tmean_calls\tmean_completion_ms\tmean_finish_ms\tp50_latency_ms\tp99_latency_ms\t"
           "mean_gave_up\tgave_up_total";
  return "appenders\tcommits_per_appender\tpolicy\truns\tcommits_per_s\tattempts_per_commit\tp50_commit_latency_ms\t"
         "p99_commit_latency_ms\tmean_commits_ok\tmean_gave_up\tgave_up_total\tmean_finish_ms";
}

std::string SweepTsv(const SweepResult& result) {
  std::string out = SweepTsvHeader(result.config.experiment) + "\n";
  for (const SweepRow& r : result.rows) {
    if (result.config.experiment == Experiment::kBrooker) {
      out += fmt::format("{}\t{}\t{}\t{:.2f}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\t{}\n", r.writers, r.policy,
                         r.runs, r.mean_calls, r.mean_completion_ms, r.mean_finish_ms, r.p50_latency_ms,
                         r.p99_latency_ms, r.mean_gave_up, r.gave_up_total);
    } else {
      out +=
          fmt::format("{}\t{}\t{}\t{}\t{:.3f}\t{:.4f}\t{:.3f}\t{:.3f}\t{:.2f}\t{:.3f}\t{}\t{:.3f}\n", r.writers,
                      result.config.commits, r.policy, r.runs, r.commits_per_s, r.attempts_per_commit, r.p50_latency_ms,
                      r.p99_latency_ms, r.mean_commits_ok, r.mean_gave_up, r.gave_up_total, r.mean_finish_ms);
    }
  }
  return out;
}

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

Status WriteSweepOutputs(const std::string& dir, const SweepResult* brooker, const SweepResult* formats,
                         std::vector<std::string>* written) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError(fmt::format("cannot create {}: {}", dir, ec.message()));
  for (const SweepResult* r : {brooker, formats}) {
    if (r == nullptr) continue;
    const std::string name = std::string(ExperimentName(r->config.experiment));
    COMMITLAB_RETURN_IF_ERROR(WriteFile(fs::path(dir) / (name + ".tsv"), SweepTsv(*r), written));
    for (const SweepChart& c : SweepCharts(*r))
      COMMITLAB_RETURN_IF_ERROR(WriteFile(fs::path(dir) / c.file, c.svg, written));
  }
  return WriteFile(fs::path(dir) / "summary.md", SweepSummaryMarkdown(brooker, formats), written);
}

}  // namespace commitlab::sim
