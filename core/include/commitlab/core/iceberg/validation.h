// Validation, after MergingSnapshotProducer and its subclasses' validate(base, parent): before an
// operation is (re-)applied on the metadata a retry refreshed, check that what it assumed still
// holds, looking only at the snapshots committed since it started. Which checks run is the
// isolation level:
//
//   operation            serializable                          snapshot
//   append               -                                     -
//   overwrite-by-filter  added(filter), deleted(filter)        deleted(filter)
//   delete-by-filter     added(filter), files still live       files still live
//   rewrite, delete      files still live                      files still live
//   schema change        schema unchanged                      schema unchanged
//   replace partitions   what the operation asks for: added and/or deleted (and new delete
//                        files) by partition
//   row delta            what the operation asks for: data files exist, added(filter),
//                        new delete files(filter)
// Overwrite and delete-by-filter also check for new delete files (by filter, or for the files
// they replace); a rewrite for new deletes of the files it replaces.
//
// added(f):   no append/overwrite snapshot since the start added a file that can hold rows
//             matching f (validateAddedDataFiles)
// deleted(f): no overwrite/replace/delete snapshot since the start deleted such a file
//             (validateDeletedDataFiles)
// live:       every file to delete is still in the table (failMissingDeletePaths)
//
// Failures are Status::Conflict("ValidationException: <upstream text>"), never retried. The
// schema check fails like a REST catalog's assert-current-schema-id requirement.
#ifndef COMMITLAB_CORE_ICEBERG_VALIDATION_H_
#define COMMITLAB_CORE_ICEBERG_VALIDATION_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/expression.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

// Conflict "ValidationException: <message>".
Status ValidationFailure(std::string_view message);

// SnapshotUtil.ancestorsBetween: the snapshots from base's current one back to (not including)
// `starting_snapshot_id`, newest first. When that walk cannot reach the start (its ancestors were
// expired): "Cannot determine history between starting snapshot %s and the last known ancestor %s".
Result<std::vector<SnapshotRef>> ValidationHistory(const TableMetadata& base,
                                                   const std::optional<int64_t>& starting_snapshot_id);

// On a failure each check fills `cause` (if not null): the conflicting files and, for the two
// history checks, the oldest snapshot (its sequence number) that holds one and who committed it.
// "Found conflicting files that can contain records matching %s: [%s]"
Status ValidateAddedDataFiles(const std::vector<SnapshotRef>& history, const Expression& filter,
                              EventCause* cause = nullptr);
// "Found conflicting deleted files that can contain records matching %s: [%s]"
Status ValidateDeletedDataFiles(const std::vector<SnapshotRef>& history, const Expression& filter,
                                EventCause* cause = nullptr);
// The same checks by partition (a PartitionSet, as ReplacePartitions validates): a file conflicts
// when it lies in one of `partitions`. "... matching partitions [p=0, p=1]: [...]" for added
// files; "Found conflicting deleted files that can apply to records matching [p=0]: [...]".
Status ValidateAddedDataFiles(const std::vector<SnapshotRef>& history, const std::vector<std::string>& partitions,
                              EventCause* cause = nullptr);
Status ValidateDeletedDataFiles(const std::vector<SnapshotRef>& history, const std::vector<std::string>& partitions,
                                EventCause* cause = nullptr);
// Delete files added since the start (by overwrite and delete snapshots, with a sequence number
// above the starting snapshot's) that can apply to rows matching `filter` (or lying in
// `partitions`): "Found new conflicting delete files that can apply to records matching %s: %s"
// (validateNoNewDeleteFiles).
Status ValidateNoNewDeleteFiles(const std::vector<SnapshotRef>& history, const Expression& filter,
                                EventCause* cause = nullptr);
Status ValidateNoNewDeleteFiles(const std::vector<SnapshotRef>& history, const std::vector<std::string>& partitions,
                                EventCause* cause = nullptr);
// No delete file added since the start applies to one of `data_files` (the files an operation
// replaces): "Cannot commit, found new delete for replaced data file: %s"
// (validateNoNewDeletesForDataFiles; upstream prints the GenericDataFile, here its path).
Status ValidateNoNewDeletesForDataFiles(const std::vector<SnapshotRef>& history, const std::vector<FileRef>& data_files,
                                        EventCause* cause = nullptr);
// The referenced data files were not removed since the start by an overwrite or replace (or a
// delete, when `include_deletes`): "Cannot commit, missing data files: [%s]" (validateDataFilesExist).
Status ValidateDataFilesExist(const std::vector<SnapshotRef>& history, const std::vector<std::string>& paths,
                              bool include_deletes, EventCause* cause = nullptr);
// "Missing required files to delete: a,b" (ManifestFilterManager.validateRequiredDeletes)
Status ValidateRequiredDeletes(const FileSet& live, const std::vector<FileRef>& files_to_delete,
                               EventCause* cause = nullptr);
// Conflict "CommitFailedException: Requirement failed: current schema changed: expected id %s != %s"
Status ValidateSchemaUnchanged(const TableMetadata& base, int32_t starting_schema_id);

// Runs the checks of the table above for `op` against the refreshed `base`.
Status Validate(const Operation& op, const TableMetadata& base, EventCause* cause = nullptr);

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_VALIDATION_H_
