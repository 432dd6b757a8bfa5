#include "commitlab/core/paimon/memory_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "commitlab/core/check.h"

namespace commitlab {

Result<std::optional<Snapshot>> MemoryStore::LatestSnapshot() {
  COMMITLAB_ASSIGN_OR_RETURN(SnapshotRef latest, LatestSnapshotRef());
  if (latest == nullptr) return std::optional<Snapshot>();
  return std::optional<Snapshot>(*latest);
}

Result<SnapshotRef> MemoryStore::LatestSnapshotRef() {
  MaybeMutexLock lock(&mu_, locking_);
  if (snapshots_.empty()) return SnapshotRef();
  return snapshots_.back();
}

Result<Snapshot> MemoryStore::ReadSnapshot(int64_t id) {
  Result<SnapshotRef> s = ReadSnapshotRef(id);
  if (!s.ok()) return s.status();
  return **s;
}

Result<SnapshotRef> MemoryStore::ReadSnapshotRef(int64_t id) {
  MaybeMutexLock lock(&mu_, locking_);
  if (id < 1 || id > static_cast<int64_t>(snapshots_.size()))
    return Status::NotFound(fmt::format("Snapshot file snapshot-{} does not exist.", id));
  const SnapshotRef& s = snapshots_[static_cast<size_t>(id - 1)];
  COMMITLAB_DCHECK(s->id == id, "snapshot N is stored at index N - 1 (PutLocked keeps them in id order)");
  return s;
}

Status MemoryStore::WriteManifest(const std::string& name, const std::vector<FileChange>&) {
  if (!keep_manifests_) return Status::OK();
  MaybeMutexLock lock(&mu_, locking_);
  manifest_names_.Add(name);
  return Status::OK();
}

PublishResult MemoryStore::Publish(const Snapshot& s) {
  MaybeMutexLock lock(&mu_, locking_);
  const auto next = static_cast<int64_t>(snapshots_.size()) + 1;
  if (s.id < next) return {PublishOutcome::kAlreadyExists, Status::OK()};
  if (s.id > next)
    return {PublishOutcome::kError,
            Status::InvalidArgument(fmt::format("snapshot-{} would leave a gap after snapshot-{}", s.id, next - 1))};
  PutLocked(s);
  return {PublishOutcome::kPublished, Status::OK()};
}

void MemoryStore::PutLocked(const Snapshot& s) {
  if (locking_) mu_.AssertHeld();  // a store for one thread takes no lock (MaybeMutexLock)
  const auto index = static_cast<size_t>(s.id - 1);
  COMMITLAB_CHECK(s.id >= 1 && index <= snapshots_.size(), "snapshots are stored in id order, without gaps");
  auto stored = std::make_shared<const Snapshot>(s);
  if (index < snapshots_.size()) {
    snapshots_[index] = std::move(stored);
  } else {
    snapshots_.push_back(std::move(stored));
  }
}

Status MemoryStore::WriteDataFile(const DataFile& f) {
  MaybeMutexLock lock(&mu_, locking_);
  data_files_.insert(f.name);
  return Status::OK();
}

bool MemoryStore::DataFileExists(const DataFile& f) {
  MaybeMutexLock lock(&mu_, locking_);
  return data_files_.count(f.name) > 0;
}

Status MemoryStore::DeleteDataFile(const DataFile& f) {
  MaybeMutexLock lock(&mu_, locking_);
  if (data_files_.erase(f.name) == 0) return Status::NotFound(fmt::format("data file {} does not exist", f.name));
  return Status::OK();
}

std::vector<std::string> MemoryStore::ListManifests() {
  std::vector<std::string> names;
  {
    MaybeMutexLock lock(&mu_, locking_);
    manifest_names_.ForEach([&names](std::string_view name) { names.emplace_back(name); });
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<std::string> MemoryStore::ListDataFiles() {
  MaybeMutexLock lock(&mu_, locking_);
  return {data_files_.begin(), data_files_.end()};
}

void MemoryStore::ForEachFile(const std::function<void(std::string_view)>& f) {
  MaybeMutexLock lock(&mu_, locking_);
  manifest_names_.ForEach(f);
  for (const std::string& name : data_files_) f(name);
}

}  // namespace commitlab
