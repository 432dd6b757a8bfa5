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

// The command's flags, as parsed.
struct RaceFlags {
  int writers = 2, commits = 30;
  std::string store_kind = "memory", dir, policy_spec = "paimon", idempotency = "on", lock_db;
  SimFlags flags;
  ProcessFlags pf;
};

// --processes: the flags that only threads or the simulator take are refused, and the counts
// checked.
Status CheckProcessFlags(const po::variables_map& vm, const ProcessFlags& pf, const SimFlags& flags) {
  for (const char* flag :
       {"writers", "seeds", "schedule", "trace", "verbose", "max-steps", "max-virtual-time", "max-wall-time"}) {
    if (vm.count(flag) && !vm[flag].defaulted())
      return Status::InvalidArgument(fmt::format("--{} does not go with --processes", flag));
  }
  if (flags.sched != "free") return Status::InvalidArgument("--processes runs real processes: --sched must be free");
  if (vm["store"].as<std::string>() != "dir" && !vm["store"].defaulted())
    return Status::InvalidArgument("--processes races on a table directory: --store must be dir");
  if (pf.processes < 1 || pf.processes > 64)
    return Status::InvalidArgument(fmt::format("--processes {} is out of range 1..64", pf.processes));
  if (pf.kills < 0) return Status::InvalidArgument("--kills must not be negative");
  if (!ParseFsync(pf.fsync))
    return Status::InvalidArgument(fmt::format("--fsync '{}' is not one of off, data, all", pf.fsync));
  return Status::OK();
}

// The processes' table directory: --dir, else a fresh one; never one that already holds a table.
Result<std::string> ProcessRaceDir(std::string dir) {
  if (dir.empty()) {
    COMMITLAB_ASSIGN_OR_RETURN(std::string scratch, ScratchDir("race"));
    dir = scratch;
  }
  if (std::error_code ec; std::filesystem::exists(std::filesystem::path(dir) / "snapshot", ec)) {
    return Status::InvalidArgument(
        fmt::format("{} already holds a table; use an empty directory (`commitlab writer` "
                    "joins an existing table)",
                    dir));
  }
  return dir;
}

// What each `commitlab writer` process is started with.
process::ProcessRaceOptions ProcessOptions(const ProcessFlags& pf, const scenarios::RaceSpec& spec,
                                           const SimFlags& flags, const std::string& dir) {
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
  return o;
}

// The settings line that repeats a process race.
RunSettings ProcessLine(const std::vector<std::string>& args, const ProcessFlags& pf, const scenarios::RaceSpec& spec,
                        const SimFlags& flags) {
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
  return line;
}

// A process race's report: one JSON document, or a line per writer, the summary and the leftovers.
void PrintProcessRace(bool json, const ProcessFlags& pf, const scenarios::RaceSpec& spec, const SimFlags& flags,
                      const process::ProcessRaceResult& race, const sim::TableDirReport& table, const RunReport& report,
                      const std::string& dir) {
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
    return;
  }
  for (const process::WriterProcesses& w : race.writers) {
    fmt::print("{}: {} process(es), {} commit(s) acknowledged\n", w.user, w.starts, w.acks.size());
  }
  PrintSummary(report);
  if (pf.kills > 0) fmt::print("{}\n", KillsLine(race));
  fmt::print("leftovers: {} (`commitlab check {}` lists them; --clean-orphans removes them)\n", table.leftovers.size(),
             dir);
}

