// `commitlab race`: the lecture's scenario 1. N writers append M commits each to one table and
// race for snapshot ids; every commit must land exactly once. On OS threads (--sched free, the
// default, like the lecture's Java run) or in virtual time under a seeded scheduler.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "cli.h"
#include "commitlab/core/object_store.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/scenarios/race.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/runner.h"
#include "history_file.h"
#include "log_printer.h"
#include "report_output.h"
#include "run_settings.h"
#include "seed_range.h"
#include "sim_flags.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;
using scenarios::RunReport;

constexpr std::string_view kCommand = "race";

void PrintSummary(const RunReport& r) {
  int failed_jobs = 0;
  for (const scenarios::WriterReport& w : r.writers) {
    if (w.outcome == scenarios::Outcome::kOk) continue;
    ++failed_jobs;
    fmt::print("{} failed: {}\n", w.name, w.error.substr(0, w.error.find('\n')));
  }
  fmt::print("\n{}\n", scenarios::AtomicFailuresLine(r));
  fmt::print("failed jobs: {}\n", failed_jobs);
  fmt::print("latest snapshot id: {}\n", r.latest_snapshot());
  fmt::print("snapshots per commit user: {}\n", scenarios::PerUserLine(r));
  for (const std::string& f : r.fired_faults) fmt::print("fault fired: {}\n", f);
  for (const std::string& line : scenarios::InvariantLines(r)) fmt::print("{}\n", line);
  for (const std::string& e : r.run_errors) fmt::print("ERROR {}\n", e);
  if (!r.schedule.empty()) {
    fmt::print("virtual time: {:.3f} s\n", static_cast<double>(r.virtual_micros) / 1e6);
    fmt::print("schedule: {}\n", r.schedule);
  }
}

// Where the race's table lives: memory (or the scenario's object store), or a table directory.
Status PlaceTable(const std::string& store_kind, const std::string& dir, scenarios::RunOptions* run) {
  if (store_kind != "dir") return Status::OK();
  run->store = scenarios::StoreKind::kTableDir;
  run->dir = dir;
  return Status::OK();
}

}  // namespace

