#include "commitlab/core/delta/conflict_checker.h"

#include <fmt/format.h>

#include <array>
#include <optional>

#include "commitlab/core/check.h"

namespace commitlab::delta {
namespace {

// DeltaErrors.concurrentModificationExceptionMsg, with the exception's name in front.
Status ConflictStatus(std::string_view exception, std::string_view base, const Commit& winner, int64_t winner_version) {
  return Status::Conflict(fmt::format(
      "{}: {}\nConflicting commit: {}\nRefer to https://docs.delta.io/latest/concurrency-control.html for more "
      "details.",
      exception, base, CommitInfoJson(winner.commit_info, winner_version)));
}

Status CheckProtocol(const CurrentTransactionInfo& t, const Commit& w, int64_t wv) {
  if (!w.protocol) return Status::OK();
  if (t.actions.protocol || DropsFeatures(*w.protocol, t.read_protocol)) {
    const std::string_view empty_dir =
        wv == 0 ? "This happens when multiple writers are writing to an empty directory. Creating the table ahead of "
                  "time will avoid this conflict. "
                : "";
    return ConflictStatus(kProtocolChangedException,
                          fmt::format("The protocol version of the Delta table has been changed by a concurrent "
                                      "update. {}Please try the operation again.",
                                      empty_dir),
                          w, wv);
  }
  return Status::OK();
}

Status CheckMetadata(const Commit& w, int64_t wv) {
  if (!w.metadata) return Status::OK();
  return ConflictStatus(kMetadataChangedException,
                        "The metadata of the Delta table has been changed by a concurrent update. Please try the "
                        "operation again.",
                        w, wv);
}

Status CheckAppIds(const CurrentTransactionInfo& t, const Commit& w, int64_t wv) {
  for (const SetTransaction& txn : w.txns) {
    if (t.read_app_ids.count(txn.app_id) == 0) continue;
    return ConflictStatus(kConcurrentTransactionException,
                          "This error occurs when multiple streaming queries are using the same checkpoint to write "
                          "into this table. Did you run multiple instances of the same streaming query at the same "
                          "time?",
                          w, wv);
  }
  return Status::OK();
}

// getFirstFileMatchingPartitionPredicates over the adds the isolation level asks to check.
std::optional<DataFile> FirstAddedFileTxnShouldHaveRead(const CurrentTransactionInfo& t, const Commit& w,
                                                        IsolationLevel level) {
  // A blind append read nothing, so nothing added can have changed what it read.
  COMMITLAB_CHECK(!t.actions.commit_info.is_blind_append ||
                      (t.read_predicates.empty() && t.read_files.empty() && t.actions.removes.empty()),
                  "a transaction called a blind append read nothing and removes nothing (PrepareCommit)");
  if (t.actions.commit_info.is_blind_append) return std::nullopt;
  const bool winner_blind = w.commit_info.is_blind_append;
  bool check_blind_adds = false;
  switch (level) {
    case IsolationLevel::kSnapshotIsolation: return std::nullopt;
    case IsolationLevel::kWriteSerializable:
      // WriteSerializable orders T before a concurrent blind append, so its rows need not be read;
      // not so when T changes metadata.
      check_blind_adds = t.actions.metadata.has_value();
      break;
    case IsolationLevel::kSerializable: check_blind_adds = true; break;
  }
  if (winner_blind && !check_blind_adds) return std::nullopt;
  for (const AddFile& a : w.adds) {
    if (t.read_whole_table || !t.partitioned) return a.file;
    for (const ReadPredicate& p : t.read_predicates)
      if (p.Matches(a.file)) return a.file;
  }
  return std::nullopt;
}

Status CheckAddedFiles(const CurrentTransactionInfo& t, const Commit& w, int64_t wv, IsolationLevel level) {
  std::optional<DataFile> f = FirstAddedFileTxnShouldHaveRead(t, w, level);
  if (!f) return Status::OK();
  return ConflictStatus(kConcurrentAppendException,
                        fmt::format("Files were added to {} by a concurrent update. Please try the operation again.",
                                    PrettyPartition(*f, t.partitioned)),
                        w, wv);
}

Status CheckDeletedAgainstRead(const CurrentTransactionInfo& t, const Commit& w, int64_t wv) {
  for (const RemoveFile& r : w.removes) {
    auto it = t.read_files.find(r.file.name);
    if (it == t.read_files.end()) continue;
    return ConflictStatus(
        kConcurrentDeleteReadException,
        fmt::format("This transaction attempted to read one or more files that were deleted (for example {} in {}) "
                    "by a concurrent update. Please try the operation again.",
                    r.file.name, PrettyPartition(it->second, t.partitioned)),
        w, wv);
  }
  if (!w.removes.empty() && t.read_whole_table) {
    return ConflictStatus(
        kConcurrentDeleteReadException,
        fmt::format("This transaction attempted to read one or more files that were deleted (for example {}) by a "
                    "concurrent update. Please try the operation again.",
                    w.removes.front().file.name),
        w, wv);
  }
  return Status::OK();
}

Status CheckDeletedTwice(const CurrentTransactionInfo& t, const Commit& w, int64_t wv) {
  for (const RemoveFile& mine : t.actions.removes) {
    for (const RemoveFile& theirs : w.removes) {
      if (mine.file.name != theirs.file.name) continue;
      return ConflictStatus(
          kConcurrentDeleteDeleteException,
          fmt::format("This transaction attempted to delete one or more files that were deleted (for example {}) by "
                      "a concurrent update. Please try the operation again.",
                      mine.file.name),
          w, wv);
    }
  }
  return Status::OK();
}

}  // namespace

Status CheckConflicts(const CurrentTransactionInfo& current, const Commit& winner, int64_t winner_version,
                      IsolationLevel level) {
  COMMITLAB_CHECK(winner_version > current.actions.commit_info.read_version,
                  "a winner committed after the version the transaction read (checkForConflicts starts past it)");
  COMMITLAB_RETURN_IF_ERROR(CheckProtocol(current, winner, winner_version));
  COMMITLAB_RETURN_IF_ERROR(CheckMetadata(winner, winner_version));
  COMMITLAB_RETURN_IF_ERROR(CheckAppIds(current, winner, winner_version));
  COMMITLAB_RETURN_IF_ERROR(CheckAddedFiles(current, winner, winner_version, level));
  COMMITLAB_RETURN_IF_ERROR(CheckDeletedAgainstRead(current, winner, winner_version));
  return CheckDeletedTwice(current, winner, winner_version);
}

std::string_view ConflictExceptionName(const Status& s) {
  if (s.code() != Code::kConflict) return "";
  static constexpr std::array<std::string_view, 6> kNames = {
      kConcurrentAppendException, kConcurrentDeleteReadException,  kConcurrentDeleteDeleteException,
      kMetadataChangedException,  kConcurrentTransactionException, kProtocolChangedException,
  };
  const std::string& m = s.message();
  for (std::string_view n : kNames)
    if (m.size() > n.size() && m.compare(0, n.size(), n) == 0 && m[n.size()] == ':') return n;
  return "";
}

}  // namespace commitlab::delta
