#include "commitlab/core/paimon/store.h"

namespace commitlab {

Status ReadChain(SnapshotStore* store, std::vector<Snapshot>* chain) {
  COMMITLAB_ASSIGN_OR_RETURN(std::optional<Snapshot> latest, store->LatestSnapshot());
  const int64_t last = latest.has_value() ? latest->id : 0;
  for (int64_t id = 1; id <= last; ++id) {
    COMMITLAB_ASSIGN_OR_RETURN(Snapshot s, store->ReadSnapshot(id));
    chain->push_back(std::move(s));
  }
  return Status::OK();
}

}  // namespace commitlab
