// Conflict detection, after Paimon's ConflictDetection / PrimaryKeyConflictDetection: replay the
// base files of the buckets a commit changes together with its ADD/DELETE delta.
//  - A DELETE that finds no live file, or an ADD of a file already live, is a file-deletion
//    conflict ("File deletion conflicts detected! Give up committing.").
//  - Unless the commit is an OVERWRITE, the files of a partition, base then delta, must all have
//    one total bucket count (ConflictDetection.checkBucketKeepSame): "Total buckets of partition
//    P changed from A to B without overwrite. Give up committing."
//  - For primary-key tables, two files of one (partition, bucket, level >= 1) whose closed key
//    ranges overlap or touch are an LSM conflict ("LSM conflicts detected! Give up committing.").
// Only touched buckets are checked: the base is consistent, so an untouched bucket cannot newly
// conflict (Paimon scans all buckets of the touched partitions).
#ifndef COMMITLAB_CORE_PAIMON_CONFLICT_DETECTION_H_
#define COMMITLAB_CORE_PAIMON_CONFLICT_DETECTION_H_

#include <string>
#include <vector>

#include "commitlab/core/events.h"
#include "commitlab/core/model.h"
#include "commitlab/core/paimon/table_state.h"
#include "commitlab/core/status.h"

namespace commitlab::paimon {

struct ConflictContext {
  std::string table;
  std::string base_commit_user;  // user of the latest snapshot (may be ourselves)
  std::string current_commit_user;
  bool primary_key = true;
  CommitKind kind = CommitKind::kAppend;  // an OVERWRITE may change a partition's bucket count
};

inline constexpr char kFileDeletionConflict[] = "File deletion conflicts detected! Give up committing.";
inline constexpr char kLsmConflict[] = "LSM conflicts detected! Give up committing.";

// OK, or Status::Conflict whose message is Paimon's full text: headline, causes, users, base
// entries, changes, and "Caused by: ...". On a conflict `cause` (if not null) gets its kind
// ("file-deletion" or "lsm") and the files in conflict.
Status CheckConflicts(const TableState& base, const std::vector<FileChange>& delta, const ConflictContext& ctx,
                      EventCause* cause = nullptr);

}  // namespace commitlab::paimon

#endif  // COMMITLAB_CORE_PAIMON_CONFLICT_DETECTION_H_
