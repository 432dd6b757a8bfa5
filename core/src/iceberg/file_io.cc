#include "commitlab/core/iceberg/file_io.h"

#include <algorithm>
#include <utility>

namespace commitlab::iceberg {

std::string_view FileKindName(FileKind kind) {
  switch (kind) {
    case FileKind::kData: return "data";
    case FileKind::kManifest: return "manifest";
    case FileKind::kManifestList: return "manifest-list";
    case FileKind::kMetadata: return "metadata";
  }
  return "?";
}

Status InMemoryFileIO::Write(StoredFile f) {
  if (!keep_metadata_ && f.kind != FileKind::kData) return Status::OK();
  MaybeMutexLock l(&mu_, locking_);
  const auto [it, added] = files_.insert(std::move(f));
  if (!added) return Status::InvalidArgument("File already exists: " + it->path);  // it has the same path
  return Status::OK();
}

Result<FileRef> InMemoryFileIO::ReadDataFile(const std::string& path) {
  MaybeMutexLock l(&mu_, locking_);
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound("File does not exist: " + path);
  if (it->kind != FileKind::kData) return Status::InvalidArgument("Not a data file: " + path);
  return it->data;
}

bool InMemoryFileIO::Exists(const std::string& path) {
  MaybeMutexLock l(&mu_, locking_);
  return files_.count(path) != 0;
}

Status InMemoryFileIO::Delete(const std::string& path) {
  MaybeMutexLock l(&mu_, locking_);
  const auto it = files_.find(path);
  if (it == files_.end()) {
    if (!keep_metadata_) return Status::OK();  // it may have been a file not kept
    return Status::NotFound("File does not exist: " + path);
  }
  files_.erase(it);
  return Status::OK();
}

std::vector<StoredFile> InMemoryFileIO::List() {
  MaybeMutexLock l(&mu_, locking_);
  std::vector<StoredFile> out(files_.begin(), files_.end());
  std::sort(out.begin(), out.end(), [](const StoredFile& a, const StoredFile& b) { return a.path < b.path; });
  return out;
}

}  // namespace commitlab::iceberg
