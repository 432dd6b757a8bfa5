// Operations: what a writer builds and hands to IcebergCommitter::Commit, after Iceberg's
// PendingUpdate family (table.newAppend(), newOverwrite(), newRewrite(), newDelete(),
// updateSchema(), expireSnapshots()). Each records the snapshot and schema it started from
// (validateFromSnapshot), so that a retry can validate what was committed since.
#ifndef COMMITLAB_CORE_ICEBERG_OPERATION_H_
#define COMMITLAB_CORE_ICEBERG_OPERATION_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "commitlab/core/iceberg/expression.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

enum class OperationKind {
  kAppend,             // MergeAppend: add files; always re-applies
  kOverwriteByFilter,  // BaseOverwriteFiles.overwriteByRowFilter(filter) + addFile
  kRewrite,            // BaseRewriteFiles (compaction): replace files with files
  kDeleteFiles,        // StreamingDelete.deleteFile
  kDeleteByFilter,     // Spark's copy-on-write DELETE: OverwriteFiles of the scanned files
  // SchemaUpdate: a new current schema, no snapshot. SchemaUpdate.commit never retries: through a
  // pointer catalog it fails on any change since it started ("Cannot commit"), through a REST
  // catalog only when the schema changed (assert-current-schema-id), the server retrying the rest.
  kSchemaChange,
  kExpireSnapshots,  // RemoveSnapshots: drop old snapshots, then delete their files
  // BaseReplacePartitions (dynamic partition overwrite): add files and drop every live file of
  // the partitions they fall in (of the whole table when it is unpartitioned).
  kReplacePartitions,
  // BaseRowDelta (merge-on-read UPDATE/DELETE/MERGE): add data files and delete files.
  kRowDelta,
};
// "append", "overwrite-by-filter", "rewrite", "delete-files", "delete-by-filter",
// "schema-change", "expire-snapshots", "replace-partitions", "row-delta"
std::string_view OperationKindName(OperationKind kind);
// The Java class that does it: "MergeAppend", "BaseOverwriteFiles", "BaseRewriteFiles",
// "StreamingDelete", "SchemaUpdate", "RemoveSnapshots", "BaseReplacePartitions" (as "Committed
// snapshot N (Class)" logs), "BaseRowDelta".
std::string_view OperationClassName(OperationKind kind);

// ExpireSnapshots settings, after history.expire.min-snapshots-to-keep and expireOlderThan.
struct ExpireOptions {
  int retain_last = 1;  // the newest N ancestors of the current snapshot are kept (>= 1)
  // Only snapshots older than this are expired; the default lets any age go.
  int64_t older_than_ms = std::numeric_limits<int64_t>::max();
};

// What a ReplacePartitions validates (none by default, as upstream: Spark's overwritePartitions
// turns them on through its isolation-level write option).
struct ReplaceValidation {
  bool no_conflicting_data = false;     // validateNoConflictingData()
  bool no_conflicting_deletes = false;  // validateNoConflictingDeletes()
  bool append_only = false;             // validateAppendOnly(): fail rather than drop a live file
};

// What an overwrite by filter validates (BaseOverwriteFiles.validate). Unset: what Spark's
// copy-on-write commit asks at the operation's isolation level (validateNoConflictingData only when
// serializable, validateNoConflictingDeletes always); {false, false} is the unvalidated overwrite
// of a bare newOverwrite(), which drops whatever matches its filter when it commits.
struct OverwriteValidation {
  bool no_conflicting_data = false;     // validateNoConflictingData()
  bool no_conflicting_deletes = false;  // validateNoConflictingDeletes()
};

// What a RowDelta validates (Spark's SparkPositionDeltaWrite turns these on per command and level).
struct RowDeltaValidation {
  bool data_files_exist = false;        // validateDataFilesExist(referenced data files)
  bool deleted_files = false;           // validateDeletedFiles(): a concurrent delete counts too
  bool no_conflicting_data = false;     // validateNoConflictingDataFiles()
  bool no_conflicting_deletes = false;  // validateNoConflictingDeleteFiles()
};