// --processes: the writers are `commitlab writer` processes on one directory.
int RunRaceProcesses(const po::variables_map& vm, const ProcessFlags& pf, const scenarios::RaceSpec& spec,
                     const SimFlags& flags, const std::string& given_dir, const std::vector<std::string>& args) {
  if (Status st = CheckProcessFlags(vm, pf, flags); !st.ok()) return UsageError(kCommand, st.message());
  Result<std::string> dir = ProcessRaceDir(given_dir);
  if (!dir.ok()) return UsageError(kCommand, dir.status().message());
  const process::ProcessRaceOptions o = ProcessOptions(pf, spec, flags, *dir);
  const bool json = vm.count("json") > 0;
  const RunSettings line = ProcessLine(args, pf, spec, flags);
  if (!json) {
    fmt::print("== Race: {} processes x {} commits on one table directory ({}) ==\n{}\n", pf.processes, spec.commits,
               *dir, line.Line());
  }
  Result<process::ProcessRaceResult> race = process::RunProcessRace(o);
  if (!race.ok()) {
    fmt::print(stderr, "commitlab race: {}\n", race.status().message());
    return kExitUsage;
  }
  Result<sim::TableDirReport> table = sim::CheckTableDir(*dir);
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
  PrintProcessRace(json, pf, spec, flags, *race, *table, report, *dir);
  return report.ok() ? kExitOk : kExitFailed;
}

void AddRaceOptions(po::options_description* options, RaceFlags* f) {
  // clang-format off
  options->add_options()
      ("help,h", "show this help")
      ("catalog", po::value<std::string>(), "Iceberg writers through a catalog instead: `commitlab catalog race` (see its --help)")
      ("writers", po::value(&f->writers)->default_value(2), "number of writers (job-A, job-B, ...), 1..1000")
      ("commits", po::value(&f->commits)->default_value(30), "commits per writer, 1..100000")
      ("store", po::value(&f->store_kind)->default_value("memory"),
       "memory | dir | object:check-then-put | object:locked | object:conditional-put")
      ("dir", po::value(&f->dir), "table directory for --store dir (default: a fresh one under results/tmp)")
      ("lock", po::value(&f->lock_db),
       "with --store object:locked: hold Paimon's JDBC catalog lock in this PostgreSQL database (a libpq conninfo "
       "or postgres:// URI) instead of an in-process flag")
      ("policy", po::value(&f->policy_spec)->default_value("paimon"), "retry policy, e.g. paimon, none, exponential:base=5ms,cap=2s")
      ("idempotency-check", po::value(&f->idempotency)->default_value("on"), "on | off: look for our own snapshot after a failed publish")
      ("verbose", "also print attempts and retry waits")
      ("processes", po::value(&f->pf.processes), "run each writer as its own `commitlab writer` process on one table directory (1..64)")
      ("kills", po::value(&f->pf.kills)->default_value(0), "with --processes: kill -9 a random writer this many times, at moments drawn from --seed, and restart it")
      ("fsync", po::value(&f->pf.fsync)->default_value("off"), "with --processes: off | data | all (docs/multiprocess.md)")
      ("json", "print one JSON report (docs/report.schema.json) instead of the log and summary");
  // clang-format on
  AddSimOptions(options, &f->flags, "free", std::string(sim::kLectureLatencySpec));
}

// The flags that do not go together, in the order a user meets them; the retry policy parsed.
Result<RetryPolicy> ValidateRace(const po::variables_map& vm, RaceFlags* f) {
  const std::string& store_kind = f->store_kind;
  Result<RetryPolicy> policy = ParseRetryPolicy(f->policy_spec);
  if (!policy.ok()) return Status::InvalidArgument(fmt::format("--policy: {}", policy.status().message()));
  if (store_kind != "memory" && store_kind != "dir" && store_kind.rfind("object:", 0) != 0)
    return Status::InvalidArgument(fmt::format("--store '{}' is not one of memory, dir, object:MODE", store_kind));
  if (store_kind.starts_with("object:") && !ParsePublishMode(store_kind.substr(7))) {
    return Status::InvalidArgument(
        fmt::format("--store '{}': expected object:check-then-put, object:locked or "
                    "object:conditional-put",
                    store_kind));
  }
  if (vm.count("dir") && store_kind != "dir" && !vm.count("processes"))
    return Status::InvalidArgument("--dir needs --store dir");
  if (vm.count("lock") && store_kind != "object:locked")
    return Status::InvalidArgument("--lock needs --store object:locked");
  if (vm.count("lock") && vm.count("processes"))
    return Status::InvalidArgument("--lock runs the writers as threads: it does not go with --processes yet");
  if (f->idempotency != "on" && f->idempotency != "off")
    return Status::InvalidArgument(fmt::format("--idempotency-check '{}' is not one of on, off", f->idempotency));
  if (Status st = Validate(vm, &f->flags); !st.ok()) return st;
  if (vm.count("lock") && f->flags.strategy != "free")
    return Status::InvalidArgument(
        "--lock needs --sched free: the lock's rows expire on the server's clock, which a simulated run "
        "does not keep");
  if (!vm.count("processes")) {
    for (const char* flag : {"kills", "fsync"})
      if (!vm[flag].defaulted()) return Status::InvalidArgument(fmt::format("--{} needs --processes", flag));
  }
  if (vm.count("dir") && f->flags.seed_range)
    return Status::InvalidArgument("--dir and --seeds do not go together: each seed needs its own table");
  return policy;
}

