#include "commitlab/core/paimon/store.h"

namespace commitlab {

Status ReadChain(SnapshotStore* store, std::vector<Snapshot>* chain) {
  Result<std::optional<Snapshot>> latest = store->LatestSnapshot();
  if (!latest.ok()) return latest.status();
  const int64_t last = latest->has_value() ? (*latest)->id : 0;
  for (int64_t id = 1; id <= last; ++id) {
    Result<Snapshot> s = store->ReadSnapshot(id);
    if (!s.ok()) return s.status();
    chain->push_back(std::move(*s));
  }
  return Status::OK();
}

}  // namespace commitlab
