#include "commitlab/core/memory_store.h"

#include <fmt/format.h>

#include <algorithm>

namespace commitlab {

Result<std::optional<Snapshot>> MemoryStore::LatestSnapshot() {
  std::lock_guard<std::mutex> lock(mu_);
  if (snapshots_.empty()) return std::optional<Snapshot>();
  return std::optional<Snapshot>(snapshots_.back());
}

Result<Snapshot> MemoryStore::ReadSnapshot(int64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (id < 1 || id > static_cast<int64_t>(snapshots_.size()))
    return Status::NotFound(fmt::format("Snapshot file snapshot-{} does not exist.", id));
  return snapshots_[static_cast<size_t>(id - 1)];
}

Status MemoryStore::WriteManifest(const std::string& name, const std::vector<FileChange>&) {
  std::lock_guard<std::mutex> lock(mu_);
  manifests_.push_back(name);
  return Status::OK();
}

PublishResult MemoryStore::Publish(const Snapshot& s) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto next = static_cast<int64_t>(snapshots_.size()) + 1;
  if (s.id < next) return {PublishOutcome::kAlreadyExists, Status::OK()};
  if (s.id > next)
    return {PublishOutcome::kError,
            Status::InvalidArgument(fmt::format("snapshot-{} would leave a gap after snapshot-{}", s.id, next - 1))};
  PutLocked(s);
  return {PublishOutcome::kPublished, Status::OK()};
}

void MemoryStore::PutLocked(const Snapshot& s) {
  const auto index = static_cast<size_t>(s.id - 1);
  if (index < snapshots_.size()) {
    snapshots_[index] = s;
  } else {
    snapshots_.resize(index);
    snapshots_.push_back(s);
  }
}

Status MemoryStore::WriteDataFile(const DataFile& f) {
  std::lock_guard<std::mutex> lock(mu_);
  data_files_.insert(f.name);
  return Status::OK();
}

bool MemoryStore::DataFileExists(const DataFile& f) {
  std::lock_guard<std::mutex> lock(mu_);
  return data_files_.count(f.name) > 0;
}

std::vector<std::string> MemoryStore::ListManifests() {
  std::vector<std::string> names;
  {
    std::lock_guard<std::mutex> lock(mu_);
    names = manifests_;
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<std::string> MemoryStore::ListDataFiles() {
  std::lock_guard<std::mutex> lock(mu_);
  return {data_files_.begin(), data_files_.end()};
}

}  // namespace commitlab
