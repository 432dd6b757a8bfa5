// One simulated run of each sweep experiment: the real committers of the three table formats on
// SweepEnv, each run with its own in-memory store, catalog or log.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/delta/log_store.h"
#include "commitlab/core/delta/transaction.h"
#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/data_writer.h"
#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/sim/scheduler.h"
#include "commitlab/sim/strategy.h"
#include "commitlab/sim/sweep.h"
#include "commitlab/sim/writer_name.h"
#include "sweep_env.h"

namespace commitlab::sim {
namespace {

using internal::SweepEnv;

// A short name (in std::string's inline buffer): the file's name is copied into every snapshot
// that carries it, and a sweep's runs create millions of them.
std::string FileName(int writer, int64_t identifier) {
  std::string name = "data-";
  AppendDecimal(writer, &name);
  name += '-';
  AppendDecimal(identifier, &name);
  return name;
}

// The data file write of a format whose committer does not charge it: one write-data call.
void ChargeDataWrite(Env* env) {
  env->BeginStorageOp(StorageOp::kWriteData);
  env->EndStorageOp(StorageOp::kWriteData);
}

// Paimon: FileStoreCommit through the Committer, snapshot-N published by create-if-absent.
class PaimonWriters {
 public:
  PaimonWriters(int writers, const RetryPolicy& policy, bool idempotency_check, bool write_data, SweepEnv* env)
      : env_(env), write_data_(write_data) {
    paimon::CommitOptions options;
    options.table = write_data ? "race_log" : "brooker";
    options.retry = policy;
    options.idempotency_check = idempotency_check;
    committers_.reserve(static_cast<size_t>(writers));
    for (int i = 0; i < writers; ++i) committers_.emplace_back(WriterName(i), options, env, &store_, &sink_);
    committables_.resize(static_cast<size_t>(writers));
  }

  const std::string& name(int i) const { return committers_[static_cast<size_t>(i)].commit_user(); }
  int64_t calls(int i) const { return committers_[static_cast<size_t>(i)].stats().attempts; }
  Status WriteData(int i, int64_t id) {
    if (!write_data_) return Status::OK();
    return paimon::WriteDataFile(env_, &store_, File(i, id));
  }
  Status Commit(int i, int64_t id) {
    // One Committable per writer, refilled: its change list keeps its storage from commit to commit.
    Committable& c = committables_[static_cast<size_t>(i)];
    c.identifier = id;
    c.append_changes.assign(1, {ChangeKind::kAdd, File(i, id)});
    return committers_[static_cast<size_t>(i)].Commit(c).status();
  }

 private:
  static DataFile File(int i, int64_t id) {
    return DataFile{.name = FileName(i, id), .min_key = id, .max_key = id, .row_count = 1};
  }

  SweepEnv* const env_;
  const bool write_data_;
  // Every writer is a fiber of this thread, and nothing lists the manifests.
  MemoryStore store_{MemoryStore::Threads::kOne, MemoryStore::Manifests::kForget};
  NullEventSink sink_;  // no events are built for it
  std::vector<paimon::Committer> committers_;
  std::vector<Committable> committables_;
};

// Iceberg: SnapshotProducer.commit() against a catalog that swaps the metadata pointer; every
// attempt rewrites the manifest list and the metadata file.
class IcebergWriters {
 public:
  IcebergWriters(int writers, const RetryPolicy& policy, SweepEnv* env)
      : env_(env), bases_(static_cast<size_t>(writers)) {
    committers_.reserve(static_cast<size_t>(writers));
    for (int i = 0; i < writers; ++i)
      committers_.emplace_back(WriterName(i), iceberg::IcebergCommitOptions{.retry = policy}, env, &catalog_, &io_,
                               &sink_);
  }

  const std::string& name(int i) const { return committers_[static_cast<size_t>(i)].writer(); }
  int64_t calls(int i) const { return committers_[static_cast<size_t>(i)].stats().attempts; }
  Status WriteData(int i, int64_t id) {
    iceberg::FileRef f = iceberg::MakeDataFile(FileName(i, id), {Row{{"id", Value(id)}}});
    ChargeDataWrite(env_);
    return committers_[static_cast<size_t>(i)].WriteDataFile(f);
  }
  // The append is built on the metadata the writer last saw (the table it loaded, then each of its
  // own commits), as table.newAppend() builds on ops.current(); the commit refreshes it anyway.
  Status Commit(int i, int64_t id) {
    iceberg::IcebergCommitter& c = committers_[static_cast<size_t>(i)];
    iceberg::MetadataRef& base = bases_[static_cast<size_t>(i)];
    if (base == nullptr) {
      COMMITLAB_ASSIGN_OR_RETURN(iceberg::MetadataRef loaded, c.Refresh());
      base = loaded;
    }
    COMMITLAB_ASSIGN_OR_RETURN(iceberg::FileRef f, io_.ReadDataFile(FileName(i, id)));
    COMMITLAB_ASSIGN_OR_RETURN(iceberg::CommitResult r, c.Commit(iceberg::NewAppend(*base, {f})));
    base = r.committed;
    return Status::OK();
  }

