// IcebergCommitter: SnapshotProducer.commit() read as plain synchronous C++, with the Tasks retry
// loop around it. One per writer; not thread-safe itself, but any number may share one catalog,
// one FileIO and one Env.
//
//   Commit(op)   -> Tasks.foreach(ops).retry(num-retries).exponentialBackoff(min, max, total, 2.0)
//                   .onlyRetryOn(CommitFailedException): attempt k = 1, 2, ... until one swaps;
//                   a lost swap waits min(min * 2^(k-1), max) + [0, 10%) and goes again.
//   an attempt   -> refresh (read the pointer) -> validate the snapshots committed since the
//                   operation started -> write the manifest of added files (first attempt only:
//                   later attempts reuse it) -> write a new manifest list and metadata file ->
//                   compare-and-swap from the version read.
//
// Outcomes, as Status:
//   swapped                     OK, with the metadata committed
//   validation failure          Conflict "ValidationException: ...", never retried; cleaned up
//   lost swap, retries left     (internal) WARN "Retrying task after failure: sleepTimeMs=..."
//   lost swap, none left        RetriesExhausted "CommitFailedException: ..."; cleaned up
//   unknown (error at the CAS)  IOError "CommitStateUnknownException: ...", never retried,
//                               nothing cleaned up: the swap may have happened
// Cleanup (cleanAll) deletes the manifests and manifest lists this commit wrote. Data files are
// the engine's and stay, as do the metadata files of lost swaps: both are orphans until
// RemoveOrphanFiles (maintenance.h).
//
// Events: Event::snapshot_id carries the metadata version an attempt swaps to (v N+1, the slot
// writers race for; Iceberg's snapshot ids are random). Event::kind maps append -> APPEND,
// replace -> COMPACT, overwrite / delete / schema / expiry -> OVERWRITE.
#ifndef COMMITLAB_CORE_ICEBERG_COMMITTER_H_
#define COMMITLAB_CORE_ICEBERG_COMMITTER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/commit_stats.h"
#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/retry_budget.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

struct IcebergCommitOptions {
  // commit.retry.num-retries / min-wait-ms / max-wait-ms / total-timeout-ms.
  RetryPolicy retry = IcebergDefaultPolicy();
  // Shared by all writers of a run, not owned; null means no budget (as CommitOptions::budget).
  RetryBudget* budget = nullptr;
};

struct CommitResult {
  MetadataRef base = {};                    // what the successful attempt refreshed and built on
  MetadataRef committed = {};               // what it swapped in
  std::optional<int64_t> snapshot_id = {};  // the new snapshot, for operations that make one
  int attempts = 0;
};

// The CommitStateUnknownException paragraph Iceberg appends to the cause.
extern const char kCommitStateUnknownInfo[];

class IcebergCommitter {
 public:
  IcebergCommitter(std::string writer, IcebergCommitOptions options, Env* env, IcebergCatalog* catalog, FileIO* io,
                   EventSink* events);

  const std::string& writer() const { return writer_; }
  // attempts, snapshots, atomic_failures (lost swaps), unknown_outcomes, conflicts (validation
  // failures), gave_up, manifests_written (manifests and manifest lists); as the Paimon committer.
  const CommitStats& stats() const { return stats_; }
  // The last Commit crashed after its swap took effect: the table has it, its writer was not told.
  bool crashed_after_swap() const { return crashed_after_swap_; }
  const IcebergCommitOptions& options() const { return options_; }
  Env* env() const { return env_; }
  IcebergCatalog* catalog() const { return catalog_; }
  FileIO* io() const { return io_; }

  // Reads the catalog pointer, as a writer does before it builds an operation.
  Result<MetadataRef> Refresh();
  // Commits `op`, retrying lost swaps per options().retry.
  Result<CommitResult> Commit(const Operation& op);

  // data/[<partition>/]<writer>-<uuid>-<n>.parquet: a fresh path for a data file of this writer.
  std::string NewDataFilePath(std::string_view partition = "");
  // Writes a data file the engine produced (not a storage op of the commit protocol).
  Status WriteDataFile(const FileRef& f);
  // Deletes a file through FileIO as a storage call (cleanup, expiry, orphan removal).
  Status DeleteFile(const std::string& path);

 private:
  struct CommitState;
  struct AttemptResult;
  struct AttemptScope;
  AttemptResult Attempt(const Operation& op, CommitState& state, int attempt);
  // The steps of an attempt, in order; each returns the attempt's result when it ends there.
  std::optional<AttemptResult> RefreshBase(AttemptScope& a);
  std::optional<AttemptResult> ValidateBase(AttemptScope& a);
  std::optional<AttemptResult> WriteMetadataTree(AttemptScope& a);
  std::optional<AttemptResult> Swap(AttemptScope& a);
  AttemptResult Conclude(AttemptScope& a);
  Status WriteAddedManifest(const Operation& op, CommitState& state);
  // An event of the attempt, at the version it swaps to.
  void EmitForAttempt(const AttemptScope& a, EventType type, Level level, std::string message);
  // The attempt stops with `st`: an error, or (kCrashed) a crash that stops the writer where it stands.
  AttemptResult Fatal(const AttemptScope& a, EventType type, Status st);
  AttemptResult Refuse(const AttemptScope& a, Status st, const EventCause* cause);
  // Writes a metadata-tree file as one storage call.
  Status WriteFile(std::string path, FileKind kind);
  // cleanAll(): the manifest lists and manifests this commit wrote.
  void CleanAll(const CommitState& state);
  // Events go only to a sink that wants them, and the per-attempt ones are guarded at the call
  // too (EventGate): fmt was a fifth of the instructions of the sweep's Iceberg runs.
  void Emit(Event e) {
    if (gate_.events()) Deliver(std::move(e));
  }
  void Deliver(Event e);
  std::string Uuid();

  std::string writer_;
  IcebergCommitOptions options_;
  Env* env_;
  IcebergCatalog* catalog_;
  FileIO* io_;
  EventSink* events_;
  const EventGate gate_;
  CommitStats stats_;
  bool crashed_after_swap_ = false;
  std::string name_prefix_;  // per-writer random part of data file names
  int64_t name_counter_ = 0;
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_COMMITTER_H_
