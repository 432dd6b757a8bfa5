#include "commitlab/core/delta/snapshot.h"

#include <fmt/format.h>

#include <algorithm>

#include "commitlab/core/check.h"

namespace commitlab::delta {

int64_t TableSnapshot::TxnVersion(std::string_view app_id) const {
  auto it = app_versions_.find(app_id);
  return it == app_versions_.end() ? -1 : it->second;
}

Status TableSnapshot::Apply(int64_t version, const Commit& c) {
  if (version != version_ + 1)
    return Status::InvalidArgument(fmt::format(
        "Versions are not contiguous: cannot apply version {} to a snapshot at version {}", version, version_));
  for (const RemoveFile& r : c.removes) files_.erase(r.file.name);
  for (const AddFile& a : c.adds) files_[a.file.name] = a.file;
  if (c.metadata) metadata_ = c.metadata;
  if (c.protocol) protocol_ = *c.protocol;
  for (const SetTransaction& t : c.txns) app_versions_[t.app_id] = t.version;
  version_ = version;
  COMMITLAB_DCHECK(
      std::all_of(c.adds.begin(), c.adds.end(), [&](const AddFile& a) { return files_.count(a.file.name); }),
      "a version's added files are live after it (an add wins over a remove of the same file)");
  return Status::OK();
}

Status AdvanceSnapshot(TableSnapshot& snapshot, DeltaLog& log, Env& env, int64_t version) {
  for (int64_t v = snapshot.version() + 1; v <= version; ++v) {
    env.BeginStorageOp(StorageOp::kReadSnapshot);
    Result<CommitRef> c = log.Read(v);
    env.EndStorageOp(StorageOp::kReadSnapshot);
    if (!c.ok()) return c.status();
    COMMITLAB_CHECK(*c != nullptr, "a log returns a version as written, never null (DeltaLog::Read)");
    COMMITLAB_RETURN_IF_ERROR(snapshot.Apply(v, **c));
  }
  return Status::OK();
}

}  // namespace commitlab::delta
