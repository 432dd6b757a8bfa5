#include "catalog/catalog_race.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "catalog/catalog_writer_json.h"
#include "commitlab/catalogs/rest_catalog.h"
#include "commitlab/catalogs/rest_catalog_server.h"
#include "commitlab/core/file_read.h"
#include "commitlab/core/iceberg/deletes.h"
#include "commitlab/core/iceberg/dir_file_io.h"
#include "commitlab/core/iceberg/maintenance.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/real_env.h"

extern char** environ;

namespace commitlab::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string WriterName(int i) {
  return fmt::format("job-{}", static_cast<char>('A' + i % 26)) + (i >= 26 ? std::to_string(i / 26) : "");
}

std::string TableDir(const std::string& warehouse, const std::string& table) {
  return fmt::format("{}/db/{}", warehouse, table);
}

// The table read back and judged against what the writers were told.
Status Judge(const CatalogRaceOptions& options, iceberg::IcebergCatalog* catalog, iceberg::FileIO* io,
             const std::vector<std::vector<int64_t>>& acked_ids, CatalogRaceReport* r) {
  COMMITLAB_ASSIGN_OR_RETURN(iceberg::MetadataRef m, catalog->Current());
  r->version = m->version;
  r->snapshots = static_cast<int64_t>(m->snapshots.size());
  const iceberg::FileSet& live = m->LiveFiles();
  r->live_files = static_cast<int64_t>(live.size());
  for (auto it = live.begin(); it != live.end(); it = live.upper_bound(it->first))
    if (live.count(it->first) > 1) r->duplicates.push_back(it->first);
  int unknown = 0;
  for (const CatalogWriterResult& w : r->writers) unknown += static_cast<int>(w.unknown);
  if (options.workload == CatalogWorkload::kAppend) {
    for (size_t i = 0; i < acked_ids.size(); ++i)
      for (int64_t id : acked_ids[i]) {
        const std::string path = AppendFilePath(r->writers[i].user, id);
        if (live.count(path) == 0) r->missing.push_back(path);
      }
  } else {
    std::vector<Row> rows;
    if (iceberg::SnapshotRef head = m->CurrentSnapshot())
      for (const auto& entry : live)
        for (Row& row : iceberg::LiveRows(*head, *entry.second)) rows.push_back(std::move(row));
    COMMITLAB_ASSIGN_OR_RETURN(std::optional<int64_t> value, scenarios::CounterValue(rows, kCounterKey));
    r->counter = value.value_or(0);
    r->lost_update = scenarios::CheckCounter(kCounterKey, kCounterStart, kCounterDelta,
                                             static_cast<int>(r->acknowledged), *r->counter, unknown);
  }
  r->orphans = static_cast<int64_t>(iceberg::FindOrphanFiles(*m, io->List()).size());
  return Status::OK();
}

// The writers that failed for a reason of their own (CatalogRaceReport::failed_writers). An unknown
// outcome is the race's when faults were injected to cause it; without them it is a failure (a
// server that answered 500 on a full disk, say).
std::vector<std::string> FailedWriters(const std::vector<CatalogWriterResult>& writers, bool faults_injected) {
  std::vector<std::string> out;
  int64_t acknowledged = 0, unknown = 0;
  for (const CatalogWriterResult& w : writers) {
    acknowledged += w.acknowledged;
    unknown += w.unknown;
    const bool raced = w.error_code == Code::kRetriesExhausted || w.error_code == Code::kConflict ||
                       (w.unknown > 0 && faults_injected);
    if (!w.error.empty() && !raced) out.push_back(fmt::format("{}: {}", w.user, w.error.substr(0, w.error.find('\n'))));
  }
  if (out.empty() && acknowledged == 0 && (unknown == 0 || !faults_injected) && !writers.empty())
    out.push_back("no writer acknowledged a commit");
  return out;
}

