// OptimisticTransaction: Delta's OptimisticTransaction read as plain synchronous C++.
//
//   Start            read the latest version (or a given one): the read snapshot
//   FilterFiles ...  reads, recorded for the conflict checker (predicates, files, app ids)
//   Add / Remove ... the actions to commit
//   Commit(op)       doCommitRetryIteratively: write readVersion+1 put-if-absent; when that file
//                    exists, read the commits that won, one by one in order, run the conflict
//                    checker against each, and try again at once at the version after the
//                    newest. Delta never sleeps between attempts; it gives up only after
//                    max_commit_attempts (spark.databricks.delta.maxCommitAttempts).
//
// One transaction commits once. Not thread-safe itself; any number of transactions may share one
// log and Env.
#ifndef COMMITLAB_CORE_DELTA_TRANSACTION_H_
#define COMMITLAB_CORE_DELTA_TRANSACTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/delta/actions.h"
#include "commitlab/core/delta/conflict_checker.h"
#include "commitlab/core/delta/log_store.h"
#include "commitlab/core/delta/snapshot.h"
#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"

namespace commitlab::delta {

// spark.databricks.delta.maxCommitAttempts (DeltaSQLConf.DELTA_MAX_RETRY_COMMIT_ATTEMPTS).
inline constexpr int64_t kDefaultMaxCommitAttempts = 10'000'000;

struct TransactionOptions {
  std::string table = "T";  // messages name the log as <table>/_delta_log
  // Retries after the first attempt; Delta tries up to max_commit_attempts + 1 times.
  int64_t max_commit_attempts = kDefaultMaxCommitAttempts;
  std::optional<int64_t> read_version = {};  // default: the latest version
  // Not Delta's: doCommitRetryIteratively retries a lost version at once. Set, the transaction
  // waits as this policy says before it reads the winners and tries again, and its retry limit
  // and total timeout replace max_commit_attempts: a sweep runs the three protocols under the same
  // policies. `none` with unlimited retries is Delta's own behaviour.
  std::optional<RetryPolicy> retry = {};
};

// Counters for one transaction; a writer's tally adds these up.
struct TransactionStats {
  int64_t attempts = 0;         // writes of N.json tried
  int64_t commits = 0;          // 0 or 1
  int64_t collisions = 0;       // N.json already existed (an atomic commit failure)
  int64_t winners_checked = 0;  // winning commits run through the conflict checker
  int64_t conflicts = 0;
  int64_t gave_up = 0;
  int64_t unknown_outcomes = 0;
};

class OptimisticTransaction {
 public:
  // Reads the snapshot at options.read_version (default: the latest). `base`, when given, is a
  // snapshot the caller holds at or below that version: only the commits after it are read.
  // Fault point read-latest.before comes first. `events` may be null.
  static Result<OptimisticTransaction> Start(std::string writer, DeltaLog* log, Env* env, EventSink* events,
                                             TransactionOptions options = {}, const TableSnapshot* base = nullptr);
  // The same, taking `base` over instead of copying it: for a caller that carries its writer's
  // snapshot from one transaction to the next (TakeSnapshot). `base` is left unspecified.
  static Result<OptimisticTransaction> Start(std::string writer, DeltaLog* log, Env* env, EventSink* events,
                                             TransactionOptions options, TableSnapshot&& base);

  const std::string& writer() const { return writer_; }
  int64_t read_version() const { return snapshot_.version(); }
  const TableSnapshot& snapshot() const { return snapshot_; }
  // The snapshot, moved out: for a transaction that is done (committed or given up).
  TableSnapshot TakeSnapshot() { return std::move(snapshot_); }
  const TransactionStats& stats() const { return stats_; }
  // What the transaction has read so far (its predicates, files and app ids).
  const CurrentTransactionInfo& reads() const { return info_; }
  // The level Commit will use (or used): SnapshotIsolation for a commit whose file actions all
  // have dataChange=false (and, on a WriteSerializable table, whose operation changes no data),
  // else the table's level.
  IsolationLevel CommitIsolationLevel(Operation op) const;

  // --- reads (recorded) ---
  // filterFiles: the live files in `partitions` ("x=1", ...); records the predicate and the files.
  std::vector<DataFile> FilterFiles(std::vector<std::string> partitions);
  // filterFiles() with no filter: a full scan (predicate TRUE).
  std::vector<DataFile> FilterFiles();
  // filterFiles(filters) with `filter` split at its top-level ANDs: the conjuncts on partition
  // columns only, ANDed, are the recorded predicate (TRUE when none is: a filter on a data column
  // reads every partition, as trackReadPredicates records it); the files they match are read.
  // Data filters prune no files here (no column statistics).
  std::vector<DataFile> FilterFiles(const Expression& filter);
  // readWholeTable(): any concurrent remove now conflicts (and any add, at Serializable).
  void ReadWholeTable();
  // txnVersion(appId): the application's last committed version, or -1; records the app id.
  int64_t TxnVersion(const std::string& app_id);

  // --- writes ---
  void Add(DataFile f, bool data_change = true);
  void Remove(DataFile f, bool data_change = true);
  void UpdateMetadata(Metadata m);
  void UpdateProtocol(Protocol p);
  void SetTransactionVersion(std::string app_id, int64_t version);

  // Commits the recorded actions as `op`; returns the version written. Errors: Conflict ("<Name>:
  // ..."), RetriesExhausted, IOError (unknown outcome: the write may have landed), Crashed,
  // InvalidArgument (committed twice, or a first commit without metadata).
  Result<int64_t> Commit(Operation op);

 private:
  enum class WriteStep { kWritten, kCollided, kFailed };

  OptimisticTransaction(std::string writer, DeltaLog* log, Env* env, EventSink* events, TransactionOptions options);
  // Starts from `copy_from` (copied) or `move_from` (taken over) when given and not past the
  // version read; else from an empty snapshot.
  Status Load(const TableSnapshot* copy_from, TableSnapshot* move_from);
  // Records `p` and the files of the read snapshot it matches, which it returns.
  std::vector<DataFile> Read(ReadPredicate p);
  delta::Commit PrepareCommit(Operation op) const;
  // checkForSetTransactionConflictAndDedup: refuses one app id with two versions, drops repeats.
  Status DedupSetTransactions();
  // One write of `version`; `check_line` prefixes the attempt event after a conflict check.
  WriteStep DoCommit(int64_t version, int attempt, const std::string& check_line, Status* error);
  // checkForConflicts: the version to try next, or the conflict that ends the commit.
  Result<int64_t> CheckForConflicts(int64_t check_version, int attempt, std::string* check_line);
  std::string LogPath(int64_t version) const;
  void Emit(Event e);

  std::string writer_;
  DeltaLog* log_;
  Env* env_;
  EventSink* events_;
  const EventGate gate_;  // what events_ wants: per-attempt events are built only for a sink that does
  TransactionOptions options_;
  TableSnapshot snapshot_;
  CurrentTransactionInfo info_;   // reads recorded so far; actions filled in by Commit
  std::vector<FileChange> plan_;  // the commit's adds and removes, for events
  IsolationLevel level_ = IsolationLevel::kSerializable;
  Operation op_ = Operation::kInsert;
  int64_t start_micros_ = 0;
  bool committed_ = false;
  TransactionStats stats_;
};

}  // namespace commitlab::delta

#endif  // COMMITLAB_CORE_DELTA_TRANSACTION_H_
