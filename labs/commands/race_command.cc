// `commitlab race`: S2 第 5 讲's scenario 1 (docs/lectures.md#s2-5-race). N writers append M commits
// each to one table and race for snapshot ids; every commit must land exactly once. On OS threads
// (--sched free, the default, like S2 第 5 讲's Java run), in virtual time under a seeded
// scheduler, or as N processes on one table directory (--processes, race_processes.h).
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "commands/cli.h"
#include "commands/race_processes.h"
#include "commands/run_settings.h"
#include "commands/sim_flags.h"
#include "commitlab/catalogs/jdbc_lock.h"
#include "commitlab/core/paimon/object_store.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/process/process_race.h"
#include "commitlab/scenarios/race.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/table_dir_check.h"
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
  PrintFiredFaults(r);
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

std::string SelfPath() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string("commitlab");
}

struct ProcessFlags {
  int processes = 0;
  int kills = 0;
  std::string fsync;
};

// --processes: the writers are `commitlab writer` processes on one directory.
int RunRaceProcesses(const po::variables_map& vm, const ProcessFlags& pf, const scenarios::RaceSpec& spec,
                     const SimFlags& flags, std::string dir, const std::vector<std::string>& args) {
  for (const char* flag :
       {"writers", "seeds", "schedule", "trace", "verbose", "max-steps", "max-virtual-time", "max-wall-time"}) {
    if (vm.count(flag) && !vm[flag].defaulted())
      return UsageError(kCommand, fmt::format("--{} does not go with --processes", flag));
  }
  if (flags.sched != "free") return UsageError(kCommand, "--processes runs real processes: --sched must be free");
  if (vm["store"].as<std::string>() != "dir" && !vm["store"].defaulted())
    return UsageError(kCommand, "--processes races on a table directory: --store must be dir");
  if (pf.processes < 1 || pf.processes > 64)
    return UsageError(kCommand, fmt::format("--processes {} is out of range 1..64", pf.processes));
  if (pf.kills < 0) return UsageError(kCommand, "--kills must not be negative");
  if (!ParseFsync(pf.fsync))
    return UsageError(kCommand, fmt::format("--fsync '{}' is not one of off, data, all", pf.fsync));
  if (dir.empty()) {
    Result<std::string> scratch = ScratchDir("race");
    if (!scratch.ok()) return UsageError(kCommand, scratch.status().message());
    dir = *scratch;
  }
  if (std::error_code ec; std::filesystem::exists(std::filesystem::path(dir) / "snapshot", ec)) {
    return UsageError(kCommand, fmt::format("{} already holds a table; use an empty directory (`commitlab writer` "
                                            "joins an existing table)",
                                            dir));
  }

  process::ProcessRaceOptions o{.commitlab = SelfPath(),
                                .dir = dir,
                                .writers = pf.processes,
                                .commits = spec.commits,
                                .kills = pf.kills,
                                .kill_seed = flags.seed};
  o.writer_args = {"--policy",
                   spec.policy,
                   "--idempotency-check",
                   spec.idempotency_check ? "on" : "off",
                   "--latency",
                   spec.latency,
                   "--seed",
                   std::to_string(flags.seed),
                   "--fsync",
                   pf.fsync};
  for (const std::string& f : spec.faults) o.writer_args.insert(o.writer_args.end(), {"--fault", f});

  const bool json = vm.count("json") > 0;
  RunSettings line(WithoutFlags(args, {"--dir"}, {"--json"}));
  line.Add("seed", std::to_string(flags.seed))
      .Add("processes", std::to_string(pf.processes))
      .Add("commits", std::to_string(spec.commits))
      .Add("policy", spec.policy)
      .Add("idempotency-check", spec.idempotency_check ? "on" : "off")
      .Add("latency", spec.latency)
      .Add("fsync", pf.fsync)
      .Add("kills", std::to_string(pf.kills));
  for (const std::string& f : spec.faults) line.Add("fault", f);
  if (!json) {
    fmt::print("== Race: {} processes x {} commits on one table directory ({}) ==\n{}\n", pf.processes, spec.commits,
               dir, line.Line());
  }
  Result<process::ProcessRaceResult> race = process::RunProcessRace(o);
  if (!race.ok()) {
    fmt::print(stderr, "commitlab race: {}\n", race.status().message());
    return kExitUsage;
  }
  Result<sim::TableDirReport> table = sim::CheckTableDir(dir);
  if (!table.ok()) {
    fmt::print(stderr, "commitlab race: {}\n", table.status().message());
    return kExitUsage;
  }
  scenarios::RunPlan plan{.seed = flags.seed,
                          .free = true,
                          .sched = "processes",
                          .strategy = "processes",
                          .latency = flags.latency,
                          .faults = flags.faults,
                          .retry = *ParseRetryPolicy(spec.policy),
                          .idempotency_check = spec.idempotency_check,
                          .store = scenarios::StoreKind::kTableDir};
  const RunReport report = ProcessRaceReport(*race, *table, plan);
  if (json) {
    sim::Json faults = spec.faults;
    PrintRunReport(kCommand,
                   {{"processes", pf.processes},
                    {"commits", spec.commits},
                    {"store", "dir"},
                    {"policy", spec.policy},
                    {"idempotency_check", spec.idempotency_check},
                    {"latency", spec.latency},
                    {"faults", std::move(faults)},
                    {"seed", flags.seed},
                    {"sched", "processes"},
                    {"fsync", pf.fsync},
                    {"kills", pf.kills}},
                   report);
  } else {
    for (const process::WriterProcesses& w : race->writers) {
      fmt::print("{}: {} process(es), {} commit(s) acknowledged\n", w.user, w.starts, w.acks.size());
    }
    PrintSummary(report);
    if (pf.kills > 0) fmt::print("{}\n", KillsLine(*race));
    fmt::print("leftovers: {} (`commitlab check {}` lists them; --clean-orphans removes them)\n",
               table->leftovers.size(), dir);
  }
  return report.ok() ? kExitOk : kExitFailed;
}

}  // namespace

