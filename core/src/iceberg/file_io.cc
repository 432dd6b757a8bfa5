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
  MutexLock l(&mu_);
  std::string path = f.path;
  const auto [it, added] = files_.try_emplace(std::move(path));
  if (!added) return Status::InvalidArgument("File already exists: " + f.path);
  it->second = std::move(f);
  return Status::OK();
}

Result<FileRef> InMemoryFileIO::ReadDataFile(const std::string& path) {
  MutexLock l(&mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound("File does not exist: " + path);
  if (it->second.kind != FileKind::kData) return Status::InvalidArgument("Not a data file: " + path);
  return it->second.data;
}

bool InMemoryFileIO::Exists(const std::string& path) {
  MutexLock l(&mu_);
  return files_.count(path) != 0;
}

Status InMemoryFileIO::Delete(const std::string& path) {
  MutexLock l(&mu_);
  if (files_.erase(path) == 0) return Status::NotFound("File does not exist: " + path);
  return Status::OK();
}

std::vector<StoredFile> InMemoryFileIO::List() {
  MutexLock l(&mu_);
  std::vector<StoredFile> out;
  out.reserve(files_.size());
  for (const auto& entry : files_) out.push_back(entry.second);
  std::sort(out.begin(), out.end(), [](const StoredFile& a, const StoredFile& b) { return a.path < b.path; });
  return out;
}

}  // namespace commitlab::iceberg
