#include "hunt/seed_range.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "commands/cli.h"
#include "commands/run_settings.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/sim/worker_pool.h"
#include "hunt/swarm.h"
#include "output/report_output.h"
#include "output/text_histogram.h"

namespace commitlab::cli {
namespace {

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
  std::vector<std::string> violations = {};  // every violation kind the checker found, expected or not
  sim::Json json = {};
};

// How many seeds showed one kind of failure, and the first of them.
struct KindCount {
  int64_t seeds = 0;
  uint64_t first = 0;
  std::string detail = {};
  std::string reproduce = {};
};

// The seed's swarm rules as `--fault` arguments.
std::string FaultArgs(const std::vector<sim::FaultRule>& rules) {
  std::string out;
  for (const sim::FaultRule& r : rules) out += " --fault " + ShellQuote(sim::FormatFaultRule(r));
  return out;
}

// " [faults: publish.after:unknown p=0.1, ...]" after a swarm seed's line.
std::string SwarmSummary(const std::vector<sim::FaultRule>& rules) {
  if (rules.empty()) return " [no faults]";
  std::string out;
  for (const sim::FaultRule& r : rules)
    out += fmt::format("{}{} p={}", out.empty() ? "" : ", ", SwarmKind(r), r.trigger.probability);
  return " [" + out + "]";
}

int RunSeeds(const scenarios::Scenario& scenario, scenarios::RunOptions options, const SeedRange& seeds,
             const SeedRangeRun& how) {
  NullEventSink quiet;
  options.events = &quiet;
  options.history = nullptr;
  options.observer = nullptr;
  const int threads =
      how.threads > 0 ? how.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Small chunks keep --find from running far past its seed; each is printed when it is done.
  const uint64_t chunk = static_cast<uint64_t>(threads) * 8;

  std::string command_prefix = "commitlab " + std::string(how.command);
  for (const std::string& a : how.reproduce) command_prefix += " " + ShellQuote(a);
  sim::Json report = ReportEnvelope(how.command, how.settings);
  sim::Json failing = sim::Json::array();
  std::vector<int64_t> lost, attempts, times;
  std::map<std::string, KindCount> kinds;
  std::vector<std::string> kind_order;  // by first seed
  int failed = 0;
  std::optional<uint64_t> found;
  std::string found_command;
  std::map<std::string, int64_t> swarm_on;              // fault kind -> seeds with it on
  std::map<std::string, SwarmAttribution> attribution;  // violation kind -> its seeds' faults
  struct Example {
    uint64_t seed = 0;
    size_t faults = 0;
    std::string reproduce = {};
  };
  std::map<std::string, Example> swarm_first;  // violation kind -> the seed to show

  Result<std::unique_ptr<sim::WorkerPool>> pool = sim::WorkerPool::Start(threads);
  if (!pool.ok()) {
    fmt::print(stderr, "commitlab {}: {}\n", how.command, pool.status().message());
    return kExitUsage;
  }
  for (uint64_t from = seeds.first;; from += chunk) {
    const uint64_t to = seeds.last - from < chunk ? seeds.last : from + chunk - 1;  // never past UINT64_MAX
    std::vector<scenarios::RunOptions> runs;
    std::vector<std::vector<sim::FaultRule>> swarms;
    for (uint64_t seed = from;; ++seed) {
      scenarios::RunOptions o = options;
      o.seed = seed;
      swarms.push_back(how.swarm ? SwarmFaults(seed) : std::vector<sim::FaultRule>{});
      // A kind the scenario's engines never pass (manifest.before on Delta) is left off, not refused.
      std::erase_if(swarms.back(), [&](const sim::FaultRule& r) { return !scenarios::FaultCanFire(scenario, r); });
      o.faults.insert(o.faults.end(), swarms.back().begin(), swarms.back().end());
      if (!how.tables.empty()) o.dir = (std::filesystem::path(how.tables) / fmt::format("seed-{}", seed)).string();
      if (how.prepare) {
        if (Status st = how.prepare(&o); !st.ok()) return UsageError(how.command, st.message());
      }
      runs.push_back(std::move(o));
      if (seed == to) break;
    }
    std::vector<SeedResult> results(runs.size());
    (*pool)->Run(runs.size(), [&](size_t i) {
      SeedResult& out = results[i];
      Result<scenarios::RunReport> r = scenarios::RunScenario(scenario, runs[i]);
      if (!r.ok()) {
        out.error = r.status();
      } else {
        out.tally = r->tally;
        out.latest = r->latest_snapshot();
        out.virtual_ms = r->virtual_micros / 1000;
        out.ok = how.swarm ? r->invariants_ok() : r->ok();
        out.failed = scenarios::FailureSummary(*r);
        out.failures = scenarios::RunFailures(*r);
        for (const scenarios::ViolationReport& v : r->violations) out.violations.push_back(v.violation.kind);
        if (how.swarm) {
          std::erase_if(out.failures, [](const scenarios::RunFailure& f) { return f.kind.rfind("expect ", 0) == 0; });
          out.failed = out.failures.empty() ? "" : out.failures.front().kind;
          for (size_t k = 1; k < out.failures.size(); ++k) out.failed += ", " + out.failures[k].kind;
        }
        out.matched = how.find && Matches(*how.find, *r);
        if (how.json) out.json = scenarios::RunJson(*r);
      }
    });
    if (!how.tables.empty() && !how.keep_tables) {
      for (const scenarios::RunOptions& o : runs) {
        std::error_code ec;
        std::filesystem::remove_all(o.dir, ec);  // best effort: the parent's removal reports a failure
      }
    }

    for (size_t i = 0; i < results.size() && !found; ++i) {
      SeedResult& r = results[i];
      const uint64_t seed = from + i;
      if (!r.error.ok()) return UsageError(how.command, r.error.message());
      lost.push_back(r.tally.atomic_failures);
      attempts.push_back(r.tally.attempts);
      times.push_back(r.virtual_ms);
      const std::string reproduce = fmt::format("{}{} --seed {}", command_prefix, FaultArgs(swarms[i]), seed);
      if (how.swarm) {
        for (const sim::FaultRule& f : swarms[i]) ++swarm_on[SwarmKind(f)];
        std::set<std::string> kinds_here(r.violations.begin(), r.violations.end());
        for (const std::string& k : kinds_here) {
          SwarmAttribution& a = attribution[k];
          // The example: the seed with the fewest faults on, the easiest to read.
          if (a.seeds++ == 0 || swarms[i].size() < swarm_first[k].faults)
            swarm_first[k] = {.seed = seed, .faults = swarms[i].size(), .reproduce = reproduce};
          if (swarms[i].empty()) ++a.without_faults;
          a.configurations.emplace_back();
          for (const sim::FaultRule& f : swarms[i]) {
            ++a.on[SwarmKind(f)];
            a.configurations.back().push_back(SwarmKind(f));
          }
        }
      }
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
          k.reproduce = reproduce;
          kind_order.push_back(f.kind);
        }
      }
      if (how.json) {
        report["runs"].push_back(std::move(r.json));
      } else {
        fmt::print("seed {:>6}: atomic commit failures {:>4}, latest snapshot {}, {}{}\n", seed,
                   r.tally.atomic_failures, r.latest, r.ok ? "ok" : "FAILED: " + r.failed,
                   how.swarm ? SwarmSummary(swarms[i]) : "");
      }
      if (r.matched) {
        found = seed;
        found_command = reproduce;
      }
    }
    if (found || to == seeds.last) break;
  }

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
      by_kind.push_back({{"kind", k},
                         {"seeds", kinds[k].seeds},
                         {"first_seed", kinds[k].first},
                         {"detail", kinds[k].detail},
                         {"reproduce", kinds[k].reproduce}});
    report["summary"] = {{"seeds", {{"first", seeds.first}, {"last", seeds.last}}},
                         {"runs", lost.size()},
                         {"atomic_failures", {{"min", sorted.front()}, {"median", median}, {"max", sorted.back()}}},
                         {"histograms",
                          {{"atomic_failures", histogram_json(lost)},
                           {"attempts", histogram_json(attempts)},
                           {"virtual_ms", histogram_json(times)}}},
                         {"failed_runs", failed},
                         {"failing_seeds", failing},
                         {"failure_kinds", std::move(by_kind)}};
    if (how.swarm) {
      sim::Json violations = sim::Json::array();
      for (const auto& [kind, a] : attribution)
        violations.push_back({{"kind", kind},
                              {"seeds", a.seeds},
                              {"without_faults", a.without_faults},
                              {"on", a.on},
                              {"example_seed", swarm_first[kind].seed},
                              {"reproduce", swarm_first[kind].reproduce}});
      report["summary"]["swarm"] = {{"fault_kinds_on", swarm_on}, {"violations", std::move(violations)}};
    }
    if (how.find) report["summary"]["found"] = found ? sim::Json(*found) : sim::Json(nullptr);
    report["ok"] = how.find ? found.has_value() : failed == 0;
    PrintJsonLine(report);
  } else {
    fmt::print("\n{} run{}: atomic commit failures min {} / median {} / max {}; runs that failed: {}\n", lost.size(),
               lost.size() == 1 ? "" : "s", sorted.front(), median, sorted.back(), failed);
    struct Shown {
      const char* title;
      const std::vector<int64_t>* values;
      const char* unit;
    };
    for (const Shown& h :
         {Shown{"lost races (atomic commit failures) per run", &lost, ""},
          Shown{"commit attempts per run", &attempts, ""}, Shown{"virtual time per run", &times, " ms"}}) {
      fmt::print("\n{}:\n", h.title);
      for (const std::string& line : HistogramLines(Bins(*h.values), h.unit)) fmt::print("{}\n", line);
    }
    if (!kind_order.empty()) {
      fmt::print("\nwhat failed, by kind:\n");
      for (const std::string& k : kind_order) {
        const KindCount& c = kinds[k];
        fmt::print("  {}: {} of {} seeds, first seed {}\n    {}\n    reproduce: {}\n", k, c.seeds, lost.size(), c.first,
                   c.detail, c.reproduce);
      }
    }
    if (how.swarm) {
      fmt::print("\nswarm: each seed turned on its own subset of {} fault kinds, each at a rate of 0.02 to 0.2\n",
                 SwarmFaultKinds().size());
      if (attribution.empty()) fmt::print("no invariant violation under any of the {} configurations\n", lost.size());
      for (const auto& [kind, a] : attribution) {
        fmt::print("  {}: {} of {} seeds\n", kind, a.seeds, lost.size());
        for (const std::string& line : AttributionLines(a, swarm_on, static_cast<int64_t>(lost.size())))
          fmt::print("    {}\n", line);
        fmt::print("    seed {} shows it with {} fault kind{} on: {}\n", swarm_first[kind].seed,
                   swarm_first[kind].faults, swarm_first[kind].faults == 1 ? "" : "s", swarm_first[kind].reproduce);
      }
    }
    if (how.find) {
      if (found) {
        fmt::print("\nfound: seed {} matches {}\n  reproduce: {}\n", *found, how.find->text, found_command);
      } else {
        fmt::print("\nnot found: no seed of {}..{} matches {}\n", seeds.first, seeds.last, how.find->text);
      }
    }
  }
  if (how.find) return found ? kExitOk : kExitFailed;
  return failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace

