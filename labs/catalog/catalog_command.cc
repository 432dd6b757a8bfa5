// `commitlab catalog serve | race | bench | writer`: Iceberg catalogs on real servers. `serve` runs
// the REST catalog (core/catalogs/rest_catalog_server.h); `race` runs N writers through a catalog
// and judges the table (catalog_race.h); `bench` runs races over writer counts and policies;
// `writer` is one of those writers as its own process.
#include <signal.h>
#include <sys/random.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "catalog/catalog_race.h"
#include "catalog/catalog_writer_json.h"
#include "commands/cli.h"
#include "commitlab/catalogs/rest_catalog_server.h"
#include "commitlab/core/env_wrapper.h"
#include "commitlab/core/file_write.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/real_env.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

std::optional<CatalogWorkload> ParseWorkload(std::string_view s) {
  if (s == "append") return CatalogWorkload::kAppend;
  if (s == "counter") return CatalogWorkload::kCounter;
  return std::nullopt;
}

Result<std::vector<sim::FaultRule>> CatalogFaults(const std::vector<std::string>& specs) {
  std::vector<sim::FaultRule> out;
  for (const std::string& spec : specs) {
    COMMITLAB_ASSIGN_OR_RETURN(sim::FaultRule rule, sim::ParseFaultRule(spec));
    if (rule.point != fault::kCatalogBefore && rule.point != fault::kCatalogAfter)
      return Status::InvalidArgument(
          fmt::format("{}: a catalog fails at {} or {} only", spec, fault::kCatalogBefore, fault::kCatalogAfter));
    out.push_back(rule);
  }
  return out;
}

int Serve(const std::vector<std::string>& args) {
  constexpr std::string_view kCommand = "catalog serve";
  po::options_description options(
      "commitlab catalog serve --warehouse DIR [--port P] [options]\n\n"
      "Serves the Iceberg REST catalog (config, namespaces, tables, and the table commit with its\n"
      "requirements and updates, as the specification has them) on a loopback address until\n"
      "interrupted, keeping its tables in DIR, which no other server may serve meanwhile. Writers reach\n"
      "it as --catalog rest://127.0.0.1:P, any REST client as http://127.0.0.1:P.\n\nOptions");
  catalogs::RestServerOptions o;
  std::vector<std::string> fault_specs;
  std::string port_file;
  int port = 8181;
  uint64_t seed = 1;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("warehouse", po::value(&o.warehouse), "the folder holding the tables (created if absent)")
      ("port", po::value(&port)->default_value(8181), "TCP port, 0 for any free one (see --port-file)")
      ("address", po::value(&o.address)->default_value("127.0.0.1"), "a loopback address: 127.0.0.1 or ::1")
      ("port-file", po::value(&port_file), "write the port here once listening")
      ("seed", po::value(&seed)->default_value(1), "seed of p= faults (table uuids are random, never seeded)")
      ("fault", po::value(&fault_specs)->composing(),
       "WRITER:catalog.before|catalog.after:TRIGGER:EFFECT: error before = 503, nothing applied; error after = "
       "applied, connection closed unanswered; delay=D holds the request; crash ends the server (repeatable)");
  // clang-format on
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (o.warehouse.empty()) return UsageError(kCommand, "--warehouse is required");
  if (port < 0 || port > 65535) return UsageError(kCommand, fmt::format("--port {} is not 0..65535", port));
  o.port = static_cast<uint16_t>(port);
  Result<std::vector<sim::FaultRule>> rules = CatalogFaults(fault_specs);
  if (!rules.ok()) return UsageError(kCommand, fmt::format("--fault {}", rules.status().message()));
  sim::ScriptedFaultPlan plan(*rules);
  Rng rng(seed);
  if (!rules->empty()) {
    o.faults = [&](std::string_view writer, std::string_view point) {
      sim::FaultDecision d = plan.Check(writer, point, rng);
      if (!d.status.ok() || d.delay_micros > 0)
        fmt::print("fault at {} for {}: {}\n", point, writer.empty() ? "?" : writer,
                   d.status.ok() ? fmt::format("delay {} us", d.delay_micros) : d.status.message());
      std::fflush(stdout);
      return catalogs::RestFaultDecision{d.status, d.delay_micros};
    };
  }
  // Block the signals before the server's thread starts, so that only sigwait below takes them.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  Result<std::unique_ptr<catalogs::RestCatalogServer>> server = catalogs::RestCatalogServer::Start(o);
  if (!server.ok()) {
    fmt::print(stderr, "commitlab catalog serve: {}\n", server.status().message());
    return kExitUsage;
  }
  if (!port_file.empty()) {
    Status st = WriteFileAtomically(port_file, fmt::format("{}\n", (*server)->port()));
    if (!st.ok()) {
      fmt::print(stderr, "commitlab catalog serve: --port-file: {}\n", st.message());
      return kExitUsage;
    }
  }
  fmt::print("commitlab catalog serve: listening on rest://{}:{} (warehouse {}); stop with Ctrl-C\n", o.address,
             (*server)->port(), o.warehouse);
  std::fflush(stdout);
  int signal = 0;
  sigwait(&stop, &signal);
  (*server)->Stop();
  fmt::print("commitlab catalog serve: stopped after {} request(s), {} commit(s), {} bytes of bodies\n",
             (*server)->requests(), (*server)->commits(), (*server)->body_bytes());
  return kExitOk;
}

