// `commitlab run FILE`: runs one scenario file (scenarios/README.md) and checks its expectations.
// Prints its seed, strategy and settings first, then the writers' log lines, then each
// expectation with its line, the invariants, and last the schedule string to replay the run.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <memory>

#include "commands/cli.h"
#include "commands/run_settings.h"
#include "commands/sim_flags.h"
#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/protocols.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/runner.h"
#include "hunt/seed_range.h"
#include "output/history_file.h"
#include "output/log_printer.h"
#include "output/report_output.h"
#include "output/run_recording.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;
using scenarios::RunReport;

constexpr std::string_view kCommand = "run";

// Prints what the strategy drew once the run has started, before the first log line.
class DrawnPrinter : public scenarios::RunObserver {
 public:
  void OnStart(const scenarios::RunPlan&, const std::string& drawn) override {  // on a writer's fiber
    if (!drawn.empty()) WriteText(stdout, fmt::format("drawn: {}\n", drawn));
  }
  bool wants_snapshots() const override { return false; }
};

void PrintReport(const RunReport& r) {
  fmt::print("\n");
  for (const scenarios::ExpectationResult& e : r.expectations) fmt::print("{}\n", scenarios::ExpectationLine(e));
  for (const std::string& e : r.run_errors) fmt::print("ERROR {}\n", e);
  PrintFiredFaults(r);
  for (const std::string& line : scenarios::InvariantLines(r)) fmt::print("{}\n", line);
  fmt::print("latest snapshot id: {}; snapshots per commit user: {}\n", r.latest_snapshot(), scenarios::PerUserLine(r));
  fmt::print("{}: {} of {} expectations held{}\n", r.ok() ? "ok" : "FAILED", r.expectations_passed(),
             r.expectations.size(), r.run_errors.empty() ? "" : fmt::format(", {} run error(s)", r.run_errors.size()));
  if (!r.schedule.empty()) {
    fmt::print("virtual time: {:.3f} s\n", static_cast<double>(r.virtual_micros) / 1e6);
    fmt::print("schedule: {}\n", r.schedule);
  } else {
    fmt::print("schedule: none (OS threads cannot be replayed; use a simulated --sched)\n");
  }
}

// The command's own options, typed, as a history header and the report record them: what
// `commitlab replay` needs to run it again (the scenario text travels in the header).
sim::Json Settings(const std::string& path, const scenarios::RunOptions& run, const std::string& store_kind,
                   const SimFlags& flags) {
  sim::Json faults = sim::Json::array();
  for (const sim::FaultRule& f : run.faults) faults.push_back(sim::FormatFaultRule(f));
  return {{"scenario", path},
          {"seed", run.seed ? sim::Json(*run.seed) : sim::Json(nullptr)},
          {"sched", run.sched ? sim::Json(*run.sched) : sim::Json(nullptr)},
          {"schedule", run.schedule.empty() ? sim::Json(nullptr) : sim::Json(run.schedule)},
          {"store", store_kind},
          {"latency", run.latency ? sim::Json(sim::FormatLatencyModel(flags.latency)) : sim::Json(nullptr)},
          {"faults", std::move(faults)},
          {"untimed", run.untimed},
          {"maybe_faults", flags.maybe}};
}

// The command's flags, as parsed.
struct RunFlags {
  std::string path, store_kind = "memory", dir, catalog;
  SimFlags flags;
};

void AddRunOptions(po::options_description* options, RunFlags* f) {
  // clang-format off
  options->add_options()
      ("help,h", "show this help")
      ("file", po::value(&f->path), "the scenario file (scenarios/*.scn)")
      ("store", po::value(&f->store_kind)->default_value("memory"), "memory | dir")
      ("dir", po::value(&f->dir), "where --store dir puts the tables, a folder each (default: a fresh one in results/tmp)")
      ("verbose", "also print attempts and retry waits")
      ("ignore-order", "drop the file's order lines (as commitlab explore --ignore-order)")
      ("catalog", po::value(&f->catalog),
       "every Iceberg table's catalog instead of its own: in-memory | rest | jdbc (PostgreSQL at $COMMITLAB_PG) | "
       "rest-server (a REST catalog server started on a loopback port)")
      ("json", "print one JSON report (docs/report.schema.json) instead of the log and summary");
  // clang-format on
  AddSimOptions(options, &f->flags, scenarios::kDefaultSched, "");
}

