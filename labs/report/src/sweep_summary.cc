#include "commitlab/report/sweep_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace commitlab::report {
namespace {

using sim::SweepResult;
using sim::SweepRow;

// Rows by (N, policy spec).
using Table = std::map<std::pair<int, std::string>, const SweepRow*>;

Table Index(const SweepResult& r) {
  Table t;
  for (const SweepRow& row : r.rows) t[{row.writers, row.policy}] = &row;
  return t;
}

std::vector<std::string> Policies(const SweepResult& r) {
  std::vector<std::string> out;
  for (const RetryPolicy& p : r.config.policies) out.push_back(FormatRetryPolicy(p));
  return out;
}

// The N values to tabulate: those of `wanted` the sweep has, else its smallest, middle and largest.
std::vector<int> Pick(const std::vector<int>& have, const std::vector<int>& wanted) {
  std::vector<int> out;
  for (int n : wanted)
    if (std::find(have.begin(), have.end(), n) != have.end()) out.push_back(n);
  if (!out.empty() || have.empty()) return out;
  out = {have.front(), have[have.size() / 2], have.back()};
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string Num(double v) { return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.1f}", v); }

// Over the N values where every named policy ran: how often `holds(n)` is true, as a verdict.
template <typename F>
std::string Verdict(const std::vector<int>& ns, F holds) {
  int yes = 0;
  for (int n : ns) yes += holds(n) ? 1 : 0;
  if (yes == static_cast<int>(ns.size())) return fmt::format("**agrees** (at all {} N)", ns.size());
  if (yes == 0) return fmt::format("**does not agree** (at none of {} N)", ns.size());
  return fmt::format("**partly agrees** ({} of {} N)", yes, ns.size());
}

void BrookerSection(const SweepResult& r, std::string* out) {
  const Table t = Index(r);
  const std::vector<std::string> policies = Policies(r);
  *out += fmt::format(
      "## Brooker's experiment\n\n"
      "N writers start together and each commits one single-file APPEND through the real Committer, in virtual "
      "time; each commit is a read of the latest snapshot and a conditional publish of snapshot N+1, each a "
      "request and a response hop of |Normal(10 ms, 2 ms)| (latency `{}`; the manifest write costs nothing and "
      "the idempotency scan is off). Base 5 ms, cap 2 s; Paimon and Iceberg keep their own defaults and retry "
      "limits. {} runs per point, seed {}, random tie-breaking. Calls = publish attempts that reached the store; "
      "completion = when the last successful writer got its success; latency = per writer, start to success.\n\n",
      sim::FormatLatencyModel(r.config.latency), r.config.runs, r.config.seed);

  for (int n : Pick(r.config.writer_counts, {10, 50, 100, 190})) {
    *out += fmt::format(
        "### N = {}\n\n| policy | mean calls | mean completion (s) | p50 latency (ms) | p99 latency (ms) | "
        "gave up (per run) |\n|---|---:|---:|---:|---:|---:|\n",
        n);
    const SweepRow* least = nullptr;
    const SweepRow* first = nullptr;
    std::string quitters;
    for (const std::string& p : policies) {
      auto it = t.find({n, p});
      if (it == t.end()) continue;
      const SweepRow& row = *it->second;
      *out += fmt::format("| {} | {} | {:.2f} | {} | {} | {:.2f} |\n", p, Num(row.mean_calls),
                          row.mean_completion_ms / 1000, Num(row.p50_latency_ms), Num(row.p99_latency_ms),
                          row.mean_gave_up);
      if (row.gave_up_total > 0) {
        quitters +=
            fmt::format("{}{} ({:.1f} of {} writers per run)", quitters.empty() ? "" : ", ", p, row.mean_gave_up, n);
        continue;  // giving up is cheap and early: not a fair winner
      }
      if (least == nullptr || row.mean_calls < least->mean_calls) least = &row;
      if (first == nullptr || row.mean_completion_ms < first->mean_completion_ms) first = &row;
    }
    *out += "\n";
    if (least != nullptr) {
      *out += fmt::format("Least work: **{}** ({} calls). Finished first: **{}** ({:.2f} s). ", least->policy,
                          Num(least->mean_calls), first->policy, first->mean_completion_ms / 1000);
    }
    *out += quitters.empty()
                ? "No writer gave up.\n\n"
                : fmt::format("Not ranked, because writers gave up at their retry limit: {}.\n\n", quitters);
  }

  // Brooker's claims need his five policies with the default base and cap.
  const std::vector<std::string> five = {"none", "exponential", "equal-jitter", "full-jitter", "decorrelated"};
  std::vector<int> ns;
  for (int n : r.config.writer_counts) {
    bool all = true;
    for (const std::string& p : five) all = all && t.count({n, p}) > 0;
    if (all) ns.push_back(n);
  }
  *out += "### Against Brooker's expected shape\n\n";
  if (ns.empty()) {
    *out +=
        "Not checked: the sweep did not run all of none, exponential, equal-jitter, full-jitter and decorrelated "
        "with their default base and cap.\n\n";
    return;
  }
  auto at = [&](int n, const std::string& p) { return *t.at({n, p}); };
  auto calls = [&](int n, const std::string& p) { return at(n, p).mean_calls; };
  auto time = [&](int n, const std::string& p) { return at(n, p).mean_completion_ms; };
  auto min_jitter = [&](int n, auto f) {
    return std::min({f(n, "equal-jitter"), f(n, "full-jitter"), f(n, "decorrelated")});
  };
  auto max_jitter = [&](int n, auto f) {
    return std::max({f(n, "equal-jitter"), f(n, "full-jitter"), f(n, "decorrelated")});
  };
  double work_lo = 1e300, work_hi = 0, time_lo = 1e300, time_hi = 0;
  for (int n : ns) {
    const double w = calls(n, "exponential") / min_jitter(n, calls);
    const double s = time(n, "exponential") / max_jitter(n, time);
    work_lo = std::min(work_lo, w), work_hi = std::max(work_hi, w);
    time_lo = std::min(time_lo, s), time_hi = std::max(time_hi, s);
  }
  *out += fmt::format(
      "- No-jitter exponential does much more work than the jittered policies (here: {:.1f}x to {:.1f}x the calls "
      "of the cheapest jittered one): {}.\n",
      work_lo, work_hi, Verdict(ns, [&](int n) { return calls(n, "exponential") > 1.25 * min_jitter(n, calls); }));
  *out += fmt::format(
      "- ... and takes far longer (here: {:.1f}x to {:.1f}x the completion time of the slowest jittered one): {}.\n",
      time_lo, time_hi, Verdict(ns, [&](int n) { return time(n, "exponential") > 2 * max_jitter(n, time); }));
  *out += fmt::format("- Full jitter does about the least work (within 10% of the fewest calls of the five): {}.\n",
                      Verdict(ns, [&](int n) {
                        double best = 1e300;
                        for (const std::string& p : five) best = std::min(best, calls(n, p));
                        return calls(n, "full-jitter") <= 1.1 * best;
                      }));
  *out += fmt::format(
      "- Decorrelated jitter is about the fastest of the jittered policies (within 10% of the earliest "
      "completion): {}.\n",
      Verdict(ns, [&](int n) { return time(n, "decorrelated") <= 1.1 * min_jitter(n, time); }));
  *out += fmt::format("- No backoff finishes first of the five: {}.\n", Verdict(ns, [&](int n) {
                        for (const std::string& p : five)
                          if (time(n, p) < time(n, "none")) return false;
                        return true;
                      }));
  // Least-squares slope of log(calls) on log(N) over the upper half of N, where the linear term of
  // calls ~ a N^2 + b N weighs least: 2 means quadratic work.
  std::vector<int> upper;
  for (int n : ns)
    if (2 * n >= ns.back()) upper.push_back(n);
  if (upper.size() < 2) upper = ns;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int n : upper) {
    const double x = std::log(n), y = std::log(calls(n, "none"));
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double k = static_cast<double>(upper.size());
  if (upper.size() >= 2 && k * sxx - sx * sx > 0) {
    const double slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
    const double n_max = ns.back();
    *out += fmt::format(
        "- No backoff's work grows as N^2 (here: calls grow as N^{:.2f} for N from {} to {}, a least-squares fit; "
        "{} calls at N = {}, {:.2f} x N^2/4): {}.\n",
        slope, upper.front(), upper.back(), Num(calls(ns.back(), "none")), ns.back(),
        calls(ns.back(), "none") / (n_max * n_max / 4),
        slope >= 1.7 && slope <= 2.3 ? "**agrees**" : "**does not agree**");
  }
  *out += "\n";
}

void FormatsSection(const SweepResult& r, std::string* out) {
  const Table t = Index(r);
  *out += fmt::format(
      "## Table-format sweep\n\n"
      "S2 第 5 讲's race scaled: W appenders x {} commits each (write a data file, then commit it) through the "
      "Paimon committer with its defaults (idempotency scan on); a writer stops at its first failed commit. "
      "Latency: the race's latency `{}`. {} runs per point, seed {}. commits/s = landed commits per "
      "simulated second until the last writer stopped; attempts per commit = publish attempts per landed commit; "
      "latency per commit, from Commit() to success.\n\n",
      r.config.commits, sim::FormatLatencyModel(r.config.latency), r.config.runs, r.config.seed);
  for (int w : Pick(r.config.writer_counts, {2, 8, 64})) {
    *out += fmt::format(
        "### {} appenders\n\n| policy | commits/s | attempts per commit | p99 latency (ms) | gave up "
        "(per run) |\n|---|---:|---:|---:|---:|\n",
        w);
    const SweepRow* fastest = nullptr;
    const SweepRow* leanest = nullptr;
    for (const std::string& p : Policies(r)) {
      auto it = t.find({w, p});
      if (it == t.end()) continue;
      const SweepRow& row = *it->second;
      *out += fmt::format("| {} | {:.1f} | {:.2f} | {} | {:.2f} |\n", p, row.commits_per_s, row.attempts_per_commit,
                          Num(row.p99_latency_ms), row.mean_gave_up);
      if (row.gave_up_total > 0) continue;
      if (fastest == nullptr || row.commits_per_s > fastest->commits_per_s) fastest = &row;
      if (leanest == nullptr || row.attempts_per_commit < leanest->attempts_per_commit) leanest = &row;
    }
    *out += fastest == nullptr
                ? "\n"
                : fmt::format(
                      "\nAmong policies with no writer giving up: highest throughput **{}** ({:.1f} "
                      "commits/s), fewest attempts per commit **{}** ({:.2f}).\n\n",
                      fastest->policy, fastest->commits_per_s, leanest->policy, leanest->attempts_per_commit);
  }
}

}  // namespace

std::string SweepSummaryMarkdown(const SweepResult* brooker, const SweepResult* formats) {
  std::string out =
      "# Retry-policy sweep\n\nWritten by `commitlab sweep`; the TSV files hold every point, the SVG files plot "
      "them.\n\n";
  if (brooker != nullptr) BrookerSection(*brooker, &out);
  if (formats != nullptr) FormatsSection(*formats, &out);
  return out;
}

}  // namespace commitlab::report
