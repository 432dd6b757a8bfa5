#include "commitlab/core/paimon/store.h"

namespace commitlab {

SnapshotChain::SnapshotChain(std::vector<Snapshot> snapshots) {
  refs_.reserve(snapshots.size());
  for (Snapshot& s : snapshots) push_back(std::move(s));
}

bool SnapshotChain::operator==(const SnapshotChain& o) const {
  if (size() != o.size()) return false;
  for (size_t i = 0; i < size(); ++i)
    if (refs_[i] != o.refs_[i] && *refs_[i] != *o.refs_[i]) return false;
  return true;
}

Status ReadChain(SnapshotStore* store, std::vector<Snapshot>* chain) {
  COMMITLAB_ASSIGN_OR_RETURN(std::optional<Snapshot> latest, store->LatestSnapshot());
  const int64_t last = latest.has_value() ? latest->id : 0;
  for (int64_t id = 1; id <= last; ++id) {
    COMMITLAB_ASSIGN_OR_RETURN(Snapshot s, store->ReadSnapshot(id));
    chain->push_back(std::move(s));
  }
  return Status::OK();
}

Status ReadChain(SnapshotStore* store, SnapshotChain* out) {
  Result<SnapshotRef> latest = store->LatestSnapshotRef();
  if (!latest.ok()) return latest.status();
  const int64_t last = *latest != nullptr ? (*latest)->id : 0;
  std::vector<SnapshotRef>* chain = out->mutable_refs();
  chain->reserve(chain->size() + static_cast<size_t>(last));
  for (int64_t id = 1; id <= last; ++id) {
    Result<SnapshotRef> s = id == last ? std::move(latest) : store->ReadSnapshotRef(id);
    if (!s.ok()) return s.status();
    chain->push_back(std::move(*s));
  }
  return Status::OK();
}

}  // namespace commitlab
