#include "hunt/sweep_json.h"

#include <string>
#include <vector>

#include "commitlab/core/retry_policy.h"

namespace commitlab::cli {
namespace {

sim::Json SpreadJson(const sim::Spread& s) { return {{"p10", s.p10}, {"p90", s.p90}}; }

sim::Json RowJson(const sim::SweepRow& r, int64_t cell) {
  return {{"cell", cell},
          {"writers", r.writers},
          {"capacity_rps", r.capacity_rps},
          {"protocol", r.protocol},
          {"policy", r.policy},
          {"runs", r.runs},
          {"mean_calls", r.mean_calls},
          {"mean_completion_ms", r.mean_completion_ms},
          {"mean_finish_ms", r.mean_finish_ms},
          {"p50_latency_ms", r.p50_latency_ms},
          {"p99_latency_ms", r.p99_latency_ms},
          {"mean_commits_ok", r.mean_commits_ok},
          {"mean_gave_up", r.mean_gave_up},
          {"gave_up_total", r.gave_up_total},
          {"commits_per_s", r.commits_per_s},
          {"attempts_per_commit", r.attempts_per_commit},
          {"gave_up_pct", r.gave_up_pct},
          {"mean_latency_ms", r.mean_latency_ms},
          {"mean_throttled", r.mean_throttled},
          {"calls_spread", SpreadJson(r.calls_spread)},
          {"completion_ms_spread", SpreadJson(r.completion_ms_spread)},
          {"commits_per_s_spread", SpreadJson(r.commits_per_s_spread)},
          {"attempts_per_commit_spread", SpreadJson(r.attempts_per_commit_spread)},
          {"p99_latency_ms_spread", SpreadJson(r.p99_latency_ms_spread)},
          {"latency_ms_spread", SpreadJson(r.latency_ms_spread)}};
}

}  // namespace

sim::Json SweepConfigJson(const sim::SweepConfig& c) {
  std::vector<std::string> policies, protocols;
  for (const RetryPolicy& p : c.policies) policies.push_back(FormatRetryPolicy(p));
  for (Protocol p : c.protocols) protocols.emplace_back(ProtocolName(p));
  return {{"experiment", sim::ExperimentName(c.experiment)},
          {"writer_counts", c.writer_counts},
          {"capacities", c.capacities},
          {"queue", c.queue},
          {"protocols", protocols},
          {"policies", policies},
          {"runs", c.runs},
          {"commits", c.commits},
          {"seed", c.seed},
          {"latency", sim::FormatLatencyModel(c.latency)}};
}

sim::Json SweepResultJson(const sim::SweepResult& r) {
  sim::Json rows = sim::Json::array();
  for (size_t i = 0; i < r.rows.size(); ++i) rows.push_back(RowJson(r.rows[i], r.cells[i]));
  return {{"experiment", sim::ExperimentName(r.config.experiment)}, {"cells", r.all_cells}, {"rows", std::move(rows)}};
}

}  // namespace commitlab::cli