Result<CatalogRaceReport> RunThreads(const CatalogRaceOptions& options, const RetryPolicy& policy) {
  CatalogRaceReport r;
  r.catalog = "memory (threads)";
  iceberg::InMemoryCatalog catalog("db." + options.table);
  iceberg::InMemoryFileIO io;
  sim::RealEnv env(options.seed);
  if (options.workload == CatalogWorkload::kCounter) COMMITLAB_RETURN_IF_ERROR(InitCounter(&catalog, &io, &env));
  r.writers.resize(static_cast<size_t>(options.writers));
  std::vector<std::vector<int64_t>> acked(static_cast<size_t>(options.writers));
  std::vector<sim::RealEnv::Writer> bodies;
  for (int i = 0; i < options.writers; ++i) {
    bodies.push_back(
        {WriterName(i), [&, i] {
           const size_t k = static_cast<size_t>(i);
           CatalogWriterOptions o{WriterName(i), options.commits, options.workload, policy, options.on_validation};
           r.writers[k] =
               RunCatalogWriter(o, &catalog, &io, &env, [&](int64_t id, int64_t) { acked[k].push_back(id); });
         }});
  }
  const Clock::time_point start = Clock::now();
  COMMITLAB_RETURN_IF_ERROR(env.RunThreads(std::move(bodies)));
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (const CatalogWriterResult& w : r.writers) r.acknowledged += w.acknowledged;
  r.failed_writers = FailedWriters(r.writers, !options.faults.empty());
  COMMITLAB_RETURN_IF_ERROR(Judge(options, &catalog, &io, acked, &r));
  return r;
}

// A writer process; its output goes to a file in the warehouse, read once it has ended.
struct Child {
  pid_t pid = -1;
  std::string out;
  int status = 0;
  bool done = false;
};