int RunRace(const std::vector<std::string>& args) {
  po::options_description options("commitlab race [options]");
  int writers = 2, commits = 30;
  std::string store_kind = "memory", dir, policy_spec = "paimon", idempotency = "on";
  SimFlags flags;
  options.add_options()
      ("help,h", "show this help")
      ("writers", po::value(&writers)->default_value(2), "number of writers (job-A, job-B, ...), 1..1000")
      ("commits", po::value(&commits)->default_value(30), "commits per writer, 1..100000")
      ("store", po::value(&store_kind)->default_value("memory"),
       "memory | dir | object:check-then-put | object:locked | object:conditional-put")
      ("dir", po::value(&dir), "table directory for --store dir (default: a fresh one under results/tmp)")
      ("policy", po::value(&policy_spec)->default_value("paimon"), "retry policy, e.g. paimon, none, exponential:base=5ms,cap=2s")
      ("idempotency-check", po::value(&idempotency)->default_value("on"), "on | off: look for our own snapshot after a failed publish")
      ("verbose", "also print attempts and retry waits")
      ("json", "print one JSON report (docs/report.schema.json) instead of the log and summary");
  AddSimOptions(&options, &flags, "free", std::string(sim::kLectureLatencySpec));
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  Result<RetryPolicy> policy = ParseRetryPolicy(policy_spec);
  if (!policy.ok()) return UsageError(kCommand, fmt::format("--policy: {}", policy.status().message()));
  if (store_kind != "memory" && store_kind != "dir" && store_kind.rfind("object:", 0) != 0)
    return UsageError(kCommand, fmt::format("--store '{}' is not one of memory, dir, object:MODE", store_kind));
  if (store_kind.starts_with("object:") && !ParsePublishMode(store_kind.substr(7))) {
    return UsageError(kCommand, fmt::format("--store '{}': expected object:check-then-put, object:locked or "
                                            "object:conditional-put", store_kind));
  }
  if (vm.count("dir") && store_kind != "dir") return UsageError(kCommand, "--dir needs --store dir");
  if (idempotency != "on" && idempotency != "off")
    return UsageError(kCommand, fmt::format("--idempotency-check '{}' is not one of on, off", idempotency));
  if (Status st = Validate(vm, &flags); !st.ok()) return UsageError(kCommand, st.message());
  if (vm.count("dir") && flags.seed_range) return UsageError(kCommand, "--dir and --seeds do not go together: each seed needs its own table");

  const bool json = vm.count("json") > 0;
  scenarios::RaceSpec spec{.writers = writers,
                           .commits = commits,
                           .policy = FormatRetryPolicy(*policy),
                           .idempotency_check = idempotency == "on",
                           .object_store = store_kind.starts_with("object:") ? store_kind.substr(7) : "",
                           .latency = sim::FormatLatencyModel(flags.latency)};
  for (const sim::FaultRule& f : flags.faults) spec.faults.push_back(sim::FormatFaultRule(f));
  Result<scenarios::Scenario> scenario = scenarios::RaceScenario(spec);
  if (!scenario.ok()) return UsageError(kCommand, scenario.status().message());
  scenarios::RunOptions run;
  run.seed = flags.seed;
  run.sched = flags.sched;
  run.schedule = flags.schedule;
  sim::Json faults = spec.faults;
  const sim::Json settings = {{"writers", writers},
                              {"commits", commits},
                              {"store", store_kind},
                              {"policy", spec.policy},
                              {"idempotency_check", spec.idempotency_check},
                              {"latency", spec.latency},
                              {"faults", std::move(faults)},
                              {"seed", flags.seed},
                              {"sched", flags.sched},
                              {"schedule", flags.schedule.empty() ? sim::Json(nullptr) : sim::Json(flags.schedule)}};
  if (flags.seed_range) {
    SeedRangeRun how{.command = kCommand,
                     .reproduce = WithoutFlags(args, {"--seeds", "--seed", "--trace", "--dir"}, {"--json"}),
                     .json = json,
                     .settings = settings,
                     .prepare = [&store_kind](scenarios::RunOptions* o) { return PlaceTable(store_kind, ScratchDir("race"), o); }};
    return RunSeedRange(*scenario, run, {flags.first_seed, flags.last_seed}, how);
  }

  if (store_kind == "dir" && dir.empty()) dir = ScratchDir("race");
  if (Status st = PlaceTable(store_kind, dir, &run); !st.ok()) return UsageError(kCommand, st.message());
  Result<scenarios::RunPlan> plan = scenarios::PlanRun(*scenario, run);
  if (!plan.ok()) return UsageError(kCommand, plan.status().message());

  RunSettings line(WithoutFlags(args, {"--trace", "--dir"}, {"--json", "--verbose"}));
  line.Add("seed", std::to_string(flags.seed))
      .Add("sched", flags.strategy)
      .Add("writers", std::to_string(writers))
      .Add("commits", std::to_string(commits))
      .Add("store", store_kind)
      .Add("policy", spec.policy)
      .Add("idempotency-check", idempotency)
      .Add("latency", spec.latency);
  for (const std::string& f : spec.faults) line.Add("fault", f);

  std::unique_ptr<HistoryFile> trace;
  if (!flags.trace.empty()) {
    Result<std::unique_ptr<HistoryFile>> created = HistoryFile::Create(
        flags.trace, HistoryHeader(kCommand, line.args(), settings, scenarios::PlanJson(*plan), *scenario));
    if (!created.ok()) return UsageError(kCommand, created.status().message());
    trace = std::move(*created);
  }
  if (!json) {
    fmt::print("== Race: {} writers x {} commits, {}, store={}{} ==\n{}\n", writers, commits,
               flags.strategy == "free" ? "OS threads and the real clock" : "simulated in virtual time", store_kind,
               dir.empty() ? "" : " (" + dir + ")", line.Line());
  }
  LogPrinter printer(stdout, vm.count("verbose") > 0);
  NullEventSink quiet;
  run.events = json ? static_cast<EventSink*>(&quiet) : &printer;
  run.history = trace ? trace->history() : nullptr;
  Result<RunReport> report = scenarios::RunScenario(*scenario, run);
  if (!report.ok()) {
    fmt::print(stderr, "commitlab race: {}\n", report.status().message());
    return kExitUsage;
  }
  if (trace) {
    if (Status st = trace->Finish(scenarios::HistoryFooter(*report)); !st.ok()) {
      fmt::print(stderr, "commitlab race: {}\n", st.message());
      return kExitUsage;
    }
  }
  if (json) {
    PrintRunReport(kCommand, settings, *report);
  } else {
    PrintSummary(*report);
  }
  return report->ok() ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