Status ValidateRun(const po::variables_map& vm, RunFlags* f) {
  if (f->path.empty()) return Status::InvalidArgument("missing the scenario file to run");
  if (f->store_kind != "memory" && f->store_kind != "dir")
    return Status::InvalidArgument(fmt::format("--store '{}' is not one of memory, dir", f->store_kind));
  if (vm.count("dir") && f->store_kind != "dir") return Status::InvalidArgument("--dir needs --store dir");
  return Validate(vm, &f->flags);
}

// --catalog: every Iceberg table of the scenario goes through that catalog.
Status ApplyCatalog(const std::string& catalog, scenarios::Scenario* scenario) {
  if (catalog != "in-memory" && catalog != "rest" && catalog != "jdbc" && catalog != "rest-server")
    return Status::InvalidArgument(
        fmt::format("--catalog '{}' is not one of in-memory, rest, jdbc, rest-server", catalog));
  int iceberg_tables = 0;
  for (scenarios::Table& t : scenario->tables) {
    if (!scenarios::TakesTableKey(t.protocol, "catalog")) continue;
    t.catalog = catalog;
    ++iceberg_tables;
  }
  if (iceberg_tables == 0) return Status::InvalidArgument("--catalog: the scenario has no Iceberg table");
  return Status::OK();
}

// The flags given on the command line override the scenario's own lines; the others stay unset.
scenarios::RunOptions RunOptionsFromFlags(const po::variables_map& vm, const SimFlags& flags) {
  scenarios::RunOptions run;
  if (!vm["seed"].defaulted()) run.seed = flags.seed;
  if (!vm["sched"].defaulted()) run.sched = flags.sched;
  if (!vm["latency"].defaulted()) run.latency = flags.latency;
  run.schedule = flags.schedule;
  run.faults = flags.faults;
  run.untimed = flags.untimed;
  run.choose_fault = scenarios::MaybeFaultChooser(flags.maybe);
  ApplyBudgets(flags, &run);
  return run;
}

// --seeds A..B: every seed of the range, simulated, each on its own tables.
int RunSeeds(const po::variables_map& vm, const RunFlags& f, const scenarios::Scenario& scenario,
             const scenarios::RunOptions& run, const sim::Json& settings, const std::vector<std::string>& args) {
  if (f.store_kind == "dir" && vm.count("dir"))
    return UsageError(kCommand, "--dir and --seeds do not go together: each seed needs its own tables");
  if (!run.sched && scenario.sched && scenario.sched->kind == scenarios::SchedKind::kFree)
    return UsageError(kCommand, "--seeds runs the simulator; the scenario says sched free: add --sched random");
  Result<SeedRangeRun> how = SeedRangeFromFlags(kCommand, args, vm.count("json") > 0, settings, f.flags,
                                                f.store_kind == "dir", "run-seeds", scenario);
  if (!how.ok()) return UsageError(kCommand, how.status().message());
  if (f.store_kind == "dir") {
    how->prepare = [](scenarios::RunOptions* o) {
      o->store = scenarios::StoreKind::kDir;
      return Status::OK();
    };
  }
  return RunSeedRange(scenario, run, {f.flags.first_seed, f.flags.last_seed}, *how);
}

// The settings line that repeats the run, with what the plan resolved.
RunSettings RunLine(const std::vector<std::string>& args, const std::string& path, const std::string& store_kind,
                    const scenarios::RunPlan& plan) {
  RunSettings line(WithoutFlags(args, {"--trace", "--timeline", "--dir"}, {"--json", "--verbose"}));
  line.Add("scenario", path)
      .Add("seed", std::to_string(plan.seed))
      .Add("sched", plan.strategy)
      .Add("store", store_kind)
      .Add("retry", FormatRetryPolicy(plan.retry))
      .Add("idempotency-check", plan.idempotency_check ? "on" : "off")
      .Add("latency", sim::FormatLatencyModel(plan.latency));
  for (const sim::FaultRule& fault : plan.faults) line.Add("fault", sim::FormatFaultRule(fault));
  return line;
}

