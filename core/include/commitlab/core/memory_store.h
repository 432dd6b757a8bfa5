// MemoryStore: snapshots, manifests and data files in process memory. Publish is an atomic
// create-if-absent under one mutex, so it is safe for any number of writer threads.
#ifndef COMMITLAB_CORE_MEMORY_STORE_H_
#define COMMITLAB_CORE_MEMORY_STORE_H_

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "commitlab/core/store.h"

namespace commitlab {

class MemoryStore : public SnapshotStore {
 public:
  Result<std::optional<Snapshot>> LatestSnapshot() override;
  Result<Snapshot> ReadSnapshot(int64_t id) override;
  Status WriteManifest(const std::string& name, const std::vector<FileChange>& changes) override;
  PublishResult Publish(const Snapshot& s) override;
  Status WriteDataFile(const DataFile& f) override;
  bool DataFileExists(const DataFile& f) override;
  std::vector<std::string> ListManifests() override;
  std::vector<std::string> ListDataFiles() override;

 protected:
  // Stores `s` as snapshot s.id even when that id exists: only a deliberately broken subclass
  // (an object store without a lock) calls this directly. REQUIRES: mu_ held.
  void PutLocked(const Snapshot& s);

  std::mutex mu_;
  // Guarded by mu_: snapshots_[i] is snapshot i + 1.
  std::vector<Snapshot> snapshots_;
  // Names are unique by the caller's contract; listed sorted and deduplicated. A vector, not a
  // set: a write is then one string copy, not a tree node and string comparisons.
  std::vector<std::string> manifests_;
  std::set<std::string> data_files_;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_MEMORY_STORE_H_
