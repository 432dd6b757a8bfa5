#include "protocols/paimon/table_view.h"

#include <algorithm>
#include <utility>

namespace commitlab::scenarios::internal {

Status TableView::Refresh(SnapshotStore* store, Env* env) {
  env->BeginStorageOp(StorageOp::kReadLatest);
  Result<std::optional<Snapshot>> latest = store->LatestSnapshot();
  env->EndStorageOp(StorageOp::kReadLatest);
  if (!latest.ok()) return latest.status();
  if (!latest->has_value()) return Status::OK();
  const Snapshot& last = **latest;
  if (last.id < state_.snapshot_id()) *this = TableView();  // the table went back: rebuild
  for (int64_t id = state_.snapshot_id() + 1; id < last.id; ++id) {
    env->BeginStorageOp(StorageOp::kReadSnapshot);
    Result<SnapshotRef> s = store->ReadSnapshotRef(id);
    env->EndStorageOp(StorageOp::kReadSnapshot);
    if (!s.ok()) return s.status();
    COMMITLAB_RETURN_IF_ERROR(Apply(**s));
  }
  if (last.id > state_.snapshot_id()) COMMITLAB_RETURN_IF_ERROR(Apply(last));
  return Status::OK();
}

Status TableView::Apply(const Snapshot& s) {
  COMMITLAB_RETURN_IF_ERROR(state_.Apply(s));
  for (const FileChange& c : s.changes) {
    const DataFile& f = c.file;
    FileKey key(f.partition, f.bucket, f.level, f.name);
    if (c.kind == ChangeKind::kAdd) {
      added_[std::move(key)] = next_++;
    } else {
      added_.erase(key);
    }
  }
  return Status::OK();
}

std::vector<DataFile> TableView::Files(const std::string& partition, int32_t bucket, int32_t level) const {
  std::vector<std::pair<int64_t, DataFile>> ordered;
  if (const TableState::BucketFiles* files = state_.Bucket(partition, bucket)) {
    if (auto it = files->find(level); it != files->end()) {
      for (const auto& [name, f] : it->second) {
        auto order = added_.find(FileKey(f.partition, f.bucket, f.level, f.name));
        ordered.emplace_back(order == added_.end() ? -1 : order->second, f);
      }
    }
  }
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first, a.second.name) < std::tie(b.first, b.second.name);
  });
  std::vector<DataFile> out;
  out.reserve(ordered.size());
  for (auto& [order, f] : ordered) out.push_back(std::move(f));
  return out;
}

}  // namespace commitlab::scenarios::internal
