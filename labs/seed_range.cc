#include "seed_range.h"

#include <fmt/format.h>

#include <algorithm>

#include "cli.h"
#include "commitlab/scenarios/report_json.h"
#include "report_output.h"

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

}  // namespace

int RunSeedRange(const scenarios::Scenario& scenario, scenarios::RunOptions options, const SeedRange& seeds,
                 const SeedRangeRun& how) {
  NullEventSink quiet;
  options.events = &quiet;
  options.history = nullptr;
  options.observer = nullptr;
  std::vector<int64_t> failures;
  sim::Json report = ReportEnvelope(how.command, how.settings);
  sim::Json failing = sim::Json::array();
  int failed = 0;
  for (uint64_t seed = seeds.first;; ++seed) {
    options.seed = seed;
    if (how.prepare) {
      if (Status st = how.prepare(&options); !st.ok()) return UsageError(how.command, st.message());
    }
    Result<scenarios::RunReport> r = scenarios::RunScenario(scenario, options);
    if (!r.ok()) return UsageError(how.command, r.status().message());
    failures.push_back(r->tally.atomic_failures);
    if (!r->ok()) {
      ++failed;
      std::string command = "commitlab " + std::string(how.command);
      for (const std::string& a : how.reproduce) command += " " + Quote(a);
      command += fmt::format(" --seed {}", seed);
      failing.push_back({{"seed", seed}, {"failed", scenarios::FailureSummary(*r)}, {"reproduce", command}});
    }
    if (how.json) {
      report["runs"].push_back(scenarios::RunJson(*r));
    } else {
      fmt::print("seed {:>6}: atomic commit failures {:>4}, latest snapshot {}, {}\n", seed, r->tally.atomic_failures,
                 r->latest_snapshot(), r->ok() ? "ok" : "FAILED: " + scenarios::FailureSummary(*r));
    }
    if (seed == seeds.last) break;
  }
  std::vector<int64_t> sorted = failures;
  std::sort(sorted.begin(), sorted.end());
  const int64_t median = sorted[sorted.size() / 2];
  if (how.json) {
    report["summary"] = {{"seeds", {{"first", seeds.first}, {"last", seeds.last}}},
                         {"atomic_failures", {{"min", sorted.front()}, {"median", median}, {"max", sorted.back()}}},
                         {"failed_runs", failed},
                         {"failing_seeds", failing}};
    report["ok"] = failed == 0;
    PrintJsonLine(report);
  } else {
    fmt::print("\n{} runs: atomic commit failures min {} / median {} / max {}; runs that failed: {}\n", sorted.size(),
               sorted.front(), median, sorted.back(), failed);
    for (const sim::Json& f : failing)
      fmt::print("seed {} failed ({}); reproduce: {}\n", f["seed"].get<uint64_t>(), f["failed"].get<std::string>(),
                 f["reproduce"].get<std::string>());
  }
  return failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