// A writer process's Env: the wall clock, so that snapshot timestamps and last-updated-ms are
// milliseconds since the epoch as engines date them (RealEnv's clock counts from the writer's
// start); and a random stream of its own for uuids and retry waits, so that a writer restarted with
// the same flags names its commits' files anew instead of colliding with its earlier run's.
class WriterProcessEnv final : public EnvWrapper {
 public:
  explicit WriterProcessEnv(Env* target) : EnvWrapper(target), rng_(SystemSeed()) {}
  int64_t NowMicros() override {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  Rng& rng() override { return rng_; }  // the one writer thread draws from it

 private:
  static uint64_t SystemSeed() {
    uint64_t seed = 0;
    if (::getrandom(&seed, sizeof seed, 0) != static_cast<ssize_t>(sizeof seed))
      seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
             static_cast<uint64_t>(::getpid());
    return seed;
  }
  Rng rng_;
};

int Writer(const std::vector<std::string>& args) {
  constexpr std::string_view kCommand = "catalog writer";
  po::options_description options(
      "commitlab catalog writer --catalog URI --warehouse DIR --user U [options]\n\n"
      "One Iceberg writer as its own process, for `commitlab catalog race`: commits --commits times\n"
      "through the catalog and prints one JSON line per acknowledged commit, then a summary line.\n"
      "Exit 0: every commit acknowledged; 1: a commit failed; 2: bad input.\n\nOptions");
  std::string catalog, warehouse, table = "tbl", user, workload = "append", policy = "iceberg",
                                  on_validation = "give-up";
  int64_t commits = 10;
  uint64_t seed = 1;
  std::vector<std::string> fault_specs;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("catalog", po::value(&catalog), "rest://HOST:PORT, or PostgreSQL (a postgres:// URI or conninfo)")
      ("warehouse", po::value(&warehouse), "the shared folder of data and metadata files")
      ("table", po::value(&table)->default_value("tbl"), "the table, in namespace db")
      ("user", po::value(&user), "the writer's name")
      ("commits", po::value(&commits)->default_value(10), "commits to make, 1..100000")
      ("workload", po::value(&workload)->default_value("append"), "append | counter")
      ("policy", po::value(&policy)->default_value("iceberg"), "retry policy")
      ("on-validation", po::value(&on_validation)->default_value("give-up"), "counter: give-up | recommit-stale | reread")
      ("seed", po::value(&seed)->default_value(1), "seed of p= faults (uuids and retry waits are random: a restarted writer must not repeat its file names)")
      ("fault", po::value(&fault_specs)->composing(), "PostgreSQL: WRITER:catalog.before|catalog.after:TRIGGER:EFFECT (repeatable)");
  // clang-format on
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (catalog.empty() || warehouse.empty() || user.empty())
    return UsageError(kCommand, "--catalog, --warehouse and --user are required");
  Result<CatalogSpec> spec = ParseCatalogSpec(catalog);
  if (!spec.ok()) return UsageError(kCommand, spec.status().message());
  if (spec->uri.empty())
    return UsageError(kCommand, "--catalog: a writer process needs rest://HOST:PORT or PostgreSQL");
  if (commits < 1 || commits > 100000) return UsageError(kCommand, "--commits must be 1..100000");
  CatalogWriterOptions o;
  o.user = user;
  o.commits = commits;
  std::optional<CatalogWorkload> w = ParseWorkload(workload);
  if (!w) return UsageError(kCommand, fmt::format("--workload '{}' is not one of append, counter", workload));
  o.workload = *w;
  Result<RetryPolicy> retry = ParseRetryPolicy(policy);
  if (!retry.ok()) return UsageError(kCommand, fmt::format("--policy: {}", retry.status().message()));
  o.retry = *retry;
  std::optional<scenarios::OnValidationFailure> v = scenarios::ParseOnValidationFailure(on_validation);
  if (!v)
    return UsageError(kCommand,
                      fmt::format("--on-validation '{}' is not one of give-up, recommit-stale, reread", on_validation));
  o.on_validation = *v;
  Result<std::vector<sim::FaultRule>> rules = CatalogFaults(fault_specs);
  if (!rules.ok()) return UsageError(kCommand, fmt::format("--fault {}", rules.status().message()));
  if (!rules->empty() && spec->kind != CatalogKind::kJdbc)
    return UsageError(kCommand, "--fault: a REST catalog's faults are the server's (catalog serve --fault)");

  sim::ScriptedFaultPlan plan(*rules);
  sim::RealEnv threads(seed, &plan);
  WriterProcessEnv env(&threads);
  Result<SharedTable> t = OpenSharedTable(*spec, warehouse, table, user, &env);
  if (!t.ok()) {
    fmt::print(stderr, "commitlab catalog writer: {}\n", t.status().message());
    return kExitUsage;
  }
  CatalogWriterResult result;
  Status ran = threads.RunThreads({{user, [&] {
                                      result = RunCatalogWriter(o, t->catalog.get(), t->io.get(), &env,
                                                                [](int64_t id, int64_t snapshot) {
                                                                  // Out before the next commit starts.
                                                                  WriteText(stdout, CatalogAckLine(id, snapshot));
                                                                  std::fflush(stdout);
                                                                });
                                    }}});
  if (!ran.ok()) {
    fmt::print(stderr, "commitlab catalog writer: {}\n", ran.message());
    return kExitUsage;
  }
  std::vector<std::string> fired;
  for (const sim::FiredFault& f : plan.fired()) fired.push_back(sim::FormatFiredFault(f));
  WriteText(stdout, CatalogSummaryLine(result, fired));
  return result.error.empty() ? kExitOk : kExitFailed;
}

void PrintRaceReport(const CatalogRaceOptions& o, const CatalogRaceReport& r) {
  fmt::print("catalog race: {} writer(s) x {} commit(s) ({}, policy {}) through {}\n", o.writers, o.commits,
             CatalogWorkloadName(o.workload), o.policy, r.catalog);
  for (const CatalogWriterResult& w : r.writers) {
    fmt::print("  {}: {} acknowledged; {} attempt(s), {} lost swap(s), {} conflict(s), {} unknown{}\n", w.user,
               w.acknowledged, w.stats.attempts, w.stats.atomic_failures, w.stats.conflicts, w.unknown,
               w.error.empty() ? "" : fmt::format("; stopped: {}", w.error.substr(0, w.error.find('\n'))));
  }
  for (const std::string& f : r.fired_faults) fmt::print("  fault fired: {}\n", f);
  fmt::print("table: version {}, {} snapshot(s), {} live data file(s), {} orphan file(s)\n", r.version, r.snapshots,
             r.live_files, r.orphans);
  if (o.workload == CatalogWorkload::kAppend) {
    if (r.missing.empty() && r.duplicates.empty()) {
      fmt::print("every acknowledged commit is in the table ({} of {}), none twice\n", r.acknowledged, r.acknowledged);
    } else {
      for (const std::string& m : r.missing) fmt::print("VIOLATION: acknowledged but not in the table: {}\n", m);
      for (const std::string& d : r.duplicates) fmt::print("VIOLATION: in the table twice: {}\n", d);
    }
  } else if (r.lost_update) {
    fmt::print("VIOLATION: {}\n", *r.lost_update);
  } else {
    fmt::print("counter {} = {}: {} acknowledged increment(s) of {} from {}, nothing lost\n", kCounterKey,
               r.counter.value_or(0), r.acknowledged, kCounterDelta, kCounterStart);
  }
  for (const std::string& f : r.failed_writers) fmt::print("FAILED: {}\n", f);
  fmt::print("throughput: {} commit(s) in {:.2f} s = {:.1f} commits/s\n", r.acknowledged, r.wall_seconds,
             r.wall_seconds > 0 ? static_cast<double>(r.acknowledged) / r.wall_seconds : 0.0);
}

int Race(const std::vector<std::string>& args) {
  constexpr std::string_view kCommand = "catalog race";
  po::options_description options(
      "commitlab catalog race --catalog memory|rest|rest://HOST:PORT|postgres://... [options]\n\n"
      "N Iceberg writers through one catalog, then the table read back and judged: is every\n"
      "acknowledged commit there (append), is no increment lost (counter). Through the memory catalog\n"
      "the writers are threads; otherwise each is a `commitlab catalog writer` process on a shared\n"
      "warehouse folder, and `rest` starts a REST catalog server on a free loopback port first.\n"
      "Exit 0: the table holds what the writers were told; 1: it does not, or a writer failed for a reason\n"
      "of its own (not a lost race, a refused validation or an unknown outcome); 2: bad input.\n\nOptions");
  CatalogRaceOptions o;
  std::string catalog = "memory", workload = "append", on_validation = "give-up";
  int processes = 0;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("catalog", po::value(&catalog)->default_value("memory"), "memory | rest | rest://HOST:PORT | a PostgreSQL URI or conninfo")
      ("writers", po::value(&o.writers)->default_value(2), "writers, 1..64")
      ("processes", po::value(&processes), "the same as --writers, for a catalog on a real server")
      ("commits", po::value(&o.commits)->default_value(10), "commits per writer, 1..100000")
      ("workload", po::value(&workload)->default_value("append"), "append | counter (adds 5 to hits, from 10)")
      ("policy", po::value(&o.policy)->default_value("iceberg"), "retry policy, e.g. iceberg, none, iceberg:retries=0")
      ("on-validation", po::value(&on_validation)->default_value("give-up"), "counter: give-up | recommit-stale | reread")
      ("warehouse", po::value(&o.warehouse), "shared folder of data and metadata files (required but for memory; must not hold the table yet)")
      ("table", po::value(&o.table)->default_value("tbl"), "the table, in namespace db")
      ("fault", po::value(&o.faults)->composing(), "WRITER:catalog.before|catalog.after:TRIGGER:EFFECT (repeatable)")
      ("seed", po::value(&o.seed)->default_value(1), "seed of retry waits, uuids and p= faults")
      ("json", "print the report as one JSON object");
  // clang-format on
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  Result<CatalogSpec> spec = ParseCatalogSpec(catalog);
  if (!spec.ok()) return UsageError(kCommand, spec.status().message());
  o.catalog = *spec;
  if (vm.count("processes")) {
    if (o.catalog.kind == CatalogKind::kMemory)
      return UsageError(kCommand, "--processes: the memory catalog lives in one process (use --writers)");
    if (!vm["writers"].defaulted()) return UsageError(kCommand, "--processes and --writers say the same; give one");
    o.writers = processes;
  }
  if (o.writers < 1 || o.writers > 64) return UsageError(kCommand, "--writers must be 1..64");
  if (o.commits < 1 || o.commits > 100000) return UsageError(kCommand, "--commits must be 1..100000");
  std::optional<CatalogWorkload> w = ParseWorkload(workload);
  if (!w) return UsageError(kCommand, fmt::format("--workload '{}' is not one of append, counter", workload));
  o.workload = *w;
  std::optional<scenarios::OnValidationFailure> v = scenarios::ParseOnValidationFailure(on_validation);
  if (!v)
    return UsageError(kCommand,
                      fmt::format("--on-validation '{}' is not one of give-up, recommit-stale, reread", on_validation));
  o.on_validation = *v;
  o.binary = "/proc/self/exe";
  Result<CatalogRaceReport> r = RunCatalogRace(o);
  if (!r.ok()) {
    if (r.status().code() == Code::kInvalidArgument) return UsageError(kCommand, r.status().message());
    fmt::print(stderr, "commitlab catalog race: {}\n", r.status().message());
    return kExitUsage;
  }
  if (vm.count("json")) {
    sim::Json writers = sim::Json::array();
    for (const CatalogWriterResult& wr : r->writers)
      writers.push_back({{"user", wr.user},
                         {"acknowledged", wr.acknowledged},
                         {"attempts", wr.stats.attempts},
                         {"atomic_failures", wr.stats.atomic_failures},
                         {"conflicts", wr.stats.conflicts},
                         {"unknown", wr.unknown},
                         {"error", wr.error}});
    sim::Json out = {{"catalog", r->catalog},
                     {"workload", std::string(CatalogWorkloadName(o.workload))},
                     {"policy", o.policy},
                     {"writers", std::move(writers)},
                     {"acknowledged", r->acknowledged},
                     {"version", r->version},
                     {"snapshots", r->snapshots},
                     {"live_files", r->live_files},
                     {"orphans", r->orphans},
                     {"missing", r->missing},
                     {"duplicates", r->duplicates},
                     {"counter", r->counter ? sim::Json(*r->counter) : sim::Json(nullptr)},
                     {"lost_update", r->lost_update ? sim::Json(*r->lost_update) : sim::Json(nullptr)},
                     {"fired_faults", r->fired_faults},
                     {"wall_seconds", r->wall_seconds},
                     {"violated", r->violated()},
                     {"failed_writers", r->failed_writers}};
    WriteText(stdout, out.dump() + "\n");
  } else {
    PrintRaceReport(o, *r);
  }
  return r->violated() || !r->failed_writers.empty() ? kExitFailed : kExitOk;
}

// Commits per second through a real catalog: one race per (writer count, policy), each on a
// fresh table, as a markdown table.
int Bench(const std::vector<std::string>& args) {
  constexpr std::string_view kCommand = "catalog bench";
  po::options_description options(
      "commitlab catalog bench --catalog rest|rest://HOST:PORT|postgres://... --warehouse DIR [options]\n\n"
      "Runs `catalog race` (append) for each writer count and retry policy, each on a fresh table, and\n"
      "prints commits per second, attempts per commit and give-ups as a markdown table.\n\nOptions");
  std::string catalog = "rest", processes = "1,2,4,8", policies = "iceberg", warehouse;
  int64_t commits = 20;
  uint64_t seed = 1;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("catalog", po::value(&catalog)->default_value("rest"), "memory | rest | rest://HOST:PORT | a PostgreSQL URI or conninfo")
      ("processes", po::value(&processes)->default_value("1,2,4,8"), "writer counts, e.g. 1,2,4,8")
      ("policies", po::value(&policies)->default_value("iceberg"), "retry policies, ';'-separated, e.g. 'iceberg;none;full-jitter'")
      ("commits", po::value(&commits)->default_value(20), "commits per writer, 1..100000")
      ("warehouse", po::value(&warehouse), "shared folder (required but for memory); each run gets its own table")
      ("seed", po::value(&seed)->default_value(1), "seed of retry waits and uuids");
  // clang-format on
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  Result<CatalogSpec> spec = ParseCatalogSpec(catalog);
  if (!spec.ok()) return UsageError(kCommand, spec.status().message());
  Result<std::vector<int>> counts = sim::ParseIntList(processes, 1, 64);
  if (!counts.ok()) return UsageError(kCommand, fmt::format("--processes: {}", counts.status().message()));
  if (commits < 1 || commits > 100000) return UsageError(kCommand, "--commits must be 1..100000");
  std::vector<std::string> policy_list;
  for (size_t start = 0; start <= policies.size();) {
    const size_t end = std::min(policies.find(';', start), policies.size());
    if (end > start) policy_list.push_back(policies.substr(start, end - start));
    start = end + 1;
  }
  for (const std::string& p : policy_list)
    if (Result<RetryPolicy> r = ParseRetryPolicy(p); !r.ok())
      return UsageError(kCommand, fmt::format("--policies: {}", r.status().message()));
  fmt::print(
      "| catalog | writers | policy | commits/s | attempts per commit | lost swaps | writers that gave up | wall s |\n"
      "|---|---:|---|---:|---:|---:|---:|---:|\n");
  int run = 0;
  for (const std::string& policy : policy_list) {
    for (int n : *counts) {
      CatalogRaceOptions o;
      o.catalog = *spec;
      o.warehouse = warehouse;
      // A name of its own in a database that outlives the run (PostgreSQL keeps earlier benches' rows).
      o.table = fmt::format("bench{}_{}", ::getpid(), ++run);
      o.writers = n;
      o.commits = commits;
      o.policy = policy;
      o.seed = seed;
      o.binary = "/proc/self/exe";
      Result<CatalogRaceReport> r = RunCatalogRace(o);
      if (!r.ok()) {
        if (r.status().code() == Code::kInvalidArgument) return UsageError(kCommand, r.status().message());
        fmt::print(stderr, "commitlab catalog bench: {}\n", r.status().message());
        return kExitUsage;
      }
      int64_t attempts = 0, lost = 0, gave_up = 0;
      for (const CatalogWriterResult& w : r->writers) {
        attempts += w.stats.attempts;
        lost += w.stats.atomic_failures;
        gave_up += w.error.empty() ? 0 : 1;
      }
      fmt::print("| {} | {} | {} | {:.1f} | {:.2f} | {} | {} | {:.2f} |\n", CatalogKindName(spec->kind), n, policy,
                 r->wall_seconds > 0 ? static_cast<double>(r->acknowledged) / r->wall_seconds : 0.0,
                 r->acknowledged > 0 ? static_cast<double>(attempts) / static_cast<double>(r->acknowledged) : 0.0, lost,
                 gave_up, r->wall_seconds);
      std::fflush(stdout);
      if (r->violated()) {
        fmt::print(stderr, "commitlab catalog bench: the table does not hold what the writers were told\n");
        return kExitFailed;
      }
    }
  }
  return kExitOk;
}

}  // namespace

int RunCatalog(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: commitlab catalog serve | race | bench | writer [options]   (--help after each for its options)";
  if (args.empty()) return UsageError("catalog", usage);
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "serve") return Serve(rest);
  if (args[0] == "race") return Race(rest);
  if (args[0] == "bench") return Bench(rest);
  if (args[0] == "writer") return Writer(rest);
  if (args[0] == "--help" || args[0] == "-h") {
    fmt::print("{}\n", usage);
    return kExitOk;
  }
  return UsageError("catalog", fmt::format("'{}' is not serve, race, bench or writer; {}", args[0], usage));
}

}  // namespace commitlab::cli
