// Committer: Paimon's FileStoreCommitImpl read as plain synchronous C++. One per commit user
// (writer); not thread-safe itself, but any number of committers may share one store and Env.
//
//   Commit(c)        -> an APPEND (or OVERWRITE) snapshot, then a COMPACT snapshot, each through
//                       TryCommit.
//   TryCommit        -> loop: read latest; TryCommitOnce; on a lost race or unknown outcome wait
//                       per the retry policy and go again; a conflict ends it at once.
//   TryCommitOnce    -> idempotency check (after a failed publish) -> conflict detection (when
//                       asked) -> write manifest -> publish snapshot N+1.
#ifndef COMMITLAB_CORE_PAIMON_COMMITTER_H_
#define COMMITLAB_CORE_PAIMON_COMMITTER_H_

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/commit_stats.h"
#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/model.h"
#include "commitlab/core/paimon/store.h"
#include "commitlab/core/paimon/table_state.h"
#include "commitlab/core/retry_budget.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"

namespace commitlab::paimon {

struct CommitOptions {
  std::string table = "T";
  bool primary_key = false;
  // Paimon's StreamWriteBuilder commits with ignoreEmptyCommit(false): an empty APPEND snapshot.
  bool ignore_empty_commit = true;
  // Scan for our own snapshot after a failed publish (Paimon PR #5771). Off only to show why.
  bool idempotency_check = true;
  RetryPolicy retry = PaimonDefaultPolicy();
  // Shared by all writers of a run, not owned; null means no budget. Each retry must be paid
  // for; each landed commit refunds a little.
  RetryBudget* budget = nullptr;
  // commit.strict-mode.last-safe-snapshot (StrictModeChecker): before each attempt, the snapshots
  // after the last safe one must hold no COMPACT or OVERWRITE by another user, nor (for an
  // OVERWRITE) another user's APPEND of files, in a partition this commit changes. A negative value
  // leaves the first attempt
  // unchecked; every attempt then makes the snapshot it builds on the last safe one.
  std::optional<int64_t> strict_mode_last_safe_snapshot = std::nullopt;
};

class Committer {
 public:
  Committer(std::string commit_user, CommitOptions options, Env* env, SnapshotStore* store, EventSink* events);

  const std::string& commit_user() const { return user_; }
  const CommitStats& stats() const { return stats_; }
  const CommitOptions& options() const { return options_; }
  // FileStoreCommit.ignoreEmptyCommit(boolean): whether a commit with no appended files still
  // writes an APPEND snapshot from now on.
  void set_ignore_empty_commit(bool ignore) { options_.ignore_empty_commit = ignore; }

  // Commits one committable; returns the number of snapshots generated (0, 1 or 2).
  // `check_append_files` runs conflict detection on the APPEND part too (Paimon does on recovery).
  Result<int> Commit(const Committable& c, bool check_append_files = false);

  // FileStoreCommitImpl.overwrite (tryOverwritePartition): an OVERWRITE snapshot whose DELETEs are,
  // on every attempt, the live files of the target partitions in the latest snapshot
  // (OverwriteChangesProvider), followed by the committable's ADDs. `partition` names the target
  // by some of its keys ("dt=1" covers dt=1/hr=*); "" is the whole table. With nothing to add it
  // drops the partition (dropPartitions, truncateTable); compaction changes follow as a COMPACT
  // snapshot. Returns the snapshots generated. InvalidArgument when an ADD lies outside the
  // partition. This is the static overwrite (dynamic-partition-overwrite=false).
  Result<int> Overwrite(const std::string& partition, const Committable& c);

  // Keeps the committables whose identifier is above the newest one this user has committed.
  // `committables` must be sorted by strictly increasing identifier.
  Result<std::vector<Committable>> FilterCommitted(std::vector<Committable> committables);
  // FilterCommitted, check that the files to re-commit still exist, then commit each with
  // conflict detection; returns how many committables were committed.
  Result<int> FilterAndCommit(std::vector<Committable> committables);

