#include "commitlab/report/sweep_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>

#include "commitlab/report/sweep_charts.h"

namespace commitlab::report {
namespace {

using sim::SweepResult;
using sim::SweepRow;

// Rows by (x, series): the view of one plot, x being N, appenders or capacity.
using Table = std::map<std::pair<int64_t, std::string>, const SweepRow*>;

Table Index(const SweepResult& r, const std::function<bool(const SweepRow&)>& keep = nullptr,
            const std::function<std::string(const SweepRow&)>& series = nullptr) {
  Table t;
  const bool capacity = r.config.experiment == sim::Experiment::kCapacity;
  for (const SweepRow& row : r.rows)
    if (!keep || keep(row)) t[{capacity ? row.capacity_rps : row.writers, series ? series(row) : row.policy}] = &row;
  return t;
}

const SweepRow* Find(const Table& t, int64_t x, const std::string& series) {
  auto it = t.find({x, series});
  return it == t.end() ? nullptr : it->second;
}

std::vector<std::string> Policies(const SweepResult& r) {
  std::vector<std::string> out;
  for (const RetryPolicy& p : r.config.policies) out.push_back(FormatRetryPolicy(p));
  return out;
}

constexpr std::string_view kDaggerNote =
    "A † marks a point where writers gave up at their retry limit: its figures count only the writers that "
    "stayed, so it is never ranked.\n\n";

// "Plots: [calls](brooker-calls.svg), ...": links to the files SweepCharts writes beside this one.
std::string PlotLinks(std::string_view prefix, std::initializer_list<std::string_view> names) {
  std::string out = "Plots:";
  bool first = true;
  for (std::string_view n : names) {
    out += fmt::format("{} [{}]({}-{}.svg)", first ? "" : ",", n, prefix, n);
    first = false;
  }
  return out + ".\n\n";
}

std::string Num(double v) { return v >= 100 ? fmt::format("{:.0f}", v) : fmt::format("{:.1f}", v); }

// A table with a row per x and a column per series; a cell where writers gave up carries a †.
template <typename X>
std::string WideTable(std::string_view title, std::string_view x_name, const std::vector<X>& xs,
                      const std::vector<std::string>& columns, const Table& t,
                      const std::function<std::string(const SweepRow&)>& cell,
                      const std::function<std::string(X)>& x_text = nullptr) {
  std::string out = fmt::format("#### {}\n\n| {} |", title, x_name);
  for (const std::string& c : columns) out += fmt::format(" {} |", c);
  out += "\n|---:|";
  for (size_t i = 0; i < columns.size(); ++i) out += "---:|";
  out += "\n";
  for (const X x : xs) {
    out += fmt::format("| {} |", x_text ? x_text(x) : fmt::format("{}", x));
    for (const std::string& c : columns) {
      const SweepRow* row = Find(t, static_cast<int64_t>(x), c);
      out += row == nullptr ? " - |" : fmt::format(" {}{} |", cell(*row), row->gave_up_total > 0 ? " †" : "");
    }
    out += "\n";
  }
  return out + "\n";
}

// Over the N values where every named policy ran: how often `holds(n)` is true, as a verdict.
template <typename F>
std::string Verdict(const std::vector<int>& ns, F holds) {
  int yes = 0;
  for (int n : ns) yes += holds(n) ? 1 : 0;
  if (yes == static_cast<int>(ns.size())) return fmt::format("**agrees** (at all {} N)", ns.size());
  if (yes == 0) return fmt::format("**does not agree** (at none of {} N)", ns.size());
  return fmt::format("**partly agrees** ({} of {} N)", yes, ns.size());
}

// The rows at x of `series` with which no writer gave up, with their series names, in series
// order; the others go to *quitters as "name (p%)". Giving up is cheap and early: never a fair
// winner.
std::vector<std::pair<const SweepRow*, std::string>> Rankable(const Table& t, int64_t x,
                                                              const std::vector<std::string>& series,
                                                              std::string* quitters) {
  std::vector<std::pair<const SweepRow*, std::string>> out;
  for (const std::string& p : series) {
    const SweepRow* row = Find(t, x, p);
    if (row == nullptr) continue;  // a cell the sweep did not run
    if (row->gave_up_total > 0) {
      *quitters += fmt::format("{}{} ({:.1f}%)", quitters->empty() ? "" : ", ", p, row->gave_up_pct);
    } else {
      out.emplace_back(row, p);
    }
  }
  return out;
}

// "Who wins at each N": least work and first to finish, among the policies with which no writer
// gave up.
std::string BrookerWinners(const Table& t, const std::vector<int>& ns_all, const std::vector<std::string>& policies) {
  std::string out =
      "#### Who wins at each N\n\nRanked among the policies with which no writer gave up.\n\n"
      "| N | least work | finished first | not ranked: writers gave up |\n|---:|---|---|---|\n";
  for (int n : ns_all) {
    const SweepRow* least = nullptr;
    const SweepRow* first = nullptr;
    std::string quitters;
    for (const auto& candidate : Rankable(t, n, policies, &quitters)) {
      const SweepRow* row = candidate.first;
      if (least == nullptr || row->mean_calls < least->mean_calls) least = row;
      if (first == nullptr || row->mean_completion_ms < first->mean_completion_ms) first = row;
    }
    out += fmt::format("| {} | {} | {} | {} |\n", n,
                       least ? fmt::format("**{}** ({} calls)", least->policy, Num(least->mean_calls)) : "-",
                       first ? fmt::format("**{}** ({:.2f} s)", first->policy, first->mean_completion_ms / 1000) : "-",
                       quitters.empty() ? "none" : quitters);
  }
  return out + "\n";
}

// Least-squares slope of log(calls) on log(N) over the upper half of N, where the linear term of
// calls ~ a N^2 + b N weighs least: 2 means quadratic work. Empty when two N do not fit a line.
std::string QuadraticWorkLine(const Table& t, const std::vector<int>& ns) {
  auto calls = [&](int n) { return t.at({n, "none"})->mean_calls; };
  std::vector<int> upper;
  for (int n : ns)
    if (2 * n >= ns.back()) upper.push_back(n);
  if (upper.size() < 2) upper = ns;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int n : upper) {
    const double x = std::log(n), y = std::log(calls(n));
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double k = static_cast<double>(upper.size());
  if (upper.size() < 2 || !(k * sxx - sx * sx > 0)) return "";
  const double slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
  const double n_max = ns.back();
  return fmt::format(
      "- No backoff's work grows as N^2 (here: calls grow as N^{:.2f} for N from {} to {}, a least-squares fit; "
      "{} calls at N = {}, {:.2f} x N^2/4): {}.\n",
      slope, upper.front(), upper.back(), Num(calls(ns.back())), ns.back(), calls(ns.back()) / (n_max * n_max / 4),
      slope >= 1.7 && slope <= 2.3 ? "**agrees**" : "**does not agree**");
}

// "Against Brooker's expected shape": his claims checked at each N where the sweep ran his five
// policies with the default base and cap.
void BrookerShape(const Table& t, const std::vector<int>& writer_counts, std::string* out) {
  const std::vector<std::string> five = {"none", "exponential", "equal-jitter", "full-jitter", "decorrelated"};
  std::vector<int> ns;
  for (int n : writer_counts) {
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
  auto at = [&](int n, const std::string& p) { return *t.at({n, p}); };  // every n of ns has all five
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
  *out += QuadraticWorkLine(t, ns);
  *out += "\n";
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

  *out += PlotLinks("brooker", {"calls", "completion", "gave-up", "calls-per-success", "latency-per-success"});
  *out += kDaggerNote;
  const std::vector<int>& ns_all = r.config.writer_counts;
  *out += WideTable<int>("Mean calls (publish attempts) per run", "N", ns_all, policies, t,
                         [](const SweepRow& w) { return Num(w.mean_calls); });
  *out += WideTable<int>("Mean completion of the last successful writer (s)", "N", ns_all, policies, t,
                         [](const SweepRow& w) { return fmt::format("{:.2f}", w.mean_completion_ms / 1000); });
  *out += WideTable<int>("Writers that gave up (% of all writers)", "N", ns_all, policies, t,
                         [](const SweepRow& w) { return fmt::format("{:.1f}", w.gave_up_pct); });
  *out += WideTable<int>("Calls per successful writer (every call of the run / writers that succeeded)", "N", ns_all,
                         policies, t, [](const SweepRow& w) { return Num(w.attempts_per_commit); });
  *out += WideTable<int>("Mean time to success of a successful writer (ms)", "N", ns_all, policies, t,
                         [](const SweepRow& w) { return Num(w.mean_latency_ms); });
  *out += BrookerWinners(t, ns_all, policies);
  // Brooker's claims need his five policies with the default base and cap.
  BrookerShape(t, r.config.writer_counts, out);
}

// Highest throughput, fewest attempts and lowest p99 at each x, among the series with no give-ups.
template <typename X>
std::string FormatsWinners(const std::vector<X>& xs, const std::vector<std::string>& series, const Table& t) {
  std::string out =
      "| appenders | highest throughput | fewest attempts per commit | lowest p99 latency | not ranked: gave up |\n"
      "|---:|---|---|---|---|\n";
  for (const X x : xs) {
    // The best row so far of each kind, with its series name.
    std::pair<const SweepRow*, std::string> fastest, leanest, quickest;
    std::string quitters;
    for (const auto& candidate : Rankable(t, x, series, &quitters)) {
      const SweepRow* row = candidate.first;
      if (!fastest.first || row->commits_per_s > fastest.first->commits_per_s) fastest = candidate;
      if (!leanest.first || row->attempts_per_commit < leanest.first->attempts_per_commit) leanest = candidate;
      if (!quickest.first || row->p99_latency_ms < quickest.first->p99_latency_ms) quickest = candidate;
    }
    if (fastest.first == nullptr) {
      out += fmt::format("| {} | - | - | - | {} |\n", x, quitters);
      continue;
    }
    out += fmt::format("| {} | **{}** ({:.1f}/s) | **{}** ({:.2f}) | **{}** ({} ms) | {} |\n", x, fastest.second,
                       fastest.first->commits_per_s, leanest.second, leanest.first->attempts_per_commit,
                       quickest.second, Num(quickest.first->p99_latency_ms), quitters.empty() ? "none" : quitters);
  }
  return out + "\n";
}

// Whether series `a` ("iceberg / none") lands more commits per second than series `b`, at each
// appender count where both ran and neither gave up; `both` holds rows by protocol / policy.
std::string ThroughputClaim(const Table& both, const std::vector<int>& ws, const std::string& a, const std::string& b) {
  int holds = 0, compared = 0, skipped = 0;
  double lo = 1e300, hi = 0;
  for (const int w : ws) {
    const SweepRow* x = Find(both, w, a);
    const SweepRow* y = Find(both, w, b);
    if (x == nullptr || y == nullptr) continue;
    if (x->gave_up_total > 0 || y->gave_up_total > 0 || y->commits_per_s <= 0) {
      ++skipped;
      continue;
    }
    ++compared;
    holds += x->commits_per_s > y->commits_per_s ? 1 : 0;
    lo = std::min(lo, x->commits_per_s / y->commits_per_s), hi = std::max(hi, x->commits_per_s / y->commits_per_s);
  }
  if (compared == 0) return "**not checked** (no appender count where neither gave up)";
  std::string verdict = holds == compared ? fmt::format("**agrees** (at all {} appender counts", compared)
                        : holds == 0      ? fmt::format("**does not agree** (at none of {} appender counts", compared)
                                          : fmt::format("**partly agrees** ({} of {} appender counts", holds, compared);
  verdict += fmt::format("; {} lands {:.2f}x to {:.2f}x the commits/s of {}", a, lo, hi, b);
  if (skipped > 0) verdict += fmt::format("; {} not compared: writers gave up", skipped);
  return verdict + ")";
}

void FormatsSection(const SweepResult& r, std::string* out) {
  *out += fmt::format(
      "## Table-format sweep\n\n"
      "S2 第 5 讲's race scaled: W appenders x {} commits each (write a data file, then commit it); a writer "
      "stops at its first failed commit. Each table format commits through its own protocol: **Paimon** "
      "publishes snapshot-N+1 if absent (the committer with its defaults, idempotency scan on); **Iceberg** "
      "refreshes, rewrites the manifest list and metadata file and swaps the catalog pointer (an in-memory catalog); "
      "**Delta** writes the next `_delta_log/N.json` if absent and, when it loses, reads the winners, checks them "
      "for conflicts (blind appends have none) and tries the next version. Every protocol waits as the policy says "
      "between attempts (Delta's own is `none`: at once, without limit). Latency: the race's `{}`; store capacity "
      "{}. {} runs per point, seed {}. commits/s = landed commits per simulated second until the last writer "
      "stopped; attempts per commit = publish attempts per landed commit; latency per commit, from the commit call "
      "to success.\n\n",
      r.config.commits, sim::FormatLatencyModel(r.config.latency),
      sim::FormatCapacity({.requests_per_s = r.config.capacities.front(), .queue = r.config.queue}), r.config.runs,
      r.config.seed);
  *out += kDaggerNote;
  const std::vector<std::string> policies = Policies(r);
  const std::vector<int>& ws = r.config.writer_counts;

  // The lecture's operating point.
  for (const SweepRow& row : r.rows) {
    if (row.writers != 2 || row.protocol != "paimon" || row.policy != "paimon") continue;
    *out += fmt::format(
        "### The lecture's operating point\n\n2 appenders on Paimon with its default policy (S2 第 5 讲's race): "
        "{:.1f} commits/s (p10-p90 of runs {:.1f}-{:.1f}), {:.2f} attempts per commit, p99 latency {} ms, {:.1f}% "
        "gave up.\n\n",
        row.commits_per_s, row.commits_per_s_spread.p10, row.commits_per_s_spread.p90, row.attempts_per_commit,
        Num(row.p99_latency_ms), row.gave_up_pct);
  }

  if (r.config.protocols.size() > 1) {
    std::vector<std::string> columns;
    for (const char* policy_of : {"native", "full-jitter"}) {
      for (Protocol p : r.config.protocols) {
        const std::string name(ProtocolName(p));
        const std::string policy =
            policy_of == std::string_view("native") ? std::string(NativePolicy(name)) : policy_of;
        if (std::find(policies.begin(), policies.end(), policy) != policies.end())
          columns.push_back(name + " / " + policy);
      }
    }
    const Table both = Index(r, nullptr, [](const SweepRow& w) { return w.protocol + " / " + w.policy; });
    *out += "### The protocols compared\n\n" + PlotLinks("formats-protocols", {"commits-per-s"}) +
            "Each protocol under its own default policy, then all under full jitter.\n\n";
    *out += WideTable<int>("Landed commits per second", "appenders", ws, columns, both,
                           [](const SweepRow& w) { return fmt::format("{:.1f}", w.commits_per_s); });
    *out += WideTable<int>("Publish attempts per landed commit", "appenders", ws, columns, both,
                           [](const SweepRow& w) { return fmt::format("{:.2f}", w.attempts_per_commit); });
    *out += WideTable<int>("p99 commit latency (ms)", "appenders", ws, columns, both,
                           [](const SweepRow& w) { return Num(w.p99_latency_ms); });
    *out += FormatsWinners<int>(ws, columns, both);
    // The lecture compares Iceberg and Delta by name.
    auto swept = [&r](std::string_view name) {
      return std::any_of(r.config.protocols.begin(), r.config.protocols.end(),
                         [name](Protocol p) { return ProtocolName(p) == name; });
    };
    const bool iceberg_and_delta = swept("iceberg") && swept("delta");
    if (iceberg_and_delta) {
      *out += "#### Against 04 事务与并发控制\n\n";
      auto has = [&](const std::string& p) { return std::find(policies.begin(), policies.end(), p) != policies.end(); };
      if (has("iceberg") && has("none"))
        *out += "- Iceberg's appends reach a higher throughput than Delta's, each with its own retries: " +
                ThroughputClaim(both, ws, "iceberg / iceberg", "delta / none") + ".\n";
      for (const std::string& p : policies)
        *out += fmt::format("- ... and under the same policy ({}): ", p) +
                ThroughputClaim(both, ws, "iceberg / " + p, "delta / " + p) + ".\n";
      *out += "\n";
    }
  }

  for (Protocol p : r.config.protocols) {
    const std::string name(ProtocolName(p));
    const Table t = Index(r, [&name](const SweepRow& w) { return w.protocol == name; });
    *out += fmt::format("### {}\n\n", name) +
            PlotLinks("formats-" + name, {"commits-per-s", "attempts-per-commit", "p99-latency", "gave-up"});
    *out += WideTable<int>("Landed commits per second", "appenders", ws, policies, t,
                           [](const SweepRow& w) { return fmt::format("{:.1f}", w.commits_per_s); });
    *out += WideTable<int>("Publish attempts per landed commit", "appenders", ws, policies, t,
                           [](const SweepRow& w) { return fmt::format("{:.2f}", w.attempts_per_commit); });
    *out += WideTable<int>("p99 commit latency (ms)", "appenders", ws, policies, t,
                           [](const SweepRow& w) { return Num(w.p99_latency_ms); });
    *out += WideTable<int>("Appenders that gave up (%)", "appenders", ws, policies, t,
                           [](const SweepRow& w) { return fmt::format("{:.1f}", w.gave_up_pct); });
    *out += FormatsWinners<int>(ws, policies, t);
  }
}

void CapacitySection(const SweepResult& r, std::string* out) {
  const int n = r.config.writer_counts.empty() ? 0 : r.config.writer_counts.front();
  *out += fmt::format(
      "## A store that pushes back\n\n"
      "Brooker's experiment at N = {} against a store of limited capacity: one first-come-first-served server "
      "in front of every call (reads, manifest writes and publishes), serving R requests per second; a request "
      "that finds {} others waiting is refused with 503 SlowDown, and the client waits U(0, min(20 s, 500 ms x "
      "2^k)) and sends it again, as an AWS SDK does. Wasted calls now cost everyone time. Latency `{}`; {} runs "
      "per point, seed {}.\n\n",
      n, r.config.queue, sim::FormatLatencyModel(r.config.latency), r.config.runs, r.config.seed);
  *out += PlotLinks("capacity",
                    {"completion", "calls", "gave-up", "calls-per-success", "latency-per-success", "throttled"});
  *out += kDaggerNote;
  const Table t = Index(r);
  const std::vector<std::string> policies = Policies(r);
  const std::vector<int64_t>& cs = r.config.capacities;
  const std::function<std::string(int64_t)> cap = [](int64_t c) {
    return c > 0 ? fmt::format("{}", c) : std::string("unlimited");
  };
  *out += WideTable<int64_t>(
      "Mean completion of the last successful writer (s)", "requests/s", cs, policies, t,
      [](const SweepRow& w) { return fmt::format("{:.2f}", w.mean_completion_ms / 1000); }, cap);
  *out += WideTable<int64_t>(
      "Mean calls (publish attempts) per run", "requests/s", cs, policies, t,
      [](const SweepRow& w) { return Num(w.mean_calls); }, cap);
  *out += WideTable<int64_t>(
      "503 SlowDown answers per run", "requests/s", cs, policies, t,
      [](const SweepRow& w) { return Num(w.mean_throttled); }, cap);
  *out += WideTable<int64_t>(
      "Writers that gave up (%)", "requests/s", cs, policies, t,
      [](const SweepRow& w) { return fmt::format("{:.1f}", w.gave_up_pct); }, cap);

  *out +=
      "#### Who finishes first\n\nRanked among the policies with which no writer gave up.\n\n"
      "| requests/s | finished first | then | no backoff |\n|---:|---|---|---|\n";
  std::vector<std::string> none_wins, none_loses;
  for (const int64_t c : cs) {
    std::vector<const SweepRow*> ranked;
    for (const std::string& p : policies)
      if (const SweepRow* row = Find(t, c, p); row != nullptr && row->gave_up_total == 0) ranked.push_back(row);
    std::sort(ranked.begin(), ranked.end(),
              [](const SweepRow* a, const SweepRow* b) { return a->mean_completion_ms < b->mean_completion_ms; });
    if (ranked.empty()) continue;
    const SweepRow* none_row = Find(t, c, "none");
    std::string none_place = none_row == nullptr ? "not run" : "writers gave up";
    for (size_t i = 0; i < ranked.size(); ++i)
      if (ranked[i]->policy == "none") none_place = fmt::format("#{} of {}", i + 1, ranked.size());
    if (none_place == "#1 of " + std::to_string(ranked.size())) {
      none_wins.push_back(cap(c));
    } else if (none_row != nullptr) {
      none_loses.push_back(cap(c));
    }
    *out += fmt::format(
        "| {} | **{}** ({:.2f} s) | {} | {} |\n", cap(c), ranked[0]->policy, ranked[0]->mean_completion_ms / 1000,
        ranked.size() > 1 ? fmt::format("{} ({:.2f} s)", ranked[1]->policy, ranked[1]->mean_completion_ms / 1000) : "-",
        none_place);
  }
  *out += "\n";
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  if (!none_wins.empty() || !none_loses.empty()) {
    *out += fmt::format(
        "No backoff finishes first at: {}. It does not at: {}. Where it stops winning, its wasted calls queue "
        "in front of everyone's.\n\n",
        none_wins.empty() ? "no capacity" : join(none_wins), none_loses.empty() ? "no capacity" : join(none_loses));
  }
}

}  // namespace

std::string SweepSummaryMarkdown(const SweepResults& results) {
  std::string out =
      "# Retry-policy sweep\n\nWritten by `commitlab sweep`; the TSV files hold every point, the SVG files plot "
      "them (bands: p10-p90 of the runs; hollow points and dashed lines: writers gave up).\n\n";
  if (results.brooker != nullptr) BrookerSection(*results.brooker, &out);
  if (results.capacity != nullptr) CapacitySection(*results.capacity, &out);
  if (results.formats != nullptr) FormatsSection(*results.formats, &out);
  return out;
}

}  // namespace commitlab::report
