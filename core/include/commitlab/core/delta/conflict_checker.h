// ConflictChecker: Delta's ConflictChecker.checkConflicts() read as a function. A transaction
// that lost version N runs it once for each commit that landed after its read version, in order;
// the first check that fails ends the commit with one of the named exceptions.
//
// Order of checks, as in Delta:
//   1. protocol      W changed the protocol and T changes it too, or W drops a feature T read
//                    -> ProtocolChangedException
//   2. metadata      W changed metadata -> MetadataChangedException
//   3. app txns      W wrote a txn for an appId T read through TxnVersion
//                    -> ConcurrentTransactionException
//   4. added files   W added files T's read predicates match: under Serializable all of W's adds;
//                    under WriteSerializable only adds that are not blind appends (unless T
//                    changes metadata); under SnapshotIsolation none
//                    -> ConcurrentAppendException
//   5. deleted/read  W removed a file T read, or removed anything when T read the whole table
//                    -> ConcurrentDeleteReadException (at every isolation level)
//   6. deleted twice W removed a file T removes -> ConcurrentDeleteDeleteException
// Not modelled: domain metadata, row tracking, allow-listed metadata changes, in-commit
// timestamps, and reading a protocol this client does not support.
#ifndef COMMITLAB_CORE_DELTA_CONFLICT_CHECKER_H_
#define COMMITLAB_CORE_DELTA_CONFLICT_CHECKER_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/delta/actions.h"
#include "commitlab/core/status.h"

namespace commitlab::delta {

// The exception names; a conflict Status's message starts with one of them and ": ".
inline constexpr std::string_view kConcurrentAppendException = "ConcurrentAppendException";
inline constexpr std::string_view kConcurrentDeleteReadException = "ConcurrentDeleteReadException";
inline constexpr std::string_view kConcurrentDeleteDeleteException = "ConcurrentDeleteDeleteException";
inline constexpr std::string_view kMetadataChangedException = "MetadataChangedException";
inline constexpr std::string_view kConcurrentTransactionException = "ConcurrentTransactionException";
inline constexpr std::string_view kProtocolChangedException = "ProtocolChangedException";

// What the current transaction T read and what it is about to write (Delta's
// CurrentTransactionInfo).
struct CurrentTransactionInfo {
  bool partitioned = false;  // the read snapshot's table has partition columns
  Protocol read_protocol = {};
  std::vector<ReadPredicate> read_predicates = {};
  std::map<std::string, DataFile> read_files = {};  // by name
  bool read_whole_table = false;
  std::set<std::string> read_app_ids = {};
  Commit actions = {};  // T's commit; its commit_info says whether T is a blind append
};

// Checks T against W, the commit that landed as `winner_version`, at T's isolation level. OK, or
// Conflict("<ExceptionName>: <Delta's message>\nConflicting commit: {...}\nRefer to ...").
Status CheckConflicts(const CurrentTransactionInfo& current, const Commit& winner, int64_t winner_version,
                      IsolationLevel level);

// The exception name a conflict Status starts with, or "" for any other status.
std::string_view ConflictExceptionName(const Status& s);

}  // namespace commitlab::delta

#endif  // COMMITLAB_CORE_DELTA_CONFLICT_CHECKER_H_