// One run, recorded, with its log (or quiet under --json), then its report.
int RunOnce(const po::variables_map& vm, const RunFlags& f, const scenarios::Scenario& scenario,
            scenarios::RunOptions run, const sim::Json& settings, const std::vector<std::string>& args) {
  const bool json = vm.count("json") > 0;
  Result<scenarios::RunPlan> plan = scenarios::PlanRun(scenario, run);
  if (!plan.ok()) {
    fmt::print(stderr, "{}\n", plan.status().message());
    return kExitUsage;
  }
  const RunSettings line = RunLine(args, f.path, f.store_kind, *plan);
  Result<std::unique_ptr<RunRecording>> recording =
      RunRecording::Start({.trace = f.flags.trace, .timeline = f.flags.timeline, .explain = f.flags.explain},
                          HistoryHeader(kCommand, line.args(), settings, scenarios::PlanJson(*plan), scenario));
  if (!recording.ok()) return UsageError(kCommand, recording.status().message());
  if (!json) {
    fmt::print("== {} ({}) ==\n{}{}\n", scenario.title, f.path, line.Line(),
               run.store == scenarios::StoreKind::kDir ? " dir=" + run.dir : "");
  }
  LogPrinter printer(stdout, vm.count("verbose") > 0);
  NullEventSink quiet;
  DrawnPrinter drawn;
  run.events = json ? static_cast<EventSink*>(&quiet) : &printer;
  run.history = (*recording)->history();
  if (!json) run.observer = &drawn;
  Result<RunReport> report = scenarios::RunScenario(scenario, run);
  if (!report.ok()) {
    fmt::print(stderr, "commitlab run: {}\n", report.status().message());
    return kExitUsage;
  }
  if (Status st = (*recording)->Finish(kCommand, scenarios::HistoryFooter(*report)); !st.ok()) {
    fmt::print(stderr, "commitlab run: {}\n", st.message());
    return kExitUsage;
  }
  if (json) {
    PrintRunReport(kCommand, settings, *report);
  } else {
    PrintReport(*report);
  }
  if (!json && !(*recording)->explanation().empty()) fmt::print("\n{}", (*recording)->explanation());
  if (!json && !(*recording)->timeline_summary().empty())
    fmt::print("timeline: {}\n", (*recording)->timeline_summary());
  return report->ok() ? kExitOk : kExitFailed;
}

}  // namespace

int RunScenario(const std::vector<std::string>& args) {
  po::options_description options("commitlab run FILE [options]");
  RunFlags f;
  AddRunOptions(&options, &f);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print(
        "{}\n\nThe scenario's own sched and seed lines are the defaults; --sched and --seed win.\n"
        "--latency replaces the scenario's latency lines; --fault adds to its fault lines.\n"
        "--seeds A..B runs every seed of the range (simulated) and lists the ones that failed.\n",
        fmt::streamed(options));
    return kExitOk;
  }
  if (Status st = ValidateRun(vm, &f); !st.ok()) return UsageError(kCommand, st.message());
  Result<scenarios::Scenario> scenario = scenarios::LoadScenarioFile(f.path);
  if (scenario.ok() && vm.count("ignore-order")) scenario = scenarios::WithoutOrderLines(*scenario);
  if (!scenario.ok()) {
    fmt::print(stderr, "{}\n", scenario.status().message());
    return kExitUsage;
  }
  if (vm.count("catalog")) {
    if (Status st = ApplyCatalog(f.catalog, &*scenario); !st.ok()) return UsageError(kCommand, st.message());
  }
  scenarios::RunOptions run = RunOptionsFromFlags(vm, f.flags);
  sim::Json settings = Settings(f.path, run, f.store_kind, f.flags);
  AddBudgetSettings(f.flags, &settings);
  if (f.flags.seed_range) return RunSeeds(vm, f, *scenario, run, settings, args);
  if (f.store_kind == "dir") {
    run.store = scenarios::StoreKind::kDir;
    if (f.dir.empty()) {
      Result<std::string> scratch = ScratchDir("run");
      if (!scratch.ok()) return UsageError(kCommand, scratch.status().message());
      f.dir = *scratch;
    }
    run.dir = f.dir;
  }
  return RunOnce(vm, f, *scenario, std::move(run), settings, args);
}

}  // namespace commitlab::cli
