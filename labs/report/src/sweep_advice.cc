#include "commitlab/report/sweep_advice.h"

#include <fmt/format.h>

#include <algorithm>

namespace commitlab::report {
namespace {

std::string Ms(double v) { return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.1f}", v); }

}  // namespace

std::string AdviceMarkdown(const sim::SweepResult& r, const sim::Advice& advice, int top) {
  const int writers = r.config.writer_counts.empty() ? 0 : r.config.writer_counts.front();
  const std::string protocol(
      ProtocolName(r.config.protocols.empty() ? sim::LectureProtocol() : r.config.protocols.front()));
  const sim::StoreCapacity capacity{.requests_per_s = r.config.capacities.empty() ? 0 : r.config.capacities.front(),
                                    .queue = r.config.queue};
  std::string out = fmt::format(
      "# Retry policy advice\n\n{} writers appending on {} ({} commits each, latency `{}`), store capacity {}: {} "
      "policies x {} runs, seed {}.\n\n",
      writers, protocol, r.config.commits, sim::FormatLatencyModel(r.config.latency), sim::FormatCapacity(capacity),
      r.config.policies.size(), r.config.runs, r.config.seed);
  if (advice.ranked.empty()) {
    out += "No policy kept every writer: each gave up somewhere in the runs.";
    if (!advice.gave_up.empty())
      out += fmt::format(" The fewest give-ups: **{}** ({:.1f}% of writers).", advice.gave_up.front()->policy,
                         advice.gave_up.front()->gave_up_pct);
    return out + " Allow more retries, or fewer writers.\n";
  }
  out +=
      "| rank | policy | p99 commit latency (ms) | p10-p90 of per-run p99 | p50 (ms) | commits/s | attempts per "
      "commit |\n|---:|---|---:|---:|---:|---:|---:|\n";
  const size_t shown = std::min(advice.ranked.size(), static_cast<size_t>(std::max(top, 1)));
  for (size_t i = 0; i < shown; ++i) {
    const sim::SweepRow& w = *advice.ranked[i];
    out += fmt::format("| {} | {} | {} | {}-{} | {} | {:.1f} | {:.2f} |\n", i + 1, w.policy, Ms(w.p99_latency_ms),
                       Ms(w.p99_latency_ms_spread.p10), Ms(w.p99_latency_ms_spread.p90), Ms(w.p50_latency_ms),
                       w.commits_per_s, w.attempts_per_commit);
  }
  const sim::SweepRow& best = *advice.ranked.front();
  out += fmt::format(
      "\nAdvice: **{}**. Of the {} policies with which no writer gave up in {} runs, it has the lowest p99 commit "
      "latency, {} ms (per run, p10-p90 {}-{} ms), with {:.2f} attempts per commit and {:.1f} commits/s.",
      best.policy, advice.ranked.size(), r.config.runs, Ms(best.p99_latency_ms), Ms(best.p99_latency_ms_spread.p10),
      Ms(best.p99_latency_ms_spread.p90), best.attempts_per_commit, best.commits_per_s);
  if (advice.ranked.size() > 1) {
    const sim::SweepRow& next = *advice.ranked[1];
    const double margin =
        best.p99_latency_ms > 0 ? 100 * (next.p99_latency_ms - best.p99_latency_ms) / best.p99_latency_ms : 0;
    out += fmt::format(" The next, {}, is {:.0f}% slower at p99 ({} ms)", next.policy, margin, Ms(next.p99_latency_ms));
    out += best.p99_latency_ms_spread.p90 >= next.p99_latency_ms_spread.p10
               ? ": their per-run ranges overlap, so either will do."
               : ", and their per-run ranges do not overlap.";
  }
  for (const auto& list : {advice.ranked, advice.gave_up}) {
    for (const sim::SweepRow* w : list) {
      if (w->policy != "paimon" || w == &best) continue;
      out += w->gave_up_total > 0 ? fmt::format(" Paimon's default gave up here ({:.1f}% of writers).", w->gave_up_pct)
                                  : fmt::format(" Paimon's default: p99 {} ms.", Ms(w->p99_latency_ms));
    }
  }
  out += "\n";
  if (!advice.gave_up.empty()) {
    out += fmt::format("\nNot ranked, because writers gave up at their retry limit ({} policies): ",
                       advice.gave_up.size());
    for (size_t i = 0; i < advice.gave_up.size(); ++i)
      out +=
          fmt::format("{}{} ({:.1f}%)", i == 0 ? "" : ", ", advice.gave_up[i]->policy, advice.gave_up[i]->gave_up_pct);
    out += ".\n";
  }
  return out;
}

}  // namespace commitlab::report
