#include "commitlab/core/iceberg/maintenance.h"

#include <algorithm>
#include <utility>

#include "commitlab/core/check.h"

namespace commitlab::iceberg {
namespace {

void AddSnapshotFiles(const Snapshot& s, std::set<std::string>* out) {
  if (!s.manifest_list.empty()) out->insert(s.manifest_list);
  for (const ManifestRef& m : s.manifests) out->insert(m->path);
  for (const auto& entry : *s.live_files) out->insert(entry.first);
  if (s.live_deletes != nullptr)
    for (const auto& entry : *s.live_deletes) out->insert(entry.first);
}

}  // namespace

std::set<std::string> ReachableFiles(const TableMetadata& m) {
  std::set<std::string> out;
  out.insert(m.location);
  for (std::string& location : m.metadata_log.Entries()) out.insert(std::move(location));
  for (const SnapshotRef& s : m.snapshots) AddSnapshotFiles(*s, &out);
  return out;
}

std::vector<std::string> FindOrphanFiles(const TableMetadata& m, const std::vector<StoredFile>& files,
                                         int64_t older_than_micros) {
  const std::set<std::string> reachable = ReachableFiles(m);
  std::vector<std::string> out;
  for (const StoredFile& f : files)
    if (f.written_micros < older_than_micros && reachable.count(f.path) == 0) out.push_back(f.path);
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::vector<std::string>> RemoveOrphanFiles(IcebergCatalog* catalog, FileIO* io, Env* env,
                                                   int64_t older_than_micros) {
  env->BeginStorageOp(StorageOp::kReadLatest);
  Result<MetadataRef> current = catalog->Current();
  env->EndStorageOp(StorageOp::kReadLatest);
  if (!current.ok()) return current.status();
  std::vector<std::string> removed;
  for (std::string& path : FindOrphanFiles(**current, io->List(), older_than_micros)) {
    // As in Committer::DeleteFile, a delete is charged as a write.
    env->BeginStorageOp(StorageOp::kWriteManifest);
    Status st = io->Delete(path);
    env->EndStorageOp(StorageOp::kWriteManifest);
    if (st.ok()) removed.push_back(std::move(path));  // someone else may have removed it first
  }
  return removed;
}

Result<ExpireResult> ExpireSnapshots(IcebergCommitter* committer, const ExpireOptions& options) {
  COMMITLAB_ASSIGN_OR_RETURN(CommitResult r, committer->Commit(NewExpireSnapshots(options)));
  const TableMetadata& before = *r.base;
  const TableMetadata& after = *r.committed;

  ExpireResult out;
  std::set<std::string> candidates;
  for (const SnapshotRef& s : before.snapshots) {
    if (after.FindSnapshot(s->snapshot_id) != nullptr) continue;
    out.expired_snapshot_ids.push_back(s->snapshot_id);
    AddSnapshotFiles(*s, &candidates);
  }
  COMMITLAB_CHECK(!after.current_snapshot_id || after.CurrentSnapshot() != nullptr,
                  "an expiry keeps the current snapshot: a reader of the table must find its files");
  // Files a retained snapshot still reaches stay (ReachableFileCleanup).
  const std::set<std::string> kept = ReachableFiles(after);
  for (const std::string& path : candidates) {
    if (kept.count(path) != 0) continue;
    if (committer->DeleteFile(path).ok()) out.deleted_files.push_back(path);
  }
  return out;
}

}  // namespace commitlab::iceberg