int RunRace(const std::vector<std::string>& args) {
  // Iceberg writers through a catalog are `commitlab catalog race`: `race --catalog ...` is the same.
  for (const std::string& a : args)
    if (a == "--catalog" || a.rfind("--catalog=", 0) == 0) {
      std::vector<std::string> forwarded = {"race"};
      forwarded.insert(forwarded.end(), args.begin(), args.end());
      return RunCatalog(forwarded);
    }
  po::options_description options("commitlab race [options]");
  int writers = 2, commits = 30;
  std::string store_kind = "memory", dir, policy_spec = "paimon", idempotency = "on", lock_db;
  SimFlags flags;
  ProcessFlags pf;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("catalog", po::value<std::string>(), "Iceberg writers through a catalog instead: `commitlab catalog race` (see its --help)")
      ("writers", po::value(&writers)->default_value(2), "number of writers (job-A, job-B, ...), 1..1000")
      ("commits", po::value(&commits)->default_value(30), "commits per writer, 1..100000")
      ("store", po::value(&store_kind)->default_value("memory"),
       "memory | dir | object:check-then-put | object:locked | object:conditional-put")
      ("dir", po::value(&dir), "table directory for --store dir (default: a fresh one under results/tmp)")
      ("lock", po::value(&lock_db),
       "with --store object:locked: hold Paimon's JDBC catalog lock in this PostgreSQL database (a libpq conninfo "
       "or postgres:// URI) instead of an in-process flag")
      ("policy", po::value(&policy_spec)->default_value("paimon"), "retry policy, e.g. paimon, none, exponential:base=5ms,cap=2s")
      ("idempotency-check", po::value(&idempotency)->default_value("on"), "on | off: look for our own snapshot after a failed publish")
      ("verbose", "also print attempts and retry waits")
      ("processes", po::value(&pf.processes), "run each writer as its own `commitlab writer` process on one table directory (1..64)")
      ("kills", po::value(&pf.kills)->default_value(0), "with --processes: kill -9 a random writer this many times, at moments drawn from --seed, and restart it")
      ("fsync", po::value(&pf.fsync)->default_value("off"), "with --processes: off | data | all (docs/multiprocess.md)")
      ("json", "print one JSON report (docs/report.schema.json) instead of the log and summary");
  // clang-format on
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
                                            "object:conditional-put",
                                            store_kind));
  }
  if (vm.count("dir") && store_kind != "dir" && !vm.count("processes"))
    return UsageError(kCommand, "--dir needs --store dir");
  if (vm.count("lock") && store_kind != "object:locked")
    return UsageError(kCommand, "--lock needs --store object:locked");
  if (vm.count("lock") && vm.count("processes"))
    return UsageError(kCommand, "--lock runs the writers as threads: it does not go with --processes yet");
  if (idempotency != "on" && idempotency != "off")
    return UsageError(kCommand, fmt::format("--idempotency-check '{}' is not one of on, off", idempotency));
  if (Status st = Validate(vm, &flags); !st.ok()) return UsageError(kCommand, st.message());
  if (vm.count("lock") && flags.strategy != "free")
    return UsageError(kCommand,
                      "--lock needs --sched free: the lock's rows expire on the server's clock, which a simulated run "
                      "does not keep");
  if (!vm.count("processes")) {
    for (const char* flag : {"kills", "fsync"})
      if (!vm[flag].defaulted()) return UsageError(kCommand, fmt::format("--{} needs --processes", flag));
  }
  if (vm.count("dir") && flags.seed_range)
    return UsageError(kCommand, "--dir and --seeds do not go together: each seed needs its own table");

  const bool json = vm.count("json") > 0;
  scenarios::RaceSpec spec{.writers = writers,
                           .commits = commits,
                           .policy = FormatRetryPolicy(*policy),
                           .idempotency_check = idempotency == "on",
                           .object_store = store_kind.starts_with("object:") ? store_kind.substr(7) : "",
                           .latency = sim::FormatLatencyModel(flags.latency)};
  for (const sim::FaultRule& f : flags.faults) spec.faults.push_back(sim::FormatFaultRule(f));
  if (vm.count("processes")) return RunRaceProcesses(vm, pf, spec, flags, dir, args);
  Result<scenarios::Scenario> scenario = scenarios::RaceScenario(spec);
  if (!scenario.ok()) return UsageError(kCommand, scenario.status().message());
  scenarios::RunOptions run;
  std::unique_ptr<catalogs::JdbcTableLock> lock;
  if (vm.count("lock")) {
    Result<std::unique_ptr<catalogs::JdbcTableLock>> l =
        catalogs::JdbcTableLock::Open(lock_db, {.lock_id = "commitlab.default.race_log"});
    if (!l.ok()) return UsageError(kCommand, fmt::format("--lock: {}", l.status().message()));
    lock = std::move(*l);
    run.table_lock = lock.get();
  }
  run.seed = flags.seed;
  run.sched = flags.sched;
  run.schedule = flags.schedule;
  run.untimed = flags.untimed;
  run.choose_fault = scenarios::MaybeFaultChooser(flags.maybe);
  ApplyBudgets(flags, &run);
  sim::Json faults = spec.faults;
  sim::Json settings = {{"writers", writers},
                        {"commits", commits},
                        {"store", store_kind},
                        {"policy", spec.policy},
                        {"idempotency_check", spec.idempotency_check},
                        {"latency", spec.latency},
                        {"faults", std::move(faults)},
                        {"seed", flags.seed},
                        {"sched", flags.sched},
                        {"schedule", flags.schedule.empty() ? sim::Json(nullptr) : sim::Json(flags.schedule)},
                        {"untimed", flags.untimed},
                        {"maybe_faults", flags.maybe}};
  AddBudgetSettings(flags, &settings);
  if (flags.seed_range) {
    Result<SeedRangeRun> how =
        SeedRangeFromFlags(kCommand, args, json, settings, flags, store_kind == "dir", "race-seeds", *scenario);
    if (!how.ok()) return UsageError(kCommand, how.status().message());
    how->prepare = [&store_kind](scenarios::RunOptions* o) { return PlaceTable(store_kind, o->dir, o); };
    return RunSeedRange(*scenario, run, {flags.first_seed, flags.last_seed}, *how);
  }

  if (store_kind == "dir" && dir.empty()) {
    Result<std::string> scratch = ScratchDir("race");
    if (!scratch.ok()) return UsageError(kCommand, scratch.status().message());
    dir = *scratch;
  }
  if (Status st = PlaceTable(store_kind, dir, &run); !st.ok()) return UsageError(kCommand, st.message());
  Result<scenarios::RunPlan> plan = scenarios::PlanRun(*scenario, run);
  if (!plan.ok()) return UsageError(kCommand, plan.status().message());

  RunSettings line(WithoutFlags(args, {"--trace", "--timeline", "--dir"}, {"--json", "--verbose"}));
  line.Add("seed", std::to_string(flags.seed))
      .Add("sched", flags.strategy)
      .Add("writers", std::to_string(writers))
      .Add("commits", std::to_string(commits))
      .Add("store", store_kind)
      .Add("policy", spec.policy)
      .Add("idempotency-check", idempotency)
      .Add("latency", spec.latency);
  for (const std::string& f : spec.faults) line.Add("fault", f);

  Result<std::unique_ptr<RunRecording>> recording =
      RunRecording::Start({.trace = flags.trace, .timeline = flags.timeline, .explain = flags.explain},
                          HistoryHeader(kCommand, line.args(), settings, scenarios::PlanJson(*plan), *scenario));
  if (!recording.ok()) return UsageError(kCommand, recording.status().message());
  if (!json) {
    fmt::print("== Race: {} writers x {} commits, {}, store={}{} ==\n{}\n", writers, commits,
               flags.strategy == "free" ? "OS threads and the real clock" : "simulated in virtual time", store_kind,
               dir.empty() ? "" : " (" + dir + ")", line.Line());
  }
  LogPrinter printer(stdout, vm.count("verbose") > 0);
  NullEventSink quiet;
  run.events = json ? static_cast<EventSink*>(&quiet) : &printer;
  run.history = (*recording)->history();
  Result<RunReport> report = scenarios::RunScenario(*scenario, run);
  if (!report.ok()) {
    fmt::print(stderr, "commitlab race: {}\n", report.status().message());
    return kExitUsage;
  }
  // As a full disk under --store dir: the writers met it as upstream would, but the run did not test
  // the protocol.
  if (std::optional<std::string> e = lock ? lock->first_server_error() : std::nullopt)
    report->run_errors.push_back(fmt::format("--lock: PostgreSQL failed the run: {}", *e));
  if (Status st = (*recording)->Finish(kCommand, scenarios::HistoryFooter(*report)); !st.ok()) {
    fmt::print(stderr, "commitlab race: {}\n", st.message());
    return kExitUsage;
  }
  if (json) {
    PrintRunReport(kCommand, settings, *report);
  } else {
    PrintSummary(*report);
  }
  if (!json && !(*recording)->explanation().empty()) fmt::print("\n{}", (*recording)->explanation());
  if (!json && !(*recording)->timeline_summary().empty())
    fmt::print("timeline: {}\n", (*recording)->timeline_summary());
  return report->ok() ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
