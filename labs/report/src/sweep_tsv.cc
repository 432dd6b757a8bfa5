#include "commitlab/report/sweep_tsv.h"

#include <fmt/format.h>

namespace commitlab::report {

using sim::Experiment;

std::string SweepTsvHeader(Experiment e) {
  if (e == Experiment::kBrooker)
    return "writers\tpolicy\truns\tmean_calls\tmean_completion_ms\tmean_finish_ms\tp50_latency_ms\tp99_latency_ms\t"
           "mean_gave_up\tgave_up_total";
  return "appenders\tcommits_per_appender\tpolicy\truns\tcommits_per_s\tattempts_per_commit\tp50_commit_latency_ms\t"
         "p99_commit_latency_ms\tmean_commits_ok\tmean_gave_up\tgave_up_total\tmean_finish_ms";
}

std::string SweepTsv(const sim::SweepResult& result) {
  std::string out = SweepTsvHeader(result.config.experiment) + "\n";
  for (const sim::SweepRow& r : result.rows) {
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

}  // namespace commitlab::report