 private:
  struct AttemptResult;
  // The store's answer, bracketed as a storage operation (kCheckData) like every other.
  bool DataFileExists(const DataFile& f);
  Result<int64_t> TryCommit(const std::vector<FileChange>& changes, int64_t identifier, CommitKind kind,
                            bool detect_conflicts);
  AttemptResult TryCommitOnce(const std::vector<FileChange>& changes, int64_t identifier, CommitKind kind,
                              bool detect_conflicts, const Snapshot* latest,
                              const std::optional<int64_t>& failed_base_id, int attempt, int64_t start_micros);
  // TryCommitOnce in its parts (FileStoreCommitImpl.tryCommitOnce): each part's result, when it
  // has one, settles the attempt.
  struct Attempt;
  AttemptResult Fatal(const Attempt& a, EventType type, Status st);
  std::optional<AttemptResult> BeforeAttempt(const Attempt& a, const std::vector<FileChange>& changes,
                                             const std::optional<int64_t>& failed_base_id);
  std::optional<AttemptResult> StartAttempt(const Attempt& a, const std::vector<FileChange>& changes,
                                            bool detect_conflicts);
  std::optional<AttemptResult> WriteAndPublish(const Attempt& a, const std::vector<FileChange>& changes,
                                               PublishResult* pr, bool* injected_loss);
  AttemptResult PublishOutcomeOf(const Attempt& a, PublishResult pr, bool injected_loss);
  // Scans (from_id, latest] for a snapshot of ours with this identifier and kind.
  Result<std::optional<int64_t>> FindOwnSnapshot(int64_t from_id, const Snapshot& latest, int64_t identifier,
                                                 CommitKind kind);
  // StrictModeChecker.check over snapshots (last_safe, new_id) and the partitions `changes` touch:
  // Paimon's refusal text, or "".
  Result<std::string> StrictModeRefusal(int64_t last_safe, int64_t new_id, CommitKind kind,
                                        const std::vector<FileChange>& changes);
  // Brings base_ up to snapshot `latest` by replaying the snapshots in between.
  Status AdvanceBase(const Snapshot& latest);
  // During Overwrite: DELETEs of the target partitions' live files in `latest`, then `adds`.
  Result<const std::vector<FileChange>*> OverwriteChanges(const std::vector<FileChange>& adds, const Snapshot* latest);
  // Names the next manifest "manifest-{uuid}-{n}" in attempt_.delta_manifest.
  void NextManifestName();
  // The events of every attempt (kAttempt, kAtomicCommitFailed, kRetryWait) are also guarded with
  // gate_.events() at the call (see EventGate).
  void Emit(Event e) {
    if (gate_.events()) Deliver(std::move(e));
  }
  void Deliver(Event e);
  // An error-level event of one attempt: why the commit, or the attempt, stopped.
  void EmitError(EventType type, int64_t identifier, CommitKind kind, int attempt, int64_t snapshot_id,
                 std::string message, const EventCause* cause = nullptr);

  // Set while Overwrite runs: its target partition, and the changes of the current attempt.
  const std::string* overwrite_partition_ = nullptr;
  std::vector<FileChange> overwrite_changes_;
  std::string user_;
  CommitOptions options_;
  Env* env_;
  SnapshotStore* store_;
  EventSink* events_;
  const EventGate gate_;
  CommitStats stats_;
  TableState base_;  // live files at base_.snapshot_id(), advanced incrementally
  // Length of "manifest-{uuid}-" at the start of attempt_.delta_manifest; 0 until the first attempt.
  size_t manifest_stem_size_ = 0;
  // The snapshot being published, reused by every attempt (see TryCommitOnce): its user is set
  // once, its changes once per commit; only NextManifestName writes its delta_manifest.
  Snapshot attempt_;
};

}  // namespace commitlab::paimon

#endif  // COMMITLAB_CORE_PAIMON_COMMITTER_H_