// The command's settings, typed, as a history header and the report record them.
sim::Json RaceSettings(const RaceFlags& f, const scenarios::RaceSpec& spec) {
  sim::Json faults = spec.faults;
  sim::Json settings = {{"writers", f.writers},
                        {"commits", f.commits},
                        {"store", f.store_kind},
                        {"policy", spec.policy},
                        {"idempotency_check", spec.idempotency_check},
                        {"latency", spec.latency},
                        {"faults", std::move(faults)},
                        {"seed", f.flags.seed},
                        {"sched", f.flags.sched},
                        {"schedule", f.flags.schedule.empty() ? sim::Json(nullptr) : sim::Json(f.flags.schedule)},
                        {"untimed", f.flags.untimed},
                        {"maybe_faults", f.flags.maybe}};
  AddBudgetSettings(f.flags, &settings);
  return settings;
}

// The settings line that repeats a threaded or simulated race.
RunSettings RaceLine(const std::vector<std::string>& args, const RaceFlags& f, const scenarios::RaceSpec& spec) {
  RunSettings line(WithoutFlags(args, {"--trace", "--timeline", "--dir"}, {"--json", "--verbose"}));
  line.Add("seed", std::to_string(f.flags.seed))
      .Add("sched", f.flags.strategy)
      .Add("writers", std::to_string(f.writers))
      .Add("commits", std::to_string(f.commits))
      .Add("store", f.store_kind)
      .Add("policy", spec.policy)
      .Add("idempotency-check", f.idempotency)
      .Add("latency", spec.latency);
  for (const std::string& fault : spec.faults) line.Add("fault", fault);
  return line;
}