 private:
  SweepEnv* const env_;
  iceberg::InMemoryCatalog catalog_{"db.race_log"};
  // Every writer is a fiber of this thread, and only data files are read back.
  iceberg::InMemoryFileIO io_{iceberg::InMemoryFileIO::Threads::kOne, iceberg::InMemoryFileIO::Metadata::kForget};
  NullEventSink sink_;
  std::vector<iceberg::IcebergCommitter> committers_;
  std::vector<iceberg::MetadataRef> bases_;  // per writer: what its next append builds on
};

// Delta: OptimisticTransaction, the next N.json written put-if-absent; a lost version reads the
// winners, checks them for conflicts (blind appends have none) and tries the version after.
class DeltaWriters {
 public:
  DeltaWriters(int writers, const RetryPolicy& policy, SweepEnv* env)
      : env_(env), options_{.table = "race_log", .retry = policy}, bases_(static_cast<size_t>(writers)) {
    names_.reserve(static_cast<size_t>(writers));
    for (int i = 0; i < writers; ++i) names_.push_back(WriterName(i));
    calls_.assign(static_cast<size_t>(writers), 0);
    delta::Commit create;  // version 0, CREATE TABLE, before any writer starts
    create.metadata = delta::Metadata{.id = "race_log", .schema = "id BIGINT"};
    create.protocol = delta::Protocol{};
    create.commit_info.operation = delta::Operation::kCreateTable;
    created_ = log_.WriteIfAbsent(0, create).error;
  }

  const std::string& name(int i) const { return names_[static_cast<size_t>(i)]; }
  int64_t calls(int i) const { return calls_[static_cast<size_t>(i)]; }
  Status WriteData(int, int64_t) {
    ChargeDataWrite(env_);
    return Status::OK();
  }
  Status Commit(int i, int64_t id) {
    if (!created_.ok()) return created_;
    const auto w = static_cast<size_t>(i);
    // The writer's snapshot goes into the transaction and comes back out after it (no copy of its
    // live files per commit); the next transaction reads only the commits after it.
    Result<delta::OptimisticTransaction> txn =
        bases_[w]
            ? delta::OptimisticTransaction::Start(names_[w], &log_, env_, nullptr, options_, std::move(*bases_[w]))
            : delta::OptimisticTransaction::Start(names_[w], &log_, env_, nullptr, options_);
    if (!txn.ok()) {
      bases_[w].reset();  // taken over and not given back: start the next one from the log
      return txn.status();
    }
    txn->Add(DataFile{.name = FileName(i, id), .min_key = id, .max_key = id, .row_count = 1});
    Result<int64_t> v = txn->Commit(delta::Operation::kInsert);
    calls_[w] += txn->stats().attempts;
    bases_[w] = txn->TakeSnapshot();
    return v.status();
  }

 private:
  SweepEnv* const env_;
  const delta::TransactionOptions options_;
  delta::MemoryDeltaLog log_;
  Status created_;
  std::vector<std::string> names_;
  std::vector<int64_t> calls_;
  std::vector<std::optional<delta::TableSnapshot>> bases_;
};

// What one writer did; written only by its own fiber.
struct WriterTally {
  int64_t commits_ok = 0;
  bool gave_up = false;
  int64_t last_success_micros = 0;
  int64_t stopped_micros = 0;
};

// A run's step budget: far above what a run whose commits land takes (its attempts grow with
// writers^2 / 2 at worst, each a few steps), so only a run that makes no progress (a commit that
// can never land) reaches it, and it then ends with an error instead of spinning.
int64_t RunStepBudget(int writers, int commits) {
  const int64_t w = writers;
  return std::max<int64_t>(4'000'000, 64 * w * w * commits);
}

// One run: `writers` writers of one protocol, each making `commits` commits (writing its data
// file first), tallied. Random scheduling breaks ties between writers due at the same instant
// without favouring low indices.
template <typename Writers>
class WritersRun {
 public:
  template <typename... Args>
  WritersRun(int writers, int commits, uint64_t seed, const LatencyModel& latency, const StoreCapacity& capacity,
             Args&&... args)
      : commits_(commits),
        scheduler_(MakeRandomStrategy(), seed),
        env_(&scheduler_, latency, writers, capacity),
        writers_(writers, std::forward<Args>(args)..., &env_),
        tallies_(static_cast<size_t>(writers)) {
    scheduler_.set_record_schedule(false);                      // a sweep never replays a run
    scheduler_.set_budget(RunStepBudget(writers, commits), 0);  // the writers' FaultPoint stops them past it
    latencies_micros_.reserve(static_cast<size_t>(writers) * static_cast<size_t>(commits));
    for (int i = 0; i < writers; ++i) {
      // Two words of capture: std::function keeps them inline, with no allocation per writer.
      scheduler_.AddWriter(writers_.name(i), [this, i] { Write(i); });
    }
  }