Result<Child> Spawn(const CatalogRaceOptions& options, const std::string& uri, int i) {
  Child c;
  c.out = fmt::format("{}/writer-{}.jsonl", options.warehouse, WriterName(i));
  std::vector<std::string> args = {options.binary,
                                   "catalog",
                                   "writer",
                                   "--catalog",
                                   uri,
                                   "--warehouse",
                                   options.warehouse,
                                   "--table",
                                   options.table,
                                   "--user",
                                   WriterName(i),
                                   "--commits",
                                   std::to_string(options.commits),
                                   "--workload",
                                   std::string(CatalogWorkloadName(options.workload)),
                                   "--policy",
                                   options.policy,
                                   "--on-validation",
                                   std::string(scenarios::OnValidationFailureName(options.on_validation)),
                                   "--seed",
                                   std::to_string(options.seed + static_cast<uint64_t>(i))};
  if (options.catalog.kind == CatalogKind::kJdbc)
    for (const std::string& f : options.faults) args.insert(args.end(), {"--fault", f});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, c.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int rc = ::posix_spawn(&c.pid, options.binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return Status::IOError(fmt::format("cannot start {}: {}", options.binary, ErrnoText(rc)));
  return c;
}

// Waits for every child; past the deadline a watchdog kills each one left and the race fails.
Status WaitAll(std::vector<Child>* children, Clock::time_point deadline) {
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false, timed_out = false;
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> l(mu);
    if (cv.wait_until(l, deadline, [&] { return finished; })) return;
    timed_out = true;
    for (const Child& c : *children)
      if (!c.done) ::kill(c.pid, SIGKILL);
  });
  for (Child& c : *children) {
    // Wait without reaping first: until it is reaped, the pid cannot be reused by another process
    // that the watchdog would then kill.
    siginfo_t info;
    while (::waitid(P_PID, static_cast<id_t>(c.pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
    {
      std::lock_guard<std::mutex> l(mu);
      c.done = true;
    }
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    c.status = status;
  }
  {
    std::lock_guard<std::mutex> l(mu);
    finished = true;
  }
  cv.notify_all();
  watchdog.join();
  if (timed_out) return Status::IOError("a writer process did not finish in time; every writer left was killed");
  return Status::OK();
}

Result<CatalogRaceReport> RunProcesses(const CatalogRaceOptions& options) {
  CatalogRaceReport r;
  std::error_code ec;
  fs::create_directories(options.warehouse, ec);
  if (ec) return Status::InvalidArgument(fmt::format("--warehouse {}: {}", options.warehouse, ec.message()));
  CatalogSpec spec = options.catalog;

  // A REST server of our own, with the server-side faults. Declared after what its fault hook
  // uses, so that it is stopped first.
  sim::ScriptedFaultPlan plan;
  Rng fault_rng(options.seed);
  std::unique_ptr<catalogs::RestCatalogServer> server;
  if (spec.kind == CatalogKind::kRest && spec.uri.empty()) {
    for (const std::string& f : options.faults) {
      COMMITLAB_ASSIGN_OR_RETURN(sim::FaultRule rule, sim::ParseFaultRule(f));
      plan.AddRule(rule);
    }
    Result<std::unique_ptr<catalogs::RestCatalogServer>> s = catalogs::RestCatalogServer::Start(
        {.warehouse = options.warehouse + "/catalog", .faults = [&](std::string_view writer, std::string_view point) {
           sim::FaultDecision d = plan.Check(writer, point, fault_rng);
           return catalogs::RestFaultDecision{d.status, d.delay_micros};
         }});
    if (!s.ok()) return s.status();
    server = std::move(*s);
    spec.uri = fmt::format("rest://127.0.0.1:{}", server->port());
  } else if (spec.kind == CatalogKind::kRest && !options.faults.empty()) {
    return Status::InvalidArgument(
        "--fault with --catalog rest://...: faults are injected by the server; "
        "give them to `commitlab catalog serve`, or use --catalog rest");
  }
  r.catalog = fmt::format("{} (processes)", spec.kind == CatalogKind::kJdbc ? "postgres" : spec.uri);

  COMMITLAB_ASSIGN_OR_RETURN(SharedTable setup,
                             OpenSharedTable(spec, options.warehouse, options.table, "setup", nullptr));
  if (auto* rest = dynamic_cast<catalogs::RestCatalog*>(setup.catalog.get())) {
    if (Status st = rest->CreateTable(); !st.ok())
      return st.code() == Code::kConflict
                 ? Status::InvalidArgument(fmt::format("{}; start from a fresh table (--table)", st.message()))
                 : st;
  } else if (auto* jdbc = dynamic_cast<catalogs::JdbcCatalog*>(setup.catalog.get())) {
    if (Status st = jdbc->CreateTable(std::make_shared<const iceberg::TableMetadata>(
            iceberg::NewTableMetadata("db." + options.table, 0, catalogs::NewTableUuid())));
        !st.ok())
      return st.code() == Code::kConflict
                 ? Status::InvalidArgument(fmt::format("{}; start from a fresh table (--table)", st.message()))
                 : st;
  }
  sim::RealEnv setup_env(options.seed);
  if (options.workload == CatalogWorkload::kCounter)
    COMMITLAB_RETURN_IF_ERROR(InitCounter(setup.catalog.get(), setup.io.get(), &setup_env));

  const Clock::time_point start = Clock::now();
  std::vector<Child> children;
  for (int i = 0; i < options.writers; ++i) {
    Result<Child> c = Spawn(options, spec.uri, i);
    if (!c.ok()) {
      for (Child& started : children) ::kill(started.pid, SIGKILL);
      for (Child& started : children) ::waitpid(started.pid, nullptr, 0);
      return c.status();
    }
    children.push_back(*c);
  }
  COMMITLAB_RETURN_IF_ERROR(WaitAll(&children, start + std::chrono::microseconds(options.timeout_micros)));
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();

  std::vector<std::vector<int64_t>> acked(children.size());
  for (size_t i = 0; i < children.size(); ++i) {
    Result<std::string> text = ReadRegularFile(children[i].out, size_t{64} << 20);
    CatalogWriterOutput out;
    if (text.ok()) out = ParseCatalogWriterOutput(*text);
    CatalogWriterResult w = out.summary.value_or(CatalogWriterResult{});
    w.user = WriterName(static_cast<int>(i));
    if (!out.summary) {
      w.error = WIFSIGNALED(children[i].status)
                    ? fmt::format("the process died of signal {} before its summary", WTERMSIG(children[i].status))
                    : fmt::format("the process exited {} without a summary", WEXITSTATUS(children[i].status));
      w.error_code = Code::kIOError;
      w.acknowledged = static_cast<int64_t>(out.acks.size());
    }
    for (const auto& [id, snapshot] : out.acks) acked[i].push_back(id);
    for (std::string& f : out.fired) r.fired_faults.push_back(std::move(f));
    r.acknowledged += static_cast<int64_t>(acked[i].size());
    r.writers.push_back(std::move(w));
  }
  for (const sim::FiredFault& f : plan.fired()) r.fired_faults.push_back(sim::FormatFiredFault(f));
  r.failed_writers = FailedWriters(r.writers, !options.faults.empty());
  if (Status st = Judge(options, setup.catalog.get(), setup.io.get(), acked, &r); !st.ok())
    return Status::IOError(
        fmt::format("the writers ran, but the table cannot be read back to judge them: {}", st.message()));
  return r;
}

}  // namespace

std::string_view CatalogKindName(CatalogKind k) {
  switch (k) {
    case CatalogKind::kMemory: return "memory";
    case CatalogKind::kRest: return "rest";
    case CatalogKind::kJdbc: return "jdbc";
  }
  return "?";
}

Result<CatalogSpec> ParseCatalogSpec(std::string_view s) {
  if (s == "memory") return CatalogSpec{CatalogKind::kMemory, ""};
  if (s == "rest") return CatalogSpec{CatalogKind::kRest, ""};
  if (s.substr(0, 7) == "rest://") {
    COMMITLAB_RETURN_IF_ERROR((catalogs::ParseRestUri(s)).status());
    return CatalogSpec{CatalogKind::kRest, std::string(s)};
  }
  if (s.substr(0, 11) == "postgres://" || s.substr(0, 13) == "postgresql://" || s.find('=') != std::string_view::npos)
    return CatalogSpec{CatalogKind::kJdbc, std::string(s)};
  return Status::InvalidArgument(
      fmt::format("--catalog '{}' is not one of memory, rest, rest://HOST:PORT, or a PostgreSQL URI or conninfo", s));
}

Result<SharedTable> OpenSharedTable(const CatalogSpec& spec, const std::string& warehouse, const std::string& table,
                                    const std::string& writer, Env* env) {
  SharedTable t;
  const std::string dir = TableDir(warehouse, table);
  std::error_code ec;
  fs::create_directories(dir + "/files", ec);
  if (ec) return Status::InvalidArgument(fmt::format("--warehouse {}: {}", warehouse, ec.message()));
  t.io = std::make_unique<iceberg::DirFileIO>(dir + "/files");
  if (spec.kind == CatalogKind::kRest) {
    COMMITLAB_ASSIGN_OR_RETURN(catalogs::RestEndpoint e, catalogs::ParseRestUri(spec.uri));
    e.table = table;
    e.writer = writer;
    t.catalog = std::make_unique<catalogs::RestCatalog>(e);
  } else if (spec.kind == CatalogKind::kJdbc) {
    t.metadata_files = std::make_unique<catalogs::MetadataFiles>(dir);
    COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<catalogs::JdbcCatalog> c,
                               catalogs::JdbcCatalog::Open(spec.uri, {.name = table}, t.metadata_files.get(), env));
    t.catalog = std::move(c);
  } else {
    return Status::InvalidArgument("the memory catalog lives in one process: it has no shared table");
  }
  return t;
}

