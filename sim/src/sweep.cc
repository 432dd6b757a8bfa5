// Sweep configuration: policy and N lists, seeds, percentiles and per-cell aggregation.
#include "commitlab/sim/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <optional>

#include "commitlab/core/rng.h"

namespace commitlab::sim {
namespace {

std::vector<std::string_view> SplitCommas(std::string_view s) {
  std::vector<std::string_view> out;
  for (;;) {
    const size_t at = s.find(',');
    out.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return out;
    s.remove_prefix(at + 1);
  }
}

bool ParseInt(std::string_view s, int* out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

// FNV-1a: a stable label for a policy, so its runs' seeds do not depend on which other policies
// the sweep holds or in what order.
uint64_t Fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

double Millis(double micros) { return micros / 1000.0; }

// The 0-based index of the nearest-rank p-th percentile of n sorted values: rank ceil(p/100 * n),
// 1-based, clamped to [1, n]. REQUIRES: n > 0.
size_t NearestRankIndex(size_t n, double p) {
  // The small slack keeps p * n / 100 from rounding up past an exact rank (99 * 100 / 100).
  const auto rank = static_cast<int64_t>(std::ceil(p / 100.0 * static_cast<double>(n) - 1e-9));
  return static_cast<size_t>(std::clamp<int64_t>(rank, 1, static_cast<int64_t>(n)) - 1);
}

// Nearest-rank p10 and p90 of per-run figures.
Spread SpreadOf(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  return {.p10 = v[NearestRankIndex(v.size(), 10)], .p90 = v[NearestRankIndex(v.size(), 90)]};
}

}  // namespace

std::vector<RetryPolicy> DefaultSweepPolicies() {
  return {DefaultRetryPolicy(RetryKind::kNone),
          DefaultRetryPolicy(RetryKind::kExponential),
          DefaultRetryPolicy(RetryKind::kEqualJitter),
          DefaultRetryPolicy(RetryKind::kFullJitter),
          DefaultRetryPolicy(RetryKind::kDecorrelated),
          PaimonDefaultPolicy(),
          IcebergDefaultPolicy()};
}

Result<std::vector<RetryPolicy>> ParsePolicyList(std::string_view list) {
  // Join the pieces back into specs: "exponential:base=5ms" + "cap=2s" is one spec.
  std::vector<std::string> specs;
  for (std::string_view piece : SplitCommas(list)) {
    const bool continues = piece.find('=') != std::string_view::npos && piece.find(':') == std::string_view::npos;
    if (continues && !specs.empty()) {
      specs.back() += ',';
      specs.back() += piece;
    } else {
      specs.emplace_back(piece);
    }
  }
  std::vector<RetryPolicy> out;
  for (const std::string& spec : specs) {
    if (spec.empty()) return Status::InvalidArgument(fmt::format("policy list \"{}\": empty policy", list));
    COMMITLAB_ASSIGN_OR_RETURN(RetryPolicy p, ParseRetryPolicy(spec));
    if (std::find(out.begin(), out.end(), p) != out.end())
      return Status::InvalidArgument(fmt::format("policy list \"{}\": \"{}\" is given twice", list, spec));
    out.push_back(p);
  }
  return out;
}

Result<std::vector<int>> ParseIntList(std::string_view list, int min_value, int max_value) {
  auto error = [&](std::string_view piece, std::string_view why) {
    return Status::InvalidArgument(fmt::format("\"{}\": piece \"{}\": {}", list, piece, why));
  };
  std::vector<int> out;
  for (std::string_view piece : SplitCommas(list)) {
    int from = 0, to = 0, step = 1;
    const size_t dots = piece.find("..");
    if (dots == std::string_view::npos) {
      if (!ParseInt(piece, &from)) return error(piece, "expected an integer or FROM..TO[:STEP]");
      to = from;
    } else {
      std::string_view rest = piece.substr(dots + 2);
      const size_t colon = rest.find(':');
      if (!ParseInt(piece.substr(0, dots), &from) || !ParseInt(rest.substr(0, colon), &to) ||
          (colon != std::string_view::npos && !ParseInt(rest.substr(colon + 1), &step)))
        return error(piece, "expected FROM..TO[:STEP] with integers");
      if (step < 1) return error(piece, "the step must be at least 1");
      if (to < from) return error(piece, "FROM must not exceed TO");
    }
    if (from < min_value || to > max_value)
      return error(piece, fmt::format("out of range {}..{}", min_value, max_value));
    for (int64_t v = from; v <= to; v += step) {
      if (!out.empty() && v <= out.back()) return error(piece, "values must be ascending and unique");
      out.push_back(static_cast<int>(v));
    }
  }
  return out;
}

int64_t Percentile(std::span<const int64_t> sorted, double p) {
  return sorted.empty() ? 0 : sorted[NearestRankIndex(sorted.size(), p)];
}

std::string_view ExperimentName(Experiment e) {
  switch (e) {
    case Experiment::kBrooker: return "brooker";
    case Experiment::kFormats: return "formats";
    case Experiment::kCapacity: return "capacity";
  }
  return "?";
}

Result<std::vector<Protocol>> ParseProtocolList(std::string_view list) {
  std::vector<Protocol> out;
  for (std::string_view piece : SplitCommas(list)) {
    std::optional<Protocol> found;
    std::string names;
    for (Protocol p : kEngineProtocols) {
      if (piece == ProtocolName(p)) found = p;
      names += fmt::format("{}{}", names.empty() ? "" : ", ", ProtocolName(p));
    }
    if (!found)
      return Status::InvalidArgument(fmt::format("\"{}\": piece \"{}\" is not one of {}", list, piece, names));
    if (std::find(out.begin(), out.end(), *found) != out.end())
      return Status::InvalidArgument(fmt::format("\"{}\": \"{}\" is given twice", list, piece));
    out.push_back(*found);
  }
  return out;
}

std::string FormatCapacity(const StoreCapacity& c) {
  if (!c.limited()) return "unlimited";
  return fmt::format("{} req/s, queue {}", c.requests_per_s, c.queue);
}

SweepConfig DefaultSweepConfig(Experiment e) {
  SweepConfig c;
  c.experiment = e;
  c.policies = DefaultSweepPolicies();
  switch (e) {
    case Experiment::kBrooker:
      for (int n = 10; n <= 190; n += 10) c.writer_counts.push_back(n);
      c.latency = *ParseLatencyModel(kBrookerLatencySpec);
      break;
    case Experiment::kFormats:
      c.writer_counts = {2, 4, 8, 16, 32};
      c.protocols.assign(kEngineProtocols.begin(), kEngineProtocols.end());
      c.latency = *ParseLatencyModel(kLectureLatencySpec);
      break;
    case Experiment::kCapacity:
      c.writer_counts = {50};
      c.capacities.assign(kDefaultCapacities.begin(), kDefaultCapacities.end());
      c.latency = *ParseLatencyModel(kBrookerLatencySpec);
      break;
  }
  return c;
}

uint64_t RunSeed(uint64_t base, Experiment e, int writers, const RetryPolicy& policy, int run) {
  const uint64_t cell = DeriveSeed(base, static_cast<uint64_t>(e) + 1, static_cast<uint64_t>(writers));
  return DeriveSeed(cell, Fnv1a(FormatRetryPolicy(policy)), static_cast<uint64_t>(run));
}

SweepRow Aggregate(int writers, const RetryPolicy& policy, std::span<const RunOutcome> runs, Protocol protocol,
                   int64_t capacity_rps) {
  SweepRow row;
  row.writers = writers;
  row.capacity_rps = capacity_rps;
  row.protocol = std::string(ProtocolName(protocol));
  row.policy = FormatRetryPolicy(policy);
  row.runs = static_cast<int>(runs.size());
  if (runs.empty()) return row;
  double calls = 0, completion = 0, finish = 0, commits = 0, throttled = 0;
  int64_t latency_sum = 0;  // exact: microsecond totals stay far below 2^53
  std::vector<double> run_calls, run_completion, run_rate, run_attempts, run_p99, run_mean;
  std::vector<int64_t> run_latencies;
  size_t samples = 0;
  for (const RunOutcome& r : runs) samples += r.latencies_micros.size();
  std::vector<int64_t> latencies;
  latencies.reserve(samples);
  for (const RunOutcome& r : runs) {
    calls += static_cast<double>(r.calls);
    completion += static_cast<double>(r.completion_micros);
    finish += static_cast<double>(r.finish_micros);
    commits += static_cast<double>(r.commits_ok);
    throttled += static_cast<double>(r.throttled);
    row.gave_up_total += r.gave_up;
    latencies.insert(latencies.end(), r.latencies_micros.begin(), r.latencies_micros.end());
    const auto run_commits = static_cast<double>(r.commits_ok);
    run_calls.push_back(static_cast<double>(r.calls));
    run_completion.push_back(Millis(static_cast<double>(r.completion_micros)));
    run_rate.push_back(r.finish_micros > 0 ? run_commits / (static_cast<double>(r.finish_micros) / 1e6) : 0);
    run_attempts.push_back(r.commits_ok > 0 ? static_cast<double>(r.calls) / run_commits : 0);
    run_latencies.assign(r.latencies_micros.begin(), r.latencies_micros.end());
    std::sort(run_latencies.begin(), run_latencies.end());
    run_p99.push_back(Millis(static_cast<double>(Percentile(run_latencies, 99))));
    const int64_t run_sum = std::accumulate(run_latencies.begin(), run_latencies.end(), int64_t{0});
    latency_sum += run_sum;
    run_mean.push_back(
        run_latencies.empty() ? 0 : Millis(static_cast<double>(run_sum) / static_cast<double>(run_latencies.size())));
  }
  std::sort(latencies.begin(), latencies.end());
  const double n = static_cast<double>(runs.size());
  row.mean_calls = calls / n;
  row.mean_completion_ms = Millis(completion / n);
  row.mean_finish_ms = Millis(finish / n);
  row.p50_latency_ms = Millis(static_cast<double>(Percentile(latencies, 50)));
  row.p99_latency_ms = Millis(static_cast<double>(Percentile(latencies, 99)));
  row.mean_commits_ok = commits / n;
  row.mean_gave_up = static_cast<double>(row.gave_up_total) / n;
  row.commits_per_s = finish > 0 ? commits / (finish / 1e6) : 0;
  row.attempts_per_commit = commits > 0 ? calls / commits : 0;
  row.gave_up_pct = writers > 0 ? 100.0 * static_cast<double>(row.gave_up_total) / (n * writers) : 0;
  row.mean_latency_ms = samples > 0 ? Millis(static_cast<double>(latency_sum) / static_cast<double>(samples)) : 0;
  row.mean_throttled = throttled / n;
  row.calls_spread = SpreadOf(std::move(run_calls));
  row.completion_ms_spread = SpreadOf(std::move(run_completion));
  row.commits_per_s_spread = SpreadOf(std::move(run_rate));
  row.attempts_per_commit_spread = SpreadOf(std::move(run_attempts));
  row.p99_latency_ms_spread = SpreadOf(std::move(run_p99));
  row.latency_ms_spread = SpreadOf(std::move(run_mean));
  return row;
}

}  // namespace commitlab::sim