// One run, recorded, with its log (or quiet under --json), then its report.
int RunRaceOnce(const po::variables_map& vm, const RaceFlags& f, const scenarios::Scenario& scenario,
                scenarios::RunOptions run, const sim::Json& settings, const scenarios::RaceSpec& spec,
                const catalogs::JdbcTableLock* lock, const std::vector<std::string>& args) {
  const bool json = vm.count("json") > 0;
  Result<scenarios::RunPlan> plan = scenarios::PlanRun(scenario, run);
  if (!plan.ok()) return UsageError(kCommand, plan.status().message());
  const RunSettings line = RaceLine(args, f, spec);
  Result<std::unique_ptr<RunRecording>> recording =
      RunRecording::Start({.trace = f.flags.trace, .timeline = f.flags.timeline, .explain = f.flags.explain},
                          HistoryHeader(kCommand, line.args(), settings, scenarios::PlanJson(*plan), scenario));
  if (!recording.ok()) return UsageError(kCommand, recording.status().message());
  if (!json) {
    fmt::print("== Race: {} writers x {} commits, {}, store={}{} ==\n{}\n", f.writers, f.commits,
               f.flags.strategy == "free" ? "OS threads and the real clock" : "simulated in virtual time", f.store_kind,
               f.dir.empty() ? "" : " (" + f.dir + ")", line.Line());
  }
  LogPrinter printer(stdout, vm.count("verbose") > 0);
  NullEventSink quiet;
  run.events = json ? static_cast<EventSink*>(&quiet) : &printer;
  run.history = (*recording)->history();
  Result<RunReport> report = scenarios::RunScenario(scenario, run);
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

// The writers as threads or fibers: one run, or every seed of --seeds.
int RunRaceThreads(const po::variables_map& vm, RaceFlags* f, const scenarios::RaceSpec& spec,
                   const std::vector<std::string>& args) {
  Result<scenarios::Scenario> scenario = scenarios::RaceScenario(spec);
  if (!scenario.ok()) return UsageError(kCommand, scenario.status().message());
  scenarios::RunOptions run;
  std::unique_ptr<catalogs::JdbcTableLock> lock;
  if (vm.count("lock")) {
    Result<std::unique_ptr<catalogs::JdbcTableLock>> l =
        catalogs::JdbcTableLock::Open(f->lock_db, {.lock_id = "commitlab.default.race_log"});
    if (!l.ok()) return UsageError(kCommand, fmt::format("--lock: {}", l.status().message()));
    lock = std::move(*l);
    run.table_lock = lock.get();
  }
  const SimFlags& flags = f->flags;
  run.seed = flags.seed;
  run.sched = flags.sched;
  run.schedule = flags.schedule;
  run.untimed = flags.untimed;
  run.choose_fault = scenarios::MaybeFaultChooser(flags.maybe);
  ApplyBudgets(flags, &run);
  const sim::Json settings = RaceSettings(*f, spec);
  const std::string& store_kind = f->store_kind;
  if (flags.seed_range) {
    Result<SeedRangeRun> how = SeedRangeFromFlags(kCommand, args, vm.count("json") > 0, settings, flags,
                                                  store_kind == "dir", "race-seeds", *scenario);
    if (!how.ok()) return UsageError(kCommand, how.status().message());
    how->prepare = [&store_kind](scenarios::RunOptions* o) { return PlaceTable(store_kind, o->dir, o); };
    return RunSeedRange(*scenario, run, {flags.first_seed, flags.last_seed}, *how);
  }
  if (store_kind == "dir" && f->dir.empty()) {
    Result<std::string> scratch = ScratchDir("race");
    if (!scratch.ok()) return UsageError(kCommand, scratch.status().message());
    f->dir = *scratch;
  }
  if (Status st = PlaceTable(store_kind, f->dir, &run); !st.ok()) return UsageError(kCommand, st.message());
  return RunRaceOnce(vm, *f, *scenario, std::move(run), settings, spec, lock.get(), args);
}

// Iceberg writers through a catalog are `commitlab catalog race`: `race --catalog ...` is the same.
bool WantsCatalog(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--catalog" || a.rfind("--catalog=", 0) == 0) return true;
  return false;
}

}  // namespace

int RunRace(const std::vector<std::string>& args) {
  if (WantsCatalog(args)) {
    std::vector<std::string> forwarded = {"race"};
    forwarded.insert(forwarded.end(), args.begin(), args.end());
    return RunCatalog(forwarded);
  }
  po::options_description options("commitlab race [options]");
  RaceFlags f;
  AddRaceOptions(&options, &f);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  Result<RetryPolicy> policy = ValidateRace(vm, &f);
  if (!policy.ok()) return UsageError(kCommand, policy.status().message());
  scenarios::RaceSpec spec{.writers = f.writers,
                           .commits = f.commits,
                           .policy = FormatRetryPolicy(*policy),
                           .idempotency_check = f.idempotency == "on",
                           .object_store = f.store_kind.starts_with("object:") ? f.store_kind.substr(7) : "",
                           .latency = sim::FormatLatencyModel(f.flags.latency)};
  for (const sim::FaultRule& rule : f.flags.faults) spec.faults.push_back(sim::FormatFaultRule(rule));
  if (vm.count("processes")) return RunRaceProcesses(vm, f.pf, spec, f.flags, f.dir, args);
  return RunRaceThreads(vm, &f, spec, args);
}

}  // namespace commitlab::cli