  RunOutcome Run() {
    RunOutcome out;
    out.status = scheduler_.Run();
    if (out.status.ok() && scheduler_.over_budget())
      out.status = Status::RetriesExhausted(
          fmt::format("a sweep run of {} writers was stopped after {} scheduler steps with commits still unlanded: "
                      "one that never lands?",
                      tallies_.size(), RunStepBudget(static_cast<int>(tallies_.size()), commits_)));
    for (size_t i = 0; i < tallies_.size(); ++i) {
      const WriterTally& t = tallies_[i];
      out.calls += writers_.calls(static_cast<int>(i));
      out.commits_ok += t.commits_ok;
      out.gave_up += t.gave_up ? 1 : 0;
      out.finish_micros = std::max(out.finish_micros, t.stopped_micros);
      out.completion_micros = std::max(out.completion_micros, t.last_success_micros);
    }
    out.latencies_micros = std::move(latencies_micros_);
    out.throttled = env_.throttled();
    return out;
  }

 private:
  void Write(int i) {
    WriterTally& t = tallies_[static_cast<size_t>(i)];
    for (int64_t id = 1; id <= commits_; ++id) {
      if (!writers_.WriteData(i, id).ok()) break;
      const int64_t start = env_.NowMicros();
      Status st = writers_.Commit(i, id);
      if (!st.ok()) {
        t.gave_up = st.code() == Code::kRetriesExhausted;
        break;
      }
      ++t.commits_ok;
      t.last_success_micros = env_.NowMicros();
      latencies_micros_.push_back(t.last_success_micros - start);  // fibers take turns: no race
    }
    t.stopped_micros = env_.NowMicros();
  }

  const int commits_;
  Scheduler scheduler_;
  SweepEnv env_;
  Writers writers_;
  std::vector<WriterTally> tallies_;
  std::vector<int64_t> latencies_micros_;  // of every commit, in the order they landed
};

}  // namespace

Protocol LectureProtocol() { return Protocol::kPaimon; }

RunOutcome RunBrookerOnce(int writers, const RetryPolicy& policy, uint64_t seed, const LatencyModel& latency,
                          const StoreCapacity& capacity) {
  return capacity.limited() ? RunBrookerThroughCommitter(writers, policy, seed, latency, capacity)
                            : RunBrookerLoop(writers, policy, seed, latency);
}

RunOutcome RunBrookerThroughCommitter(int writers, const RetryPolicy& policy, uint64_t seed,
                                      const LatencyModel& latency, const StoreCapacity& capacity) {
  // Brooker's client makes exactly two calls per attempt; the idempotency scan would add snapshot
  // reads, and the data file is not his.
  return WritersRun<PaimonWriters>(writers, /*commits=*/1, seed, latency, capacity, policy,
                                   /*idempotency_check=*/false, /*write_data=*/false)
      .Run();
}

RunOutcome RunAppendersOnce(int writers, int commits, const RetryPolicy& policy, uint64_t seed,
                            const LatencyModel& latency, Protocol protocol, const StoreCapacity& capacity) {
  switch (protocol) {
    case Protocol::kPaimon:
      return WritersRun<PaimonWriters>(writers, commits, seed, latency, capacity, policy, /*idempotency_check=*/true,
                                       /*write_data=*/true)
          .Run();
    case Protocol::kIceberg: return WritersRun<IcebergWriters>(writers, commits, seed, latency, capacity, policy).Run();
    case Protocol::kDelta: return WritersRun<DeltaWriters>(writers, commits, seed, latency, capacity, policy).Run();
  }
  return {};
}

}  // namespace commitlab::sim
