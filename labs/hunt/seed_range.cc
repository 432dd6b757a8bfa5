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
#include "hunt/seed_tally.h"
#include "hunt/shard.h"
#include "hunt/swarm.h"
#include "output/report_output.h"

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

// Adds one seed's run to the tally (and prints its line unless --json).
void Count(uint64_t seed, SeedResult&& r, const std::vector<sim::FaultRule>& swarm, const std::string& command_prefix,
           const SeedRangeRun& how, SeedTally* t) {
  ++t->runs;
  ++t->lost[r.tally.atomic_failures];
  ++t->attempts[r.tally.attempts];
  ++t->times[r.virtual_ms];
  const std::string reproduce = fmt::format("{}{} --seed {}", command_prefix, FaultArgs(swarm), seed);
  if (how.swarm) {
    for (const sim::FaultRule& f : swarm) ++t->swarm_on[SwarmKind(f)];
    std::set<std::string> kinds_here(r.violations.begin(), r.violations.end());
    std::vector<std::string> on;
    for (const sim::FaultRule& f : swarm) on.push_back(SwarmKind(f));
    for (const std::string& k : kinds_here) {
      SwarmAttribution& a = t->attribution[k];
      // The example: the seed with the fewest faults on, the easiest to read.
      const auto faults = static_cast<int64_t>(swarm.size());
      if (a.seeds++ == 0 || faults < t->swarm_first[k].faults)
        t->swarm_first[k] = {.seed = seed, .faults = faults, .reproduce = reproduce};
      if (swarm.empty()) ++a.without_faults;
      ++a.configurations[on];
      for (const std::string& kind : on) ++a.on[kind];
    }
  }
  if (!r.ok) {
    ++t->failed;
    t->failing.push_back({{"seed", seed}, {"failed", r.failed}, {"reproduce", reproduce}});
    std::set<std::string> seen;  // a kind counts once a seed
    for (const scenarios::RunFailure& f : r.failures) {
      if (!seen.insert(f.kind).second) continue;
      KindCount& k = t->kinds[f.kind];
      if (k.seeds++ > 0) continue;
      k.first = seed;
      k.detail = f.detail;
      k.reproduce = reproduce;
      t->kind_order.push_back(f.kind);
    }
  }
  if (how.each_run) {
    t->runs_json.push_back(std::move(r.json));
  } else if (!how.json) {
    fmt::print("seed {:>6}: atomic commit failures {:>4}, latest snapshot {}, {}{}\n", seed, r.tally.atomic_failures,
               r.latest, r.ok ? "ok" : "FAILED: " + r.failed, how.swarm ? SwarmSummary(swarm) : "");
  }
  if (r.matched) {
    t->found = seed;
    t->found_command = reproduce;
  }
}

// Runs one seed on a pool thread.
SeedResult RunOne(const scenarios::Scenario& scenario, const scenarios::RunOptions& run, const SeedRangeRun& how) {
  SeedResult out;
  Result<scenarios::RunReport> r = scenarios::RunScenario(scenario, run);
  if (!r.ok()) {
    out.error = r.status();
    return out;
  }
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
  if (how.each_run) out.json = scenarios::RunJson(*r);
  return out;
}