Result<SeedRangeRun> SeedRangeFromFlags(std::string_view command, const std::vector<std::string>& args, bool json,
                                        sim::Json settings, const SimFlags& flags, bool on_disk,
                                        std::string_view prefix) {
  SeedRangeRun how{
      .command = command,
      .reproduce = WithoutFlags(args, {"--seeds", "--seed", "--trace", "--timeline", "--dir", "--threads", "--find"},
                                {"--json", "--swarm", "--keep"}),
      .json = json,
      .settings = std::move(settings)};
  how.threads = flags.threads;
  how.swarm = flags.swarm;
  how.find = flags.query;
  if (!on_disk) {
    if (flags.keep) return Status::InvalidArgument("--keep is for --store dir: other stores keep nothing on disk");
    return how;
  }
  Result<std::string> tables = ScratchDir(prefix);
  if (!tables.ok()) return tables.status();
  how.tables = *tables;
  how.keep_tables = flags.keep;
  return how;
}

int RunSeedRange(const scenarios::Scenario& scenario, scenarios::RunOptions options, const SeedRange& seeds,
                 const SeedRangeRun& how) {
  namespace fs = std::filesystem;
  if (how.tables.empty()) return RunSeeds(scenario, std::move(options), seeds, how);
  std::error_code ec;
  if (fs::exists(how.tables, ec) || !fs::create_directories(how.tables, ec)) {
    return UsageError(how.command, fmt::format("cannot create the directory for the seeds' tables {}: {}", how.tables,
                                               ec ? ec.message() : "it already exists"));
  }
  const int code = RunSeeds(scenario, std::move(options), seeds, how);
  if (how.keep_tables) {
    fmt::print(stderr, "commitlab {}: the seeds' tables are in {}/seed-N\n", how.command, how.tables);
  } else if (fs::remove_all(how.tables, ec); ec) {
    fmt::print(stderr, "commitlab {}: could not remove {}: {}\n", how.command, how.tables, ec.message());
    return code == kExitOk ? kExitUsage : code;
  }
  return code;
}

}  // namespace commitlab::cli
