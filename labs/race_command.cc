// `commitlab race`: the lecture's scenario 1. N writers append M commits each to one table and
// race for snapshot ids; every commit must land exactly once.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>

#include "cli.h"
#include "commitlab/core/dir_store.h"
#include "commitlab/core/json.h"
#include "commitlab/core/memory_store.h"
#include "commitlab/sim/race.h"
#include "log_printer.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr std::string_view kCommand = "race";

// A fresh directory for the table: under results/tmp when run from the project (ignored by git),
// else under the system's temp directory.
std::string FreshTableDir() {
  const auto stamp = std::chrono::system_clock::now().time_since_epoch().count();
  fs::path parent = fs::is_directory("results") ? fs::path("results/tmp") : fs::temp_directory_path() / "commitlab";
  return (parent / fmt::format("race-{}-{}", getpid(), stamp % 1'000'000)).string();
}

std::string ReportJson(const sim::RaceReport& r) {
  std::string writers, per_user;
  for (const sim::WriterReport& w : r.writers) {
    writers += fmt::format("{}{}: {{\"commits_ok\": {}, \"attempts\": {}, \"atomic_failures\": {}, "
                           "\"unknown_outcomes\": {}, \"error\": {}}}",
                           writers.empty() ? "" : ", ", JsonQuote(w.name), w.commits_ok, w.attempts, w.atomic_failures,
                           w.unknown_outcomes, w.error.empty() ? "null" : JsonQuote(w.error));
  }
  for (const auto& [user, n] : r.snapshots_per_user)
    per_user += fmt::format("{}{}: {}", per_user.empty() ? "" : ", ", JsonQuote(user), n);
  std::string violations;
  for (const std::string& v : r.violations) violations += (violations.empty() ? "" : ", ") + JsonQuote(v);
  return fmt::format(
      "{{\"latest_snapshot\": {}, \"failed_jobs\": {}, \"atomic_failures\": {}, \"writers\": {{{}}}, "
      "\"snapshots_per_user\": {{{}}}, \"invariants_ok\": {}, \"violations\": [{}]}}\n",
      r.latest_snapshot, r.failed_jobs, r.atomic_failures, writers, per_user, r.violations.empty() ? "true" : "false",
      violations);
}

void PrintSummary(const sim::RaceReport& r) {
  std::string per_writer, per_user;
  for (const sim::WriterReport& w : r.writers) {
    per_writer += fmt::format("{}{} {}", per_writer.empty() ? "" : ", ", w.name, w.atomic_failures);
    if (!w.error.empty()) fmt::print("{} failed: {}\n", w.name, w.error.substr(0, w.error.find('\n')));
  }
  for (const auto& [user, n] : r.snapshots_per_user)
    per_user += fmt::format("{}{}={}", per_user.empty() ? "" : ", ", user, n);
  fmt::print("\natomic commit failures: {} ({})\n", r.atomic_failures, per_writer);
  fmt::print("failed jobs: {}\n", r.failed_jobs);
  fmt::print("latest snapshot id: {}\n", r.latest_snapshot);
  fmt::print("snapshots per commit user: {{{}}}\n", per_user);
  if (r.violations.empty()) {
    fmt::print("invariants: ok (every commit landed exactly once, ids contiguous)\n");
  } else {
    fmt::print("invariants: VIOLATED\n");
    for (const std::string& v : r.violations) fmt::print("  - {}\n", v);
  }
}

}  // namespace

int RunRace(const std::vector<std::string>& args) {
  po::options_description options("commitlab race [options]");
  int writers = 2, commits = 30;
  uint64_t seed = 1;
  std::string store_kind = "memory", dir, policy_spec = "paimon";
  options.add_options()
      ("help,h", "show this help")
      ("writers", po::value(&writers)->default_value(2), "number of writers (job-A, job-B, ...), 1..1000")
      ("commits", po::value(&commits)->default_value(30), "commits per writer, 1..100000")
      ("store", po::value(&store_kind)->default_value("memory"), "memory | dir")
      ("dir", po::value(&dir), "table directory for --store dir (default: a fresh one under results/tmp)")
      ("policy", po::value(&policy_spec)->default_value("paimon"), "retry policy, e.g. paimon, none, exponential:base=5ms,cap=2s")
      ("seed", po::value(&seed)->default_value(1), "seed of the writers' random streams (jitter, file names)")
      ("verbose", "also print attempts and retry waits")
      ("json", "print one JSON object instead of the log and summary");
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (writers < 1 || writers > 1000) return UsageError(kCommand, fmt::format("--writers {} is out of range 1..1000", writers));
  if (commits < 1 || commits > 100000) return UsageError(kCommand, fmt::format("--commits {} is out of range 1..100000", commits));
  Result<RetryPolicy> policy = ParseRetryPolicy(policy_spec);
  if (!policy.ok()) return UsageError(kCommand, fmt::format("--policy: {}", policy.status().message()));
  if (store_kind != "memory" && store_kind != "dir")
    return UsageError(kCommand, fmt::format("--store '{}' is not one of memory, dir", store_kind));
  if (vm.count("dir") && store_kind != "dir") return UsageError(kCommand, "--dir needs --store dir");

  std::unique_ptr<SnapshotStore> store;
  if (store_kind == "memory") {
    store = std::make_unique<MemoryStore>();
  } else {
    if (dir.empty()) dir = FreshTableDir();
    if (fs::exists(fs::path(dir) / "snapshot" / "snapshot-1"))
      return UsageError(kCommand, fmt::format("--dir {} already holds a table (snapshot/snapshot-1 exists); pass an empty directory", dir));
    Result<std::unique_ptr<DirStore>> opened = DirStore::Open(dir);
    if (!opened.ok()) return UsageError(kCommand, fmt::format("--dir: {}", opened.status().message()));
    store = std::move(*opened);
  }

  const bool json = vm.count("json") > 0;
  sim::RaceConfig config{.writers = writers, .commits = commits, .policy = *policy, .seed = seed};
  if (!json) {
    fmt::print("== Race: {} writers x {} commits on real threads, store={}{}, policy={} ==\n", writers, commits,
               store_kind, dir.empty() ? "" : " (" + dir + ")", FormatRetryPolicy(*policy));
  }
  LogPrinter printer(stdout, vm.count("verbose") > 0);
  NullEventSink quiet;
  sim::RaceReport report = sim::RunThreadRace(config, store.get(), json ? static_cast<EventSink*>(&quiet) : &printer);
  if (json) {
    fmt::print("{}", ReportJson(report));
  } else {
    PrintSummary(report);
  }
  return report.violations.empty() ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
