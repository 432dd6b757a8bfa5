#include "commitlab/core/paimon/table_state.h"

#include <fmt/format.h>

#include <map>
#include <string_view>
#include <tuple>

#include "commitlab/core/check.h"

namespace commitlab {

Status TableState::Apply(const Snapshot& s) {
  // Validate first so a bad snapshot leaves the state untouched.
  {
    // Net ADD(+1)/DELETE(-1) per identity within this delta, keyed by views into the snapshot (no
    // string is built: a run's checker applies every snapshot, the explorer a million runs' worth).
    using FileKey = std::tuple<std::string_view, int32_t, int32_t, std::string_view>;
    std::map<FileKey, int> pending;
    for (const FileChange& c : s.changes) {
      const DataFile& f = c.file;
      const FileKey key(f.partition, f.bucket, f.level, f.name);
      int live = (IsLive(f) ? 1 : 0) + pending[key];
      if (c.kind == ChangeKind::kAdd) {
        if (live > 0)
          return Status::Corruption(fmt::format("snapshot {} adds file {} which is already live", s.id, f.name));
        ++pending[key];
      } else {
        if (live <= 0)
          return Status::Corruption(fmt::format("snapshot {} deletes file {} which is not live", s.id, f.name));
        --pending[key];
      }
    }
  }
  for (const FileChange& c : s.changes) {
    const DataFile& f = c.file;
    if (c.kind == ChangeKind::kAdd) {
      AddLive(f, s.id);
    } else {
      if (auto it = added_in_.find({f.partition, f.bucket, f.level, f.name}); it != added_in_.end()) {
        const size_t indexed = total_buckets_[f.partition].erase({it->second, f.bucket, f.level, f.name});
        COMMITLAB_CHECK(indexed == 1, "a file's bucket count is indexed under the snapshot that added it");
        added_in_.erase(it);
      }
      auto& bucket = partitions_[f.partition][f.bucket];
      auto& level = bucket[f.level];
      COMMITLAB_CHECK(level.erase(f.name) == 1 && live_files_ > 0, "validated above: a DELETE removes a live file");
      --live_files_;
      if (level.empty()) bucket.erase(f.level);
    }
  }
  snapshot_id_ = s.id;
  total_records_ = s.total_records;
  COMMITLAB_DCHECK(live_files_ == CountLiveFiles(), "the live file count follows every ADD and DELETE");
  return Status::OK();
}

size_t TableState::CountLiveFiles() const {
  size_t n = 0;
  for (const auto& [p, buckets] : partitions_)
    for (const auto& [b, levels] : buckets)
      for (const auto& [l, files] : levels) n += files.size();
  return n;
}

void TableState::AddLive(const DataFile& f) { AddLive(f, 0); }

void TableState::AddLive(const DataFile& f, int64_t snapshot_id) {
  const bool added = partitions_[f.partition][f.bucket][f.level].emplace(f.name, f).second;
  COMMITLAB_CHECK(added, "a file is live at most once: Apply validated the ADD, and AddLive adds a new file");
  ++live_files_;
  if (f.total_buckets > 0) {
    total_buckets_[f.partition].emplace(AddedFile{snapshot_id, f.bucket, f.level, f.name}, f.total_buckets);
    added_in_.emplace(std::make_tuple(f.partition, f.bucket, f.level, f.name), snapshot_id);
  }
}

std::vector<int32_t> TableState::TotalBucketsInCommitOrder(const std::string& partition) const {
  std::vector<int32_t> out;
  auto it = total_buckets_.find(partition);
  if (it == total_buckets_.end()) return out;
  for (const auto& [added, n] : it->second) out.push_back(n);
  return out;
}

const TableState::BucketFiles* TableState::Bucket(const std::string& partition, int32_t bucket) const {
  auto p = partitions_.find(partition);
  if (p == partitions_.end()) return nullptr;
  auto b = p->second.find(bucket);
  return b == p->second.end() ? nullptr : &b->second;
}

bool TableState::IsLive(const DataFile& f) const {
  const BucketFiles* b = Bucket(f.partition, f.bucket);
  if (b == nullptr) return false;
  auto l = b->find(f.level);
  return l != b->end() && l->second.count(f.name) > 0;
}

std::vector<DataFile> TableState::LiveFiles() const {
  std::vector<DataFile> out;
  out.reserve(live_files_);
  for (const auto& [p, buckets] : partitions_)
    for (const auto& [b, levels] : buckets)
      for (const auto& [l, files] : levels)
        for (const auto& [n, f] : files) out.push_back(f);
  return out;
}

}  // namespace commitlab
