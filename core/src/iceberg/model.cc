#include "commitlab/core/iceberg/model.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <utility>

namespace commitlab::iceberg {

FileRef MakeDataFile(std::string path, std::vector<Row> rows, std::string partition) {
  auto f = std::make_shared<IcebergDataFile>();
  f->file.name = std::move(path);
  f->file.partition = std::move(partition);
  f->file.row_count = static_cast<int64_t>(rows.size());
  f->rows = std::move(rows);
  return f;
}

FileRef MakePositionDeleteFile(std::string path, std::vector<PositionDelete> positions, std::string partition) {
  auto f = std::make_shared<IcebergDataFile>();
  f->file.name = std::move(path);
  f->file.partition = std::move(partition);
  f->file.row_count = static_cast<int64_t>(positions.size());
  f->content = FileContent::kPositionDeletes;
  f->positions = std::move(positions);
  return f;
}

FileRef MakeEqualityDeleteFile(std::string path, std::vector<std::string> columns, std::vector<Row> rows,
                               std::string partition) {
  auto f = std::make_shared<IcebergDataFile>();
  f->file.name = std::move(path);
  f->file.partition = std::move(partition);
  f->file.row_count = static_cast<int64_t>(rows.size());
  f->content = FileContent::kEqualityDeletes;
  f->equality_columns = std::move(columns);
  f->rows = std::move(rows);
  return f;
}

std::string_view DataOperationName(DataOperation op) {
  switch (op) {
    case DataOperation::kAppend: return "append";
    case DataOperation::kReplace: return "replace";
    case DataOperation::kOverwrite: return "overwrite";
    case DataOperation::kDelete: return "delete";
  }
  return "?";
}

std::string_view IsolationLevelName(IsolationLevel level) {
  return level == IsolationLevel::kSerializable ? "serializable" : "snapshot";
}

std::optional<IsolationLevel> ParseIsolationLevel(std::string_view s) {
  if (s == "serializable") return IsolationLevel::kSerializable;
  if (s == "snapshot") return IsolationLevel::kSnapshot;
  return std::nullopt;
}

SnapshotRef TableMetadata::FindSnapshot(int64_t id) const {
  // Newest first: the one looked for is almost always the current snapshot, the last one added.
  for (size_t i = snapshots.size(); i > 0; --i)
    if (snapshots[i - 1]->snapshot_id == id) return snapshots[i - 1];
  return nullptr;
}

SnapshotRef TableMetadata::CurrentSnapshot() const {
  return current_snapshot_id ? FindSnapshot(*current_snapshot_id) : nullptr;
}

const FileSet& TableMetadata::LiveFiles() const {
  static const FileSet* const kEmpty = new FileSet();
  SnapshotRef s = CurrentSnapshot();
  return s ? *s->live_files : *kEmpty;
}

const FileSet& TableMetadata::LiveDeletes() const {
  static const FileSet* const kEmpty = new FileSet();
  SnapshotRef s = CurrentSnapshot();
  return s && s->live_deletes ? *s->live_deletes : *kEmpty;
}

const TableFields& TableMetadata::Fields() const {
  static const TableFields* const kDefaults = new TableFields();
  return fields != nullptr ? *fields : *kDefaults;
}

TableMetadata NewTableMetadata(std::string table_name, int32_t schema_id, std::string_view uuid) {
  TableMetadata m;
  m.table_name = std::move(table_name);
  m.version = 0;
  m.location = MetadataFilePath(0, uuid);
  m.current_schema_id = schema_id;
  return m;
}

std::string MetadataFilePath(int64_t version, std::string_view uuid) {
  // fmt::format("metadata/{:05d}-{}.metadata.json", ...) by hand: every commit attempt names one.
  char digits[20];
  const char* const end = std::to_chars(digits, digits + sizeof digits, version).ptr;
  const auto width = static_cast<size_t>(end - digits);  // with the sign, which {:05d} counts
  const size_t sign = version < 0 ? 1 : 0;
  std::string path;
  constexpr std::string_view kFolder = "metadata/", kSuffix = ".metadata.json";
  path.reserve(kFolder.size() + std::max<size_t>(width, 5) + 1 + uuid.size() + kSuffix.size());
  path += kFolder;
  path.append(digits, sign);
  path.append(width < 5 ? 5 - width : 0, '0');
  path.append(digits + sign, width - sign);
  path += '-';
  path += uuid;
  path += kSuffix;
  return path;
}

std::string FormatSnapshotId(const std::optional<int64_t>& id) {
  return id ? fmt::format("{}", *id) : std::string("null");
}

}  // namespace commitlab::iceberg
