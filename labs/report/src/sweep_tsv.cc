#include "commitlab/report/sweep_tsv.h"

#include <fmt/format.h>

namespace commitlab::report {

using sim::Experiment;

std::string SweepTsvHeader(Experiment e) {
  if (e == Experiment::kFormats)
    return "appenders\tcommits_per_appender\tprotocol\tcapacity_rps\tpolicy\truns\tcommits_per_s\tcommits_per_s_p10\t"
           "commits_per_s_p90\tattempts_per_commit\tattempts_per_commit_p10\tattempts_per_commit_p90\t"
           "p50_commit_latency_ms\tp99_commit_latency_ms\tp99_commit_latency_p10_ms\tp99_commit_latency_p90_ms\t"
           "mean_commits_ok\tmean_gave_up\tgave_up_total\tgave_up_pct\tmean_finish_ms\tmean_throttled";
  return "writers\tcapacity_rps\tpolicy\truns\tmean_calls\tmean_completion_ms\tmean_finish_ms\tp50_latency_ms\t"
         "p99_latency_ms\tmean_gave_up\tgave_up_total\tgave_up_pct\tcalls_p10\tcalls_p90\tcompletion_p10_ms\t"
         "completion_p90_ms\tcalls_per_success\tcalls_per_success_p10\tcalls_per_success_p90\tmean_latency_ms\t"
         "mean_latency_p10_ms\tmean_latency_p90_ms\tmean_throttled";
}

std::string SweepTsv(const sim::SweepResult& result) {
  std::string out = SweepTsvHeader(result.config.experiment) + "\n";
  for (const sim::SweepRow& r : result.rows) {
    if (result.config.experiment == Experiment::kFormats) {
      out += fmt::format(
          "{}\t{}\t{}\t{}\t{}\t{}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.4f}\t{:.4f}\t{:.4f}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\t"
          "{:.2f}\t{:.3f}\t{}\t{:.2f}\t{:.3f}\t{:.2f}\n",
          r.writers, result.config.commits, r.protocol, r.capacity_rps, r.policy, r.runs, r.commits_per_s,
          r.commits_per_s_spread.p10, r.commits_per_s_spread.p90, r.attempts_per_commit,
          r.attempts_per_commit_spread.p10, r.attempts_per_commit_spread.p90, r.p50_latency_ms, r.p99_latency_ms,
          r.p99_latency_ms_spread.p10, r.p99_latency_ms_spread.p90, r.mean_commits_ok, r.mean_gave_up, r.gave_up_total,
          r.gave_up_pct, r.mean_finish_ms, r.mean_throttled);
    } else {
      out += fmt::format(
          "{}\t{}\t{}\t{}\t{:.2f}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\t{}\t{:.2f}\t{:.0f}\t{:.0f}\t{:.3f}\t{:.3f}\t"
          "{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.3f}\t{:.2f}\n",
          r.writers, r.capacity_rps, r.policy, r.runs, r.mean_calls, r.mean_completion_ms, r.mean_finish_ms,
          r.p50_latency_ms, r.p99_latency_ms, r.mean_gave_up, r.gave_up_total, r.gave_up_pct, r.calls_spread.p10,
          r.calls_spread.p90, r.completion_ms_spread.p10, r.completion_ms_spread.p90, r.attempts_per_commit,
          r.attempts_per_commit_spread.p10, r.attempts_per_commit_spread.p90, r.mean_latency_ms,
          r.latency_ms_spread.p10, r.latency_ms_spread.p90, r.mean_throttled);
    }
  }
  return out;
}

}  // namespace commitlab::report
