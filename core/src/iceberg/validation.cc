#include "commitlab/core/iceberg/validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string>

#include "commitlab/core/check.h"

namespace commitlab::iceberg {
namespace {

// Guava's Iterators.toString: [a, b].
std::string JavaList(const std::vector<std::string>& items) { return fmt::format("[{}]", fmt::join(items, ", ")); }

// The files `pick` selects from the snapshots whose operation is one of `ops` that `matches`
// accepts. `cause` (if not null) gets them and the oldest snapshot holding one.
template <typename Pick, typename Matches>
std::vector<std::string> Conflicts(const std::vector<SnapshotRef>& history, std::initializer_list<DataOperation> ops,
                                   Pick pick, Matches matches, EventCause* cause) {
  std::vector<std::string> out;
  for (const SnapshotRef& s : history) {
    bool relevant = false;
    for (DataOperation op : ops) relevant |= s->operation == op;
    if (!relevant) continue;
    const size_t before = out.size();
    for (const FileRef& f : pick(*s))
      if (matches(*f)) out.push_back(f->path());
    if (cause != nullptr && out.size() > before) {  // history runs newest first: the last is the oldest
      cause->snapshot = s->sequence_number;
      cause->by = s->committed_by;
    }
  }
  if (cause != nullptr && !out.empty()) {
    cause->kind = CauseKind::kValidation;
    cause->files = out;
  }
  return out;
}

const std::vector<FileRef>& Added(const Snapshot& s) { return s.added_files; }
const std::vector<FileRef>& Deleted(const Snapshot& s) { return s.deleted_files; }

// VALIDATE_ADDED_FILES_OPERATIONS: a replace (compaction) adds no new data.
constexpr std::initializer_list<DataOperation> kAddingOps = {DataOperation::kAppend, DataOperation::kOverwrite};
constexpr std::initializer_list<DataOperation> kDeletingOps = {DataOperation::kOverwrite, DataOperation::kReplace,
                                                               DataOperation::kDelete};

auto InPartitions(std::vector<std::string> partitions) {
  return [partitions = std::move(partitions)](const IcebergDataFile& f) {
    return std::find(partitions.begin(), partitions.end(), f.file.partition) != partitions.end();
  };
}

// PartitionSet.toString: [data_bucket=0, data_bucket=1].
std::string FormatPartitionSet(const std::vector<std::string>& partitions) { return JavaList(partitions); }

}  // namespace

Status ValidationFailure(std::string_view message) {
  return Status::Conflict(fmt::format("ValidationException: {}", message));
}

Result<std::vector<SnapshotRef>> ValidationHistory(const TableMetadata& base,
                                                   const std::optional<int64_t>& starting_snapshot_id) {
  std::vector<SnapshotRef> out;
  for (SnapshotRef s = base.CurrentSnapshot(); s != nullptr && s->snapshot_id != starting_snapshot_id;
       s = s->parent_id ? base.FindSnapshot(*s->parent_id) : nullptr) {
    // A walk longer than the table goes round a cycle of parent ids, which only a damaged metadata
    // file can hold (a snapshot written whole names any parent): refuse it rather than loop.
    if (out.size() == base.snapshots.size()) {
      return Status::Corruption(
          fmt::format("{}: the parents of snapshot {} lead back to it: the table metadata is "
                      "damaged",
                      base.location, s->snapshot_id));
    }
    out.push_back(s);
  }
  COMMITLAB_DCHECK(std::adjacent_find(out.begin(), out.end(),
                                      [](const SnapshotRef& newer, const SnapshotRef& older) {
                                        return newer->parent_id != older->snapshot_id;
                                      }) == out.end(),
                   "a validation history runs newest first, each snapshot the parent of the one before");
  if (!out.empty() && out.back()->parent_id != starting_snapshot_id) {
    return ValidationFailure(
        fmt::format("Cannot determine history between starting snapshot {} and the last known "
                    "ancestor {}",
                    FormatSnapshotId(starting_snapshot_id), out.back()->snapshot_id));
  }
  return out;
}

Status ValidateAddedDataFiles(const std::vector<SnapshotRef>& history, const Expression& filter, EventCause* cause) {
  std::vector<std::string> conflicts = Conflicts(
      history, kAddingOps, Added, [&](const IcebergDataFile& f) { return CanContainMatches(filter, f); }, cause);
  if (conflicts.empty()) return Status::OK();
  return ValidationFailure(fmt::format("Found conflicting files that can contain records matching {}: {}",
                                       FormatExpression(filter), JavaList(conflicts)));
}

Status ValidateDeletedDataFiles(const std::vector<SnapshotRef>& history, const Expression& filter, EventCause* cause) {
  std::vector<std::string> conflicts = Conflicts(
      history, kDeletingOps, Deleted, [&](const IcebergDataFile& f) { return CanContainMatches(filter, f); }, cause);
  if (conflicts.empty()) return Status::OK();
  return ValidationFailure(fmt::format("Found conflicting deleted files that can contain records matching {}: {}",
                                       FormatExpression(filter), JavaList(conflicts)));
}

Status ValidateAddedDataFiles(const std::vector<SnapshotRef>& history, const std::vector<std::string>& partitions,
                              EventCause* cause) {
  std::vector<std::string> conflicts = Conflicts(history, kAddingOps, Added, InPartitions(partitions), cause);
  if (conflicts.empty()) return Status::OK();
  return ValidationFailure(fmt::format("Found conflicting files that can contain records matching partitions {}: {}",
                                       FormatPartitionSet(partitions), JavaList(conflicts)));
}

Status ValidateDeletedDataFiles(const std::vector<SnapshotRef>& history, const std::vector<std::string>& partitions,
                                EventCause* cause) {
  std::vector<std::string> conflicts = Conflicts(history, kDeletingOps, Deleted, InPartitions(partitions), cause);
  if (conflicts.empty()) return Status::OK();
  // "apply to", where the expression variant says "contain".
  return ValidationFailure(fmt::format("Found conflicting deleted files that can apply to records matching {}: {}",
                                       FormatPartitionSet(partitions), JavaList(conflicts)));
}

namespace {

constexpr std::initializer_list<DataOperation> kAddingDeletesOps = {DataOperation::kOverwrite, DataOperation::kDelete};

const std::vector<FileRef>& AddedDeletes(const Snapshot& s) { return s.added_delete_files; }

// The delete files added in `history` by overwrite/delete snapshots that `matches` accepts; the
// history runs back to just after the start, so their sequence numbers are above its.
template <typename Matches>
std::vector<std::string> NewDeleteFiles(const std::vector<SnapshotRef>& history, Matches matches, EventCause* cause) {
  return Conflicts(history, kAddingDeletesOps, AddedDeletes, matches, cause);
}

// DeleteFileIndex.forDataFile: a position delete naming the file, or an equality delete of its
// partition whose key ranges overlap the file's (canContainEqDeletesForFile, column by column).
bool AppliesTo(const IcebergDataFile& del, const IcebergDataFile& data) {
  if (del.content == FileContent::kPositionDeletes) {
    return std::any_of(del.positions.begin(), del.positions.end(),
                       [&](const PositionDelete& p) { return p.path == data.path(); });
  }
  if (del.file.partition != data.file.partition || del.rows.empty()) return false;
  for (const std::string& column : del.equality_columns) {
    const Value* lo = nullptr;
    const Value* hi = nullptr;
    for (const Row& key : del.rows) {
      auto it = key.find(column);
      if (it == key.end()) continue;
      if (lo == nullptr || it->second < *lo) lo = &it->second;
      if (hi == nullptr || *hi < it->second) hi = &it->second;
    }
    if (lo == nullptr) continue;
    using Op = Expression::Op;
    const Expression range = Expression::And(Expression::Compare(Op::kGreaterThanOrEqual, column, *lo),
                                             Expression::Compare(Op::kLessThanOrEqual, column, *hi));
    if (!CanContainMatches(range, data)) return false;
  }
  return true;
}

}  // namespace

Status ValidateNoNewDeleteFiles(const std::vector<SnapshotRef>& history, const Expression& filter, EventCause* cause) {
  std::vector<std::string> found = NewDeleteFiles(
      history, [&](const IcebergDataFile& f) { return DeleteFileMightMatch(filter, f); }, cause);
  if (found.empty()) return Status::OK();
  return ValidationFailure(fmt::format("Found new conflicting delete files that can apply to records matching {}: {}",
                                       FormatExpression(filter), JavaList(found)));
}

Status ValidateNoNewDeleteFiles(const std::vector<SnapshotRef>& history, const std::vector<std::string>& partitions,
                                EventCause* cause) {
  std::vector<std::string> found = NewDeleteFiles(history, InPartitions(partitions), cause);
  if (found.empty()) return Status::OK();
  return ValidationFailure(fmt::format("Found new conflicting delete files that can apply to records matching {}: {}",
                                       FormatPartitionSet(partitions), JavaList(found)));
}

Status ValidateNoNewDeletesForDataFiles(const std::vector<SnapshotRef>& history, const std::vector<FileRef>& data_files,
                                        EventCause* cause) {
  for (const FileRef& data : data_files) {
    std::vector<std::string> found = NewDeleteFiles(
        history, [&](const IcebergDataFile& del) { return AppliesTo(del, *data); }, cause);
    if (!found.empty())
      return ValidationFailure(fmt::format("Cannot commit, found new delete for replaced data file: {}", data->path()));
  }
  return Status::OK();
}

Status ValidateDataFilesExist(const std::vector<SnapshotRef>& history, const std::vector<std::string>& paths,
                              bool include_deletes, EventCause* cause) {
  const std::initializer_list<DataOperation> with_deletes = {DataOperation::kOverwrite, DataOperation::kReplace,
                                                             DataOperation::kDelete};
  const std::initializer_list<DataOperation> without = {DataOperation::kOverwrite, DataOperation::kReplace};
  std::vector<std::string> missing = Conflicts(
      history, include_deletes ? with_deletes : without, Deleted,
      [&](const IcebergDataFile& f) { return std::find(paths.begin(), paths.end(), f.path()) != paths.end(); }, cause);
  if (missing.empty()) return Status::OK();
  return ValidationFailure(fmt::format("Cannot commit, missing data files: {}", JavaList(missing)));
}

Status ValidateRequiredDeletes(const FileSet& live, const std::vector<FileRef>& files_to_delete, EventCause* cause) {
  std::vector<std::string> missing;
  for (const FileRef& f : files_to_delete)
    if (live.count(f->path()) == 0) missing.push_back(f->path());
  if (missing.empty()) return Status::OK();
  if (cause != nullptr) *cause = {.kind = CauseKind::kValidation, .files = missing};
  // Joiner.on(","): no space.
  return ValidationFailure(fmt::format("Missing required files to delete: {}", fmt::join(missing, ",")));
}

Status ValidateSchemaUnchanged(const TableMetadata& base, int32_t starting_schema_id) {
  if (base.current_schema_id == starting_schema_id) return Status::OK();
  return Status::Conflict(
      fmt::format("CommitFailedException: Requirement failed: current schema changed: expected id {} != {}",
                  starting_schema_id, base.current_schema_id));
}

Status Validate(const Operation& op, const TableMetadata& base, EventCause* cause) {
  const bool serializable = op.isolation == IsolationLevel::kSerializable;
  switch (op.kind) {
    case OperationKind::kAppend:
    case OperationKind::kExpireSnapshots: return Status::OK();
    case OperationKind::kOverwriteByFilter: {
      // BaseOverwriteFiles.validate: by default validateNoConflictingData only when serializable,
      // validateNoConflictingDeletes at both levels (Spark's copy-on-write commit).
      const OverwriteValidation checks = op.overwrite_validation.value_or(
          OverwriteValidation{.no_conflicting_data = serializable, .no_conflicting_deletes = true});
      if (!checks.no_conflicting_data && !checks.no_conflicting_deletes) return Status::OK();
      COMMITLAB_ASSIGN_OR_RETURN(std::vector<SnapshotRef> history, ValidationHistory(base, op.starting_snapshot_id));
      if (checks.no_conflicting_data) COMMITLAB_RETURN_IF_ERROR(ValidateAddedDataFiles(history, op.filter, cause));
      if (!checks.no_conflicting_deletes) return Status::OK();
      COMMITLAB_RETURN_IF_ERROR(ValidateNoNewDeleteFiles(history, op.filter, cause));
      return ValidateDeletedDataFiles(history, op.filter, cause);
    }
    case OperationKind::kDeleteByFilter: {
      // Explicit file deletes with the scan filter as conflict filter: the delete side is
      // failMissingDeletePaths, not a filter check.
      // validateNoConflictingDeletes with explicit files: no new delete for the files replaced.
      COMMITLAB_ASSIGN_OR_RETURN(std::vector<SnapshotRef> history, ValidationHistory(base, op.starting_snapshot_id));
      // validate() runs before apply()'s failMissingDeletePaths.
      if (serializable) COMMITLAB_RETURN_IF_ERROR(ValidateAddedDataFiles(history, op.filter, cause));
      COMMITLAB_RETURN_IF_ERROR(ValidateNoNewDeletesForDataFiles(history, op.files_to_delete, cause));
      return ValidateRequiredDeletes(base.LiveFiles(), op.files_to_delete, cause);
    }
    case OperationKind::kRewrite: {
      // BaseRewriteFiles.validate (no new delete for a replaced file), then apply()'s
      // failMissingDeletePaths.
      COMMITLAB_ASSIGN_OR_RETURN(std::vector<SnapshotRef> history, ValidationHistory(base, op.starting_snapshot_id));
      COMMITLAB_RETURN_IF_ERROR(ValidateNoNewDeletesForDataFiles(history, op.files_to_delete, cause));
      return ValidateRequiredDeletes(base.LiveFiles(), op.files_to_delete, cause);
    }
    case OperationKind::kDeleteFiles: return ValidateRequiredDeletes(base.LiveFiles(), op.files_to_delete, cause);
    case OperationKind::kRowDelta: {
      // BaseRowDelta.validate, in its order; only when the table has a snapshot.
      const RowDeltaValidation& v = op.row_delta_validation;
      if (!base.current_snapshot_id) return Status::OK();
      COMMITLAB_ASSIGN_OR_RETURN(std::vector<SnapshotRef> history, ValidationHistory(base, op.starting_snapshot_id));
      if (v.data_files_exist && !op.referenced_data_files.empty())
        COMMITLAB_RETURN_IF_ERROR(
            ValidateDataFilesExist(history, op.referenced_data_files, /*include_deletes=*/v.deleted_files, cause));
      if (v.no_conflicting_data) COMMITLAB_RETURN_IF_ERROR(ValidateAddedDataFiles(history, op.filter, cause));
      if (v.no_conflicting_deletes) return ValidateNoNewDeleteFiles(history, op.filter, cause);
      return Status::OK();
    }
    case OperationKind::kSchemaChange: return ValidateSchemaUnchanged(base, op.starting_schema_id);
    case OperationKind::kReplacePartitions: {
      // BaseReplacePartitions.validate: by the replaced partitions, or by alwaysTrue when the table
      // is unpartitioned. validateAppendOnly is checked where the files are dropped (apply).
      const ReplaceValidation& v = op.replace_validation;
      if (!v.no_conflicting_data && !v.no_conflicting_deletes) return Status::OK();
      COMMITLAB_ASSIGN_OR_RETURN(std::vector<SnapshotRef> history, ValidationHistory(base, op.starting_snapshot_id));
      const bool partitioned = !ReplacesWholeTable(op);
      if (v.no_conflicting_data)
        COMMITLAB_RETURN_IF_ERROR(partitioned ? ValidateAddedDataFiles(history, op.replaced_partitions, cause)
                                              : ValidateAddedDataFiles(history, Expression::AlwaysTrue(), cause));
      if (v.no_conflicting_deletes) {
        COMMITLAB_RETURN_IF_ERROR(partitioned ? ValidateDeletedDataFiles(history, op.replaced_partitions, cause)
                                              : ValidateDeletedDataFiles(history, Expression::AlwaysTrue(), cause));
        return partitioned ? ValidateNoNewDeleteFiles(history, op.replaced_partitions, cause)
                           : ValidateNoNewDeleteFiles(history, Expression::AlwaysTrue(), cause);
      }
      return Status::OK();
    }
  }
  return Status::OK();
}

}  // namespace commitlab::iceberg
