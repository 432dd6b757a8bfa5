#include "commitlab/core/iceberg/reader.h"

#include <fmt/format.h>

#include <string>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/iceberg/deletes.h"

namespace commitlab::iceberg {

Result<PinnedReader> PinnedReader::Open(IcebergCatalog* catalog, FileIO* io, Env* env,
                                        std::optional<int64_t> snapshot_id) {
  env->BeginStorageOp(StorageOp::kReadLatest);
  Result<MetadataRef> current = catalog->Current();
  env->EndStorageOp(StorageOp::kReadLatest);
  if (!current.ok()) return current.status();
  const TableMetadata& m = **current;

  SnapshotRef s = snapshot_id ? m.FindSnapshot(*snapshot_id) : m.CurrentSnapshot();
  if (snapshot_id && s == nullptr)
    return Status::NotFound(fmt::format("Cannot find snapshot with ID {}", *snapshot_id));
  PinnedReader reader(catalog, io, env);
  reader.metadata_ = *current;
  if (s != nullptr) {
    reader.snapshot_id_ = s->snapshot_id;
    reader.snapshot_ = s;
    for (const auto& entry : *s->live_files) reader.files_.push_back(entry.second);
  }
  return reader;
}

Status PinnedReader::FileNotFound(const std::string& path) {
  COMMITLAB_CHECK(snapshot_id_.has_value(), "a reader has files to read only when pinned to a snapshot");
  env_->BeginStorageOp(StorageOp::kReadLatest);
  Result<MetadataRef> current = catalog_->Current();
  env_->EndStorageOp(StorageOp::kReadLatest);
  const bool expired = current.ok() && (*current)->FindSnapshot(*snapshot_id_) == nullptr;
  if (expired) {
    return Status::NotFound(fmt::format(
        "FileNotFoundException: File does not exist: {} (snapshot {} was expired while this reader was pinned to "
        "it; a retention that keeps it (history.expire.min-snapshots-to-keep, max-snapshot-age-ms) protects long "
        "readers)",
        path, *snapshot_id_));
  }
  return Status::NotFound(fmt::format(
      "FileNotFoundException: File does not exist: {} (snapshot {} is still retained: the file was deleted outside "
      "snapshot expiry)",
      path, *snapshot_id_));
}

Result<std::vector<Row>> PinnedReader::ReadFile(size_t index) {
  if (index >= files_.size()) return Status::InvalidArgument(fmt::format("no planned file {}", index));
  const std::string& path = files_[index]->path();
  env_->BeginStorageOp(StorageOp::kReadSnapshot);
  Result<FileRef> f = io_->ReadDataFile(path);
  env_->EndStorageOp(StorageOp::kReadSnapshot);
  if (!f.ok()) return f.status().code() == Code::kNotFound ? FileNotFound(path) : f.status();
  return snapshot_ != nullptr ? LiveRows(*snapshot_, **f) : (*f)->rows;
}

Result<std::vector<Row>> PinnedReader::ReadAll() {
  std::vector<Row> rows;
  for (size_t i = 0; i < files_.size(); ++i) {
    COMMITLAB_ASSIGN_OR_RETURN(std::vector<Row> r, ReadFile(i));
    for (Row& row : r) rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace commitlab::iceberg
