#include "seed_range.h"

// clang-format off
#include <utility>  // first: Boost 1.74's Asio uses std::exchange without including it (g++ 12)
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
// clang-format on
#include <fmt/format.h>

#include <algorithm>
#include <latch>
#include <map>
#include <set>
#include <thread>

#include "cli.h"
#include "commitlab/scenarios/report_json.h"
#include "report_output.h"
#include "text_histogram.h"

namespace commitlab::cli {
namespace {

std::string Quote(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,") ==
                          std::string::npos)
    return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// What a seed's run left, kept for the summary (the report itself is dropped unless --json).
struct SeedResult {
  Status error;  // the run could not start: an input error
  scenarios::Counters tally = {};
  int64_t latest = 0;
  int64_t virtual_ms = 0;
  bool ok = true;
  bool matched = false;
  std::string failed = {};  // FailureSummary
  std::vector<scenarios::RunFailure> failures = {};
  sim::Json json = {};
};

// How many seeds showed one kind of failure, and the first of them.
struct KindCount {
  int64_t seeds = 0;
  uint64_t first = 0;
  std::string detail = {};
};

}  // namespace

int RunSeedRange(const scenarios::Scenario& scenario, scenarios::RunOptions options, const SeedRange& seeds,
                 const SeedRangeRun& how) {
  NullEventSink quiet;
  options.events = &quiet;
  options.history = nullptr;
  options.observer = nullptr;
  const int threads = how.threads > 0 ? how.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Small chunks keep --find from running far past its seed; each is printed when it is done.
  const uint64_t chunk = static_cast<uint64_t>(threads) * 8;

  std::string command_prefix = "commitlab " + std::string(how.command);
  for (const std::string& a : how.reproduce) command_prefix += " " + Quote(a);
  sim::Json report = ReportEnvelope(how.command, how.settings);
  sim::Json failing = sim::Json::array();
  std::vector<int64_t> lost, attempts, times;
  std::map<std::string, KindCount> kinds;
  std::vector<std::string> kind_order;  // by first seed
  int failed = 0;
  std::optional<uint64_t> found;

  boost::asio::thread_pool pool(static_cast<size_t>(threads));
  for (uint64_t from = seeds.first;; from += chunk) {
    const uint64_t to = std::min(seeds.last, from + chunk - 1);
    std::vector<scenarios::RunOptions> runs;
    for (uint64_t seed = from;; ++seed) {
      scenarios::RunOptions o = options;
      o.seed = seed;
      if (how.prepare) {
        if (Status st = how.prepare(&o); !st.ok()) {
          pool.join();
          return UsageError(how.command, st.message());
        }
      }
      runs.push_back(std::move(o));
      if (seed == to) break;
    }
    std::vector<SeedResult> results(runs.size());
    std::latch done(static_cast<std::ptrdiff_t>(runs.size()));
    for (size_t i = 0; i < runs.size(); ++i) {
      boost::asio::post(pool, [&, i] {
        SeedResult& out = results[i];
        Result<scenarios::RunReport> r = scenarios::RunScenario(scenario, runs[i]);
        if (!r.ok()) {
          out.error = r.status();
        } else {
          out.tally = r->tally;
          out.latest = r->latest_snapshot();
          out.virtual_ms = r->virtual_micros / 1000;
          out.ok = r->ok();
          out.failed = scenarios::FailureSummary(*r);
          out.failures = scenarios::RunFailures(*r);
          out.matched = how.find && Matches(*how.find, *r);
          if (how.json) out.json = scenarios::RunJson(*r);
        }
        done.count_down();
      });
    }
    done.wait();

    for (size_t i = 0; i < results.size() && !found; ++i) {
      SeedResult& r = results[i];
      const uint64_t seed = from + i;
      if (!r.error.ok()) {
        pool.join();
        return UsageError(how.command, r.error.message());
      }
      lost.push_back(r.tally.atomic_failures);
      attempts.push_back(r.tally.attempts);
      times.push_back(r.virtual_ms);
      const std::string reproduce = fmt::format("{} --seed {}", command_prefix, seed);
      if (!r.ok) {
        ++failed;
        failing.push_back({{"seed", seed}, {"failed", r.failed}, {"reproduce", reproduce}});
        std::set<std::string> seen;  // a kind counts once a seed
        for (const scenarios::RunFailure& f : r.failures) {
          if (!seen.insert(f.kind).second) continue;
          KindCount& k = kinds[f.kind];
          if (k.seeds++ > 0) continue;
          k.first = seed;
          k.detail = f.detail;
          kind_order.push_back(f.kind);
        }
      }
      if (how.json) {
        report["runs"].push_back(std::move(r.json));
      } else {
        fmt::print("seed {:>6}: atomic commit failures {:>4}, latest snapshot {}, {}\n", seed, r.tally.atomic_failures,
                   r.latest, r.ok ? "ok" : "FAILED: " + r.failed);
      }
      if (r.matched) found = seed;
    }
    if (found || to == seeds.last) break;
  }
  pool.join();

  std::vector<int64_t> sorted = lost;
  std::sort(sorted.begin(), sorted.end());
  const int64_t median = sorted[sorted.size() / 2];
  auto histogram_json = [](const std::vector<int64_t>& values) {
    sim::Json bins = sim::Json::array();
    for (const HistogramBin& b : Bins(values)) bins.push_back({{"from", b.from}, {"to", b.to}, {"runs", b.count}});
    return bins;
  };
  if (how.json) {
    sim::Json by_kind = sim::Json::array();
    for (const std::string& k : kind_order)
      by_kind.push_back({{"kind", k}, {"seeds", kinds[k].seeds}, {"first_seed", kinds[k].first},
                         {"detail", kinds[k].detail},
                         {"reproduce", fmt::format("{} --seed {}", command_prefix, kinds[k].first)}});
    report["summary"] = {{"seeds", {{"first", seeds.first}, {"last", seeds.last}}},
                         {"runs", lost.size()},
                         {"atomic_failures", {{"min", sorted.front()}, {"median", median}, {"max", sorted.back()}}},
                         {"histograms", {{"atomic_failures", histogram_json(lost)},
                                         {"attempts", histogram_json(attempts)},
                                         {"virtual_ms", histogram_json(times)}}},
                         {"failed_runs", failed},
                         {"failing_seeds", failing},
                         {"failure_kinds", std::move(by_kind)}};
    if (how.find) report["summary"]["found"] = found ? sim::Json(*found) : sim::Json(nullptr);
    report["ok"] = how.find ? found.has_value() : failed == 0;
    PrintJsonLine(report);
  } else {
    fmt::print("\n{} runs: atomic commit failures min {} / median {} / max {}; runs that failed: {}\n", lost.size(),
               sorted.front(), median, sorted.back(), failed);
    struct Shown {
      const char* title;
      const std::vector<int64_t>* values;
      const char* unit;
    };
    for (const Shown& h : {Shown{"lost races (atomic commit failures) per run", &lost, ""},
                           Shown{"commit attempts per run", &attempts, ""},
                           Shown{"virtual time per run", &times, " ms"}}) {
      fmt::print("\n{}:\n", h.title);
      for (const std::string& line : HistogramLines(Bins(*h.values), h.unit)) fmt::print("{}\n", line);
    }
    if (!kind_order.empty()) {
      fmt::print("\nwhat failed, by kind:\n");
      for (const std::string& k : kind_order) {
        const KindCount& c = kinds[k];
        fmt::print("  {}: {} of {} seeds, first seed {}\n    {}\n    reproduce: {} --seed {}\n", k, c.seeds, lost.size(),
                   c.first, c.detail, command_prefix, c.first);
      }
    }
    if (how.find) {
      if (found) {
        fmt::print("\nfound: seed {} matches {}\n  reproduce: {} --seed {}\n", *found, how.find->text, command_prefix,
                   *found);
      } else {
        fmt::print("\nnot found: no seed of {}..{} matches {}\n", seeds.first, seeds.last, how.find->text);
      }
    }
  }
  if (how.find) return found ? kExitOk : kExitFailed;
  return failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
