// Checker: what must never happen to a table, checked after every run against the snapshot chain
// read back from the store and what each writer was told (Elle's ok / fail / info outcomes):
//   lost            an acknowledged commit is not in the table
//   duplicate       a commit appears twice (an acknowledged one, or one whose outcome was unknown)
//   failed_visible  a commit its writer was told failed is in the table
//   misplaced       an acknowledged commit is in a snapshot other than the one its writer was told
//   gap             snapshot ids are not contiguous from 1
//   duplicate_id    two snapshots share an id
//   fork            a snapshot's parent is not its predecessor
//   delete_not_live a snapshot deletes a file that is not live
//   add_live        a snapshot adds a file that is already live
#ifndef COMMITLAB_SIM_CHECKER_H_
#define COMMITLAB_SIM_CHECKER_H_

#include <concepts>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "commitlab/core/events.h"
#include "commitlab/core/model.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/paimon/store.h"
#include "commitlab/core/paimon/table_state.h"

namespace commitlab::sim {

enum class CommitOutcome {
  kAcknowledged,  // told "snapshot N": must appear exactly once
  kFailed,        // told it failed before any publish could have landed: must never appear
  kUnknown,       // gave up, crashed or was cut off after a publish it never learned the result of:
                  // may appear at most once
};
std::string_view CommitOutcomeName(CommitOutcome o);  // "acknowledged", "failed", "unknown"

// What a writer was told about one commit it attempted. A commit is identified by (user,
// identifier, kind), as in Paimon's idempotency check. A writer that restarts and commits the same
// identifier again adds a second record; the checker judges the records of one commit together.
struct CommitRecord {
  std::string user;
  int64_t identifier = 0;
  CommitKind kind = CommitKind::kAppend;
  CommitOutcome outcome = CommitOutcome::kFailed;
  int64_t snapshot_id = 0;  // kAcknowledged: the id the writer was told; 0 to skip that check

  bool operator==(const CommitRecord&) const = default;
};
using WriterOutcome = CommitRecord;

struct Violation {
  std::string kind;      // short name, see the list above
  std::string message;   // names the snapshot ids, user, identifier and kind
  int64_t snapshot = 0;  // chain structure and file replay: the snapshot it is about; else 0

  std::string ToString() const { return kind + ": " + message; }
  bool operator==(const Violation&) const = default;
};

// `chain` is every snapshot read back from the store, in id order. Violations come out in a
// fixed order: chain structure and file replay in chain order, then commits in (user, identifier,
// kind) order. O(n log n) in snapshots, records and file changes. `live`, if given, receives the
// live files after the replay (a change the replay refused is left out).
std::vector<Violation> CheckInvariants(const std::vector<Snapshot>& chain, const std::vector<CommitRecord>& records,
                                       TableState* live = nullptr);
// The same for a chain shared with its store (a run's, read back without a copy). A template only
// so that CheckInvariants({}, {}) still means the overload above.
std::vector<Violation> CheckSharedChain(const SnapshotChain& chain, const std::vector<CommitRecord>& records,
                                        TableState* live);
template <std::same_as<SnapshotChain> Chain>
std::vector<Violation> CheckInvariants(const Chain& chain, const std::vector<CommitRecord>& records,
                                       TableState* live = nullptr) {
  return CheckSharedChain(chain, records, live);
}

// Turns the committer's events into CommitRecords, one per TryCommit (an APPEND and a COMPACT of
// one Commit() are two). Published or idempotent_match => acknowledged; conflict, error or gave_up
// => failed, or unknown when an earlier publish of the same commit had an unknown outcome. A crash
// inside an attempt => unknown: the event does not say whether it stopped before or after the
// publish. A commit still open when records() is called counts as if it had crashed there.
// Thread-safe.
class OutcomeRecorder : public EventSink {
 public:
  void OnEvent(const Event& e) override;
  bool wants_messages() const override { return false; }
  // Closed records in the order they closed, then open ones (as unknown) in the order they opened.
  std::vector<CommitRecord> records() const;
  // The same, moved out: the recorder is empty after. For the end of a run, which would otherwise
  // hold every record twice.
  std::vector<CommitRecord> TakeRecords();

 private:
  using Key = std::tuple<std::string, int64_t, CommitKind>;
  struct Open {
    size_t order = 0;
    bool in_attempt = false;       // an attempt started and its publish has not been answered
    bool maybe_published = false;  // an earlier publish ended in an unknown outcome
  };

  // Appends the open records (as unknown), in the order they opened.
  void AppendOpen(std::vector<CommitRecord>* out) const REQUIRES(mu_);

  mutable Mutex mu_;
  std::vector<CommitRecord> closed_ GUARDED_BY(mu_);
  std::map<Key, Open> open_ GUARDED_BY(mu_);
  size_t next_order_ GUARDED_BY(mu_) = 0;
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_CHECKER_H_