// `whole`: the hunt's range, of which `seeds` is this shard's block (the same without --shard).
int RunSeeds(const scenarios::Scenario& scenario, scenarios::RunOptions options, const SeedRange& seeds,
             const SeedRange& whole, const SeedRangeRun& how) {
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
  SeedTally tally;

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
    (*pool)->Run(runs.size(), [&](size_t i) { results[i] = RunOne(scenario, runs[i], how); });
    if (!how.tables.empty() && !how.keep_tables) {
      for (const scenarios::RunOptions& o : runs) {
        std::error_code ec;
        std::filesystem::remove_all(o.dir, ec);  // best effort: the parent's removal reports a failure
      }
    }
    for (size_t i = 0; i < results.size() && !tally.found; ++i) {
      if (!results[i].error.ok()) return UsageError(how.command, results[i].error.message());
      Count(from + i, std::move(results[i]), swarms[i], command_prefix, how, &tally);
    }
    if (tally.found || to == seeds.last) break;
  }

  const HuntShape shape{.first = seeds.first,
                        .last = seeds.last,
                        .swarm = how.swarm,
                        .find = how.find ? std::optional<std::string>(how.find->text) : std::nullopt};
  if (how.json) {
    sim::Json report = ReportEnvelope(how.command, how.settings);
    report["summary"] = SummaryJson(tally, shape);
    report["ok"] = TallyOk(tally, shape);
    if (how.shard) {
      HuntShape hunt = shape;
      hunt.first = whole.first;
      hunt.last = whole.last;
      report["shard"] = ShardMember(*how.shard, "seeds", how.scenario_sha256, HuntJson(hunt),
                                    {{"seeds", {{"first", seeds.first}, {"last", seeds.last}}}}, TallyJson(tally));
    }
    report["runs"] = std::move(tally.runs_json);
    PrintJsonLine(report);
  } else {
    PrintSummary(tally, shape);
  }
  return TallyOk(tally, shape) ? kExitOk : kExitFailed;
}

}  // namespace

Result<SeedRangeRun> SeedRangeFromFlags(std::string_view command, const std::vector<std::string>& args, bool json,
                                        sim::Json settings, const SimFlags& flags, bool on_disk,
                                        std::string_view prefix, const scenarios::Scenario& scenario) {
  SeedRangeRun how{.command = command,
                   .reproduce = WithoutFlags(
                       args, {"--seeds", "--seed", "--trace", "--timeline", "--dir", "--threads", "--find", "--shard"},
                       {"--json", "--swarm", "--keep"}),
                   .json = json,
                   .each_run = json,
                   .settings = std::move(settings)};
  how.threads = flags.threads;
  how.swarm = flags.swarm;
  how.find = flags.query;
  if (!flags.shard.empty()) {
    COMMITLAB_ASSIGN_OR_RETURN(Shard shard, ParseShard(flags.shard));
    if (!ShardSeeds(flags.first_seed, flags.last_seed, shard))
      return Status::InvalidArgument(fmt::format(
          "--shard {}: the {} seed(s) of --seeds {} leave this shard empty; use at most {} shards", flags.shard,
          flags.last_seed - flags.first_seed + 1, flags.seeds, flags.last_seed - flags.first_seed + 1));
    how.shard = shard;
    how.json = true;  // a shard's report is for `commitlab merge`; each run's only with --json
    how.scenario_sha256 = sim::Sha256Hex(scenario.text);
  }
  if (!on_disk) {
    if (flags.keep) return Status::InvalidArgument("--keep is for --store dir: other stores keep nothing on disk");
    return how;
  }
  COMMITLAB_ASSIGN_OR_RETURN(std::string tables, ScratchDir(prefix));
  how.tables = tables;
  how.keep_tables = flags.keep;
  return how;
}

int RunSeedRange(const scenarios::Scenario& scenario, scenarios::RunOptions options, const SeedRange& seeds,
                 const SeedRangeRun& how) {
  namespace fs = std::filesystem;
  SeedRange block = seeds;
  if (how.shard) {
    const SeedBlock b = *ShardSeeds(seeds.first, seeds.last, *how.shard);  // not empty: SeedRangeFromFlags
    block = {b.first, b.last};
  }
  if (how.tables.empty()) return RunSeeds(scenario, std::move(options), block, seeds, how);
  std::error_code ec;
  if (fs::exists(how.tables, ec) || !fs::create_directories(how.tables, ec)) {
    return UsageError(how.command, fmt::format("cannot create the directory for the seeds' tables {}: {}", how.tables,
                                               ec ? ec.message() : "it already exists"));
  }
  const int code = RunSeeds(scenario, std::move(options), block, seeds, how);
  if (how.keep_tables) {
    fmt::print(stderr, "commitlab {}: the seeds' tables are in {}/seed-N\n", how.command, how.tables);
  } else if (fs::remove_all(how.tables, ec); ec) {
    fmt::print(stderr, "commitlab {}: could not remove {}: {}\n", how.command, how.tables, ec.message());
    return code == kExitOk ? kExitUsage : code;
  }
  return code;
}

}  // namespace commitlab::cli