struct Operation {
  OperationKind kind = OperationKind::kAppend;
  // The isolation level of overwrite-by-filter and delete-by-filter (Spark's
  // write.{delete,update,merge}.isolation-level, default serializable); ignored by the others.
  IsolationLevel isolation = IsolationLevel::kSerializable;
  std::optional<int64_t> starting_snapshot_id = {};  // the current snapshot when the writer read
  int32_t starting_schema_id = 0;
  int64_t starting_version = 0;               // the metadata version it started from
  Expression filter = {};                     // overwrite / delete by filter: row and conflict filter
  std::vector<FileRef> files_to_add = {};     // append, overwrite, rewrite
  std::vector<FileRef> files_to_delete = {};  // rewrite, delete files, delete by filter (from the scan)
  int32_t new_schema_id = 0;                  // schema change
  ExpireOptions expire = {};                  // expire snapshots
  // replace partitions: the partitions of files_to_add, in the order first added ({""} on an
  // unpartitioned table), and what to validate.
  std::vector<std::string> replaced_partitions = {};
  ReplaceValidation replace_validation = {};
  std::optional<OverwriteValidation> overwrite_validation = {};  // overwrite by filter
  // row delta: delete files to add, the data files its position deletes name, the conflict
  // detection filter (`filter`, alwaysTrue by default) and what to validate.
  std::vector<FileRef> deletes_to_add = {};
  std::vector<std::string> referenced_data_files = {};
  RowDeltaValidation row_delta_validation = {};
  int64_t identifier = 0;  // the caller's tag, copied into events
};

// `base` is the metadata the writer read; the operation starts from its current snapshot.
Operation NewAppend(const TableMetadata& base, std::vector<FileRef> files);
Operation NewOverwriteByFilter(const TableMetadata& base, Expression filter, std::vector<FileRef> files,
                               IsolationLevel isolation = IsolationLevel::kSerializable,
                               std::optional<OverwriteValidation> validation = std::nullopt);
Operation NewRewrite(const TableMetadata& base, std::vector<FileRef> files_to_delete,
                     std::vector<FileRef> files_to_add);
Operation NewDeleteFiles(const TableMetadata& base, std::vector<FileRef> files);
// Scans base's current snapshot for the files `filter` touches; each must match in every row
// (a copy-on-write DELETE would rewrite a partly matching file: build that as NewRewrite).
// Conflict (ValidationException, Iceberg's text) for a partly matching file.
Result<Operation> NewDeleteByFilter(const TableMetadata& base, Expression filter,
                                    IsolationLevel isolation = IsolationLevel::kSerializable);
// `validate_from_start`: no validateFromSnapshot call, so the validations look at the table's whole
// history rather than at what was committed since `base`.
Operation NewReplacePartitions(const TableMetadata& base, std::vector<FileRef> files, ReplaceValidation validation,
                               bool validate_from_start = false);
// A RowDelta adding `rows` and `deletes`; the data files the position deletes name are
// referenced. `conflict_filter` is conflictDetectionFilter.
Operation NewRowDelta(const TableMetadata& base, std::vector<FileRef> rows, std::vector<FileRef> deletes,
                      Expression conflict_filter, RowDeltaValidation validation, bool validate_from_start = false);
Operation NewSchemaChange(const TableMetadata& base, int32_t new_schema_id);
Operation NewExpireSnapshots(ExpireOptions options);

// A ReplacePartitions on an unpartitioned table (its files' partition is "") replaces everything
// (deleteByRowFilter(alwaysTrue)); one that adds no file replaces nothing.
inline bool ReplacesWholeTable(const Operation& op) {
  return op.replaced_partitions.size() == 1 && op.replaced_partitions[0].empty();
}

// Iceberg's "Cannot delete file where some, but not all, rows match filter %s: %s".
std::string PartialDeleteMessage(const Expression& filter, const std::string& path);

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_OPERATION_H_