Result<CatalogRaceReport> RunCatalogRace(const CatalogRaceOptions& options) {
  Result<RetryPolicy> policy = ParseRetryPolicy(options.policy);
  if (!policy.ok()) return Status::InvalidArgument(fmt::format("--policy: {}", policy.status().message()));
  for (const std::string& f : options.faults) {
    Result<sim::FaultRule> rule = sim::ParseFaultRule(f);
    if (!rule.ok()) return Status::InvalidArgument(fmt::format("--fault: {}", rule.status().message()));
    if (rule->point != fault::kCatalogBefore && rule->point != fault::kCatalogAfter)
      return Status::InvalidArgument(fmt::format("--fault {}: a catalog race injects faults at {} and {} only", f,
                                                 fault::kCatalogBefore, fault::kCatalogAfter));
    if (rule->effect.kind == sim::FaultEffect::Kind::kCrash)
      return Status::InvalidArgument(fmt::format(
          "--fault {}: a race cannot crash its catalog (the REST server it starts is this process); crash a server of "
          "its own: `commitlab catalog serve --fault ...` and --catalog rest://HOST:PORT",
          f));
  }
  if (options.catalog.kind == CatalogKind::kMemory) {
    if (!options.faults.empty())
      return Status::InvalidArgument(
          "--fault: the memory catalog has no server to fail (use --catalog rest or postgres)");
    return RunThreads(options, *policy);
  }
  if (options.warehouse.empty()) return Status::InvalidArgument("--warehouse is required with a shared catalog");
  return RunProcesses(options);
}

}  // namespace commitlab::cli
