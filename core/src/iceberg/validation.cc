#include "commitlab/core/iceberg/validation.h"

#include <fmt/format.h>

#include <initializer_list>
#include <string>

namespace commitlab::iceberg {
namespace {

// Guava's Iterators.toString: [a, b].
std::string JavaList(const std::vector<std::string>& items) { return fmt::format("[{}]", fmt::join(items, ", ")); }

// The files `pick` selects from the snapshots whose operation is one of `ops`, that can contain
// rows matching `filter`. `cause` (if not null) gets them and the oldest snapshot holding one.
template <typename Pick>
std::vector<std::string> Conflicts(const std::vector<SnapshotRef>& history, const Expression& filter,
                                   std::initializer_list<DataOperation> ops, Pick pick, EventCause* cause) {
  std::vector<std::string> out;
  for (const SnapshotRef& s : history) {
    bool relevant = false;
    for (DataOperation op : ops) relevant |= s->operation == op;
    if (!relevant) continue;
    const size_t before = out.size();
    for (const FileRef& f : pick(*s))
      if (CanContainMatches(filter, *f)) out.push_back(f->path());
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

}  // namespace

Status ValidationFailure(std::string_view message) {
  return Status::Conflict(fmt::format("ValidationException: {}", message));
}

Result<std::vector<SnapshotRef>> ValidationHistory(const TableMetadata& base,
                                                   const std::optional<int64_t>& starting_snapshot_id) {
  std::vector<SnapshotRef> out;
  for (SnapshotRef s = base.CurrentSnapshot(); s != nullptr && s->snapshot_id != starting_snapshot_id;
       s = s->parent_id ? base.FindSnapshot(*s->parent_id) : nullptr) {
    out.push_back(s);
  }
  if (!out.empty() && out.back()->parent_id != starting_snapshot_id) {
    return ValidationFailure(
        fmt::format("Cannot determine history between starting snapshot {} and the last known "
                    "ancestor {}",
                    FormatSnapshotId(starting_snapshot_id), out.back()->snapshot_id));
  }
  return out;
}

Status ValidateAddedDataFiles(const std::vector<SnapshotRef>& history, const Expression& filter,
                              EventCause* cause) {
  // VALIDATE_ADDED_FILES_OPERATIONS: a replace (compaction) adds no new data.
  std::vector<std::string> conflicts =
      Conflicts(history, filter, {DataOperation::kAppend, DataOperation::kOverwrite},
                [](const Snapshot& s) -> const std::vector<FileRef>& { return s.added_files; }, cause);
  if (conflicts.empty()) return Status::OK();
  return ValidationFailure(fmt::format("Found conflicting files that can contain records matching {}: {}",
                                       FormatExpression(filter), JavaList(conflicts)));
}

Status ValidateDeletedDataFiles(const std::vector<SnapshotRef>& history, const Expression& filter,
                                EventCause* cause) {
  std::vector<std::string> conflicts =
      Conflicts(history, filter, {DataOperation::kOverwrite, DataOperation::kReplace, DataOperation::kDelete},
                [](const Snapshot& s) -> const std::vector<FileRef>& { return s.deleted_files; }, cause);
  if (conflicts.empty()) return Status::OK();
  return ValidationFailure(fmt::format("Found conflicting deleted files that can contain records matching {}: {}",
                                       FormatExpression(filter), JavaList(conflicts)));
}

Status ValidateRequiredDeletes(const FileSet& live, const std::vector<FileRef>& files_to_delete,
                               EventCause* cause) {
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
      // BaseOverwriteFiles.validate: validateNoConflictingData only when serializable,
      // validateNoConflictingDeletes at both levels (Spark's copy-on-write commit).
      Result<std::vector<SnapshotRef>> history = ValidationHistory(base, op.starting_snapshot_id);
      if (!history.ok()) return history.status();
      if (serializable) COMMITLAB_RETURN_IF_ERROR(ValidateAddedDataFiles(*history, op.filter, cause));
      return ValidateDeletedDataFiles(*history, op.filter, cause);
    }
    case OperationKind::kDeleteByFilter: {
      // Explicit file deletes with the scan filter as conflict filter: the delete side is
      // failMissingDeletePaths, not a filter check.
      if (serializable) {
        Result<std::vector<SnapshotRef>> history = ValidationHistory(base, op.starting_snapshot_id);
        if (!history.ok()) return history.status();
        COMMITLAB_RETURN_IF_ERROR(ValidateAddedDataFiles(*history, op.filter, cause));
      }
      return ValidateRequiredDeletes(base.LiveFiles(), op.files_to_delete, cause);
    }
    case OperationKind::kRewrite:
    case OperationKind::kDeleteFiles: return ValidateRequiredDeletes(base.LiveFiles(), op.files_to_delete, cause);
    case OperationKind::kSchemaChange: return ValidateSchemaUnchanged(base, op.starting_schema_id);
  }
  return Status::OK();
}

}  // namespace commitlab::iceberg
