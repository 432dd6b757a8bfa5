#include "commitlab/core/iceberg/operation.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "commitlab/core/iceberg/validation.h"

namespace commitlab::iceberg {
namespace {

Operation Start(OperationKind kind, const TableMetadata& base) {
  Operation op;
  op.kind = kind;
  op.starting_snapshot_id = base.current_snapshot_id;
  op.starting_schema_id = base.current_schema_id;
  op.starting_version = base.version;
  return op;
}

}  // namespace

std::string_view OperationKindName(OperationKind kind) {
  switch (kind) {
    case OperationKind::kAppend: return "append";
    case OperationKind::kOverwriteByFilter: return "overwrite-by-filter";
    case OperationKind::kRewrite: return "rewrite";
    case OperationKind::kDeleteFiles: return "delete-files";
    case OperationKind::kDeleteByFilter: return "delete-by-filter";
    case OperationKind::kSchemaChange: return "schema-change";
    case OperationKind::kExpireSnapshots: return "expire-snapshots";
    case OperationKind::kReplacePartitions: return "replace-partitions";
    case OperationKind::kRowDelta: return "row-delta";
  }
  return "?";
}

std::string_view OperationClassName(OperationKind kind) {
  switch (kind) {
    case OperationKind::kAppend: return "MergeAppend";
    case OperationKind::kOverwriteByFilter:
    case OperationKind::kDeleteByFilter: return "BaseOverwriteFiles";
    case OperationKind::kRewrite: return "BaseRewriteFiles";
    case OperationKind::kDeleteFiles: return "StreamingDelete";
    case OperationKind::kSchemaChange: return "SchemaUpdate";
    case OperationKind::kExpireSnapshots: return "RemoveSnapshots";
    case OperationKind::kReplacePartitions: return "BaseReplacePartitions";
    case OperationKind::kRowDelta: return "BaseRowDelta";
  }
  return "?";
}

Operation NewAppend(const TableMetadata& base, std::vector<FileRef> files) {
  Operation op = Start(OperationKind::kAppend, base);
  op.files_to_add = std::move(files);
  return op;
}

Operation NewOverwriteByFilter(const TableMetadata& base, Expression filter, std::vector<FileRef> files,
                               IsolationLevel isolation, std::optional<OverwriteValidation> validation) {
  Operation op = Start(OperationKind::kOverwriteByFilter, base);
  op.filter = std::move(filter);
  op.files_to_add = std::move(files);
  op.isolation = isolation;
  op.overwrite_validation = validation;
  return op;
}

Operation NewRewrite(const TableMetadata& base, std::vector<FileRef> files_to_delete,
                     std::vector<FileRef> files_to_add) {
  Operation op = Start(OperationKind::kRewrite, base);
  op.files_to_delete = std::move(files_to_delete);
  op.files_to_add = std::move(files_to_add);
  return op;
}

Operation NewDeleteFiles(const TableMetadata& base, std::vector<FileRef> files) {
  Operation op = Start(OperationKind::kDeleteFiles, base);
  op.files_to_delete = std::move(files);
  return op;
}

Result<Operation> NewDeleteByFilter(const TableMetadata& base, Expression filter, IsolationLevel isolation) {
  Operation op = Start(OperationKind::kDeleteByFilter, base);
  for (const auto& entry : base.LiveFiles()) {
    const IcebergDataFile& f = *entry.second;
    if (!CanContainMatches(filter, f)) continue;
    if (!AllRowsMatch(filter, f)) return ValidationFailure(PartialDeleteMessage(filter, f.path()));
    op.files_to_delete.push_back(entry.second);
  }
  op.filter = std::move(filter);
  op.isolation = isolation;
  return op;
}

Operation NewReplacePartitions(const TableMetadata& base, std::vector<FileRef> files, ReplaceValidation validation,
                               bool validate_from_start) {
  Operation op = Start(OperationKind::kReplacePartitions, base);
  if (validate_from_start) op.starting_snapshot_id.reset();
  for (const FileRef& f : files) {
    const std::string& p = f->file.partition;
    if (std::find(op.replaced_partitions.begin(), op.replaced_partitions.end(), p) == op.replaced_partitions.end())
      op.replaced_partitions.push_back(p);
  }
  op.files_to_add = std::move(files);
  op.replace_validation = validation;
  return op;
}

Operation NewRowDelta(const TableMetadata& base, std::vector<FileRef> rows, std::vector<FileRef> deletes,
                      Expression conflict_filter, RowDeltaValidation validation, bool validate_from_start) {
  Operation op = Start(OperationKind::kRowDelta, base);
  if (validate_from_start) op.starting_snapshot_id.reset();
  for (const FileRef& d : deletes)
    for (const PositionDelete& p : d->positions)
      if (std::find(op.referenced_data_files.begin(), op.referenced_data_files.end(), p.path) ==
          op.referenced_data_files.end())
        op.referenced_data_files.push_back(p.path);
  op.files_to_add = std::move(rows);
  op.deletes_to_add = std::move(deletes);
  op.filter = std::move(conflict_filter);
  op.row_delta_validation = validation;
  return op;
}

Operation NewSchemaChange(const TableMetadata& base, int32_t new_schema_id) {
  Operation op = Start(OperationKind::kSchemaChange, base);
  op.new_schema_id = new_schema_id;
  return op;
}

Operation NewExpireSnapshots(ExpireOptions options) {
  Operation op;
  op.kind = OperationKind::kExpireSnapshots;
  op.expire = options;
  return op;
}

std::string PartialDeleteMessage(const Expression& filter, const std::string& path) {
  return fmt::format("Cannot delete file where some, but not all, rows match filter {}: {}", FormatExpression(filter),
                     path);
}

}  // namespace commitlab::iceberg
