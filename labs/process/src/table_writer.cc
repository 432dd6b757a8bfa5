#include "commitlab/process/table_writer.h"

#include <sys/random.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <utility>

#include "commitlab/core/env_wrapper.h"
#include "commitlab/core/events.h"
#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/data_writer.h"
#include "commitlab/core/paimon/dir_store.h"
#include "commitlab/core/paimon/user_claim.h"
#include "commitlab/sim/real_env.h"
#include "commitlab/sim/table_dir_check.h"

namespace commitlab::process {
namespace {

// A seed no other process draws: the kernel's randomness, else the clock and the pid.
uint64_t ProcessUniqueSeed() {
  uint64_t seed = 0;
  if (::getrandom(&seed, sizeof seed, 0) == static_cast<ssize_t>(sizeof seed)) return seed;
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
         (static_cast<uint64_t>(::getpid()) << 32);
}

// The run's Env, but names (manifests, data files) and retry jitter come from a stream of this
// process's own: two processes given one --seed must still never write the same file name.
class ProcessUniqueNames : public EnvWrapper {
 public:
  explicit ProcessUniqueNames(Env* target) : EnvWrapper(target), names_(ProcessUniqueSeed()) {}
  Rng& rng() override { return names_; }

 private:
  Rng names_;
};

class AckSink : public EventSink {
 public:
  explicit AckSink(const std::function<void(const Ack&)>& on_ack) : on_ack_(on_ack) {}
  void OnEvent(const Event& e) override {
    if ((e.type == EventType::kPublished || e.type == EventType::kIdempotentMatch) && e.kind == CommitKind::kAppend)
      on_ack_(Ack{std::string(e.user), e.identifier, e.snapshot_id});
  }
  bool wants_messages() const override { return false; }

 private:
  const std::function<void(const Ack&)>& on_ack_;
};

Status CheckOptions(const TableWriterOptions& o) {
  if (o.dir.empty()) return Status::InvalidArgument("--dir is required");
  if (!IsValidCommitUser(o.user)) {
    return Status::InvalidArgument(
        fmt::format("--user '{}' is not 1..100 of A-Z, a-z, 0-9, '.', '_', '-' (and must not start with '.')", o.user));
  }
  if (o.commits.has_value() == o.until.has_value()) return Status::InvalidArgument("give one of --commits and --until");
  if (o.commits && (*o.commits < 0 || *o.commits > 1'000'000))
    return Status::InvalidArgument(fmt::format("--commits {} is out of range 0..1000000", *o.commits));
  if (o.until && (*o.until < 0 || *o.until > int64_t{1} << 50))
    return Status::InvalidArgument(fmt::format("--until {} is out of range 0..2^50", *o.until));
  return Status::OK();
}

// The table must be sound before we rely on it: the identifiers we continue from, the parent we
// build on. Returns the user's newest committed identifier (0 for none).
Result<int64_t> VerifyTable(const std::string& dir, const std::string& user) {
  COMMITLAB_ASSIGN_OR_RETURN(sim::TableDirReport report, sim::CheckTableDir(dir, {.find_leftovers = false}));
  // A hint ahead of the chain misleads Paimon's readers, not ours (DirStore verifies it), and our
  // first publish overwrites it.
  std::erase_if(report.problems, [](const sim::TableDirProblem& p) { return p.kind == "hint_ahead"; });
  if (!report.sound()) {
    const sim::TableDirProblem& p = report.problems.front();
    return Status::InvalidArgument(fmt::format(
        "refusing to write into a damaged table: {}: {}{} (`commitlab check {}` lists every problem)", p.kind,
        p.message, report.problems.size() > 1 ? fmt::format("; and {} more", report.problems.size() - 1) : "", dir));
  }
  int64_t newest = 0;
  for (const Snapshot& s : report.chain)
    if (s.commit_user == user) newest = std::max(newest, s.commit_identifier);
  return newest;
}

}  // namespace

Result<TableWriterResult> RunTableWriter(const TableWriterOptions& options,
                                         const std::function<void(const Ack&)>& on_ack) {
  COMMITLAB_RETURN_IF_ERROR(CheckOptions(options));
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<DirStore> store, DirStore::Open(options.dir, {.fsync = options.fsync}));
  COMMITLAB_RETURN_IF_ERROR((UserClaim::Take(store->LockDir(), options.user)).status());
  COMMITLAB_ASSIGN_OR_RETURN(int64_t newest, VerifyTable(options.dir, options.user));

  TableWriterResult result;
  result.user = options.user;
  result.resumed_after = newest;
  result.last_identifier = newest;
  const int64_t last = options.commits ? newest + *options.commits : *options.until;

  sim::ScriptedFaultPlan faults(options.faults);
  sim::RealEnv real(options.seed, &faults, options.latency);
  ProcessUniqueNames env(&real);
  sim::OutcomeRecorder outcomes;
  AckSink acks(on_ack);
  TeeEventSink events({&outcomes, &acks});
  paimon::Committer committer(
      options.user,
      {.table = DirTableName(options.dir), .idempotency_check = options.idempotency_check, .retry = options.retry},
      &env, store.get(), &events);
  std::string file_stem = "data-";
  AppendRandomUuid(env.rng(), &file_stem);
  Status stopped;
  const Status started = real.RunThreads(
      {{options.user, [&] {
          for (int64_t id = newest + 1; id <= last && stopped.ok(); ++id) {
            const DataFile f{
                .name = fmt::format("{}-{}.parquet", file_stem, id), .min_key = id, .max_key = id, .row_count = 1};
            stopped = paimon::WriteDataFile(&env, store.get(), f);
            if (!stopped.ok()) break;
            Result<int> committed = committer.Commit({.identifier = id, .append_changes = {{ChangeKind::kAdd, f}}});
            if (!committed.ok()) stopped = committed.status();
          }
        }}});
  if (!started.ok()) stopped = started;
  result.stats = committer.stats();
  result.records = outcomes.records();
  for (const sim::CommitRecord& r : result.records) {
    if (r.outcome != sim::CommitOutcome::kAcknowledged) continue;
    ++result.acknowledged;
    result.last_identifier = std::max(result.last_identifier, r.identifier);
  }
  for (const sim::FiredFault& f : faults.fired()) result.fired_faults.push_back(sim::FormatFiredFault(f));
  if (!stopped.ok()) {
    result.error = stopped.message();
    result.error_code = stopped.code();
    // The engine reports what it saw as Paimon does ("... there maybe exist commit conflicts"); a
    // file system that refused the writes (a read-only or full directory) is the real reason.
    if (std::optional<std::string> io = store->first_io_error())
      result.error = fmt::format("the file system failed the commit: {} (the committer then said: {})", *io,
                                 result.error.substr(0, result.error.find('\n')));
  }
  return result;
}

}  // namespace commitlab::process
