// MemoryStore: snapshots, manifests and data files in process memory. Publish is an atomic
// create-if-absent under one mutex, so it is safe for any number of writer threads; a store made
// for one thread (a simulated run, where writers are fibers of one thread) skips the mutex.
#ifndef COMMITLAB_CORE_MEMORY_STORE_H_
#define COMMITLAB_CORE_MEMORY_STORE_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "commitlab/core/mutex.h"
#include "commitlab/core/name_list.h"
#include "commitlab/core/paimon/store.h"

namespace commitlab {

class MemoryStore : public SnapshotStore {
 public:
  enum class Threads { kMany, kOne };
  // kForget: manifest writes succeed and are not kept, so ListManifests is empty; for runs that
  // never list them (a retry-policy sweep writes millions).
  enum class Manifests { kKeep, kForget };
  explicit MemoryStore(Threads threads = Threads::kMany, Manifests manifests = Manifests::kKeep)
      : locking_(threads == Threads::kMany), keep_manifests_(manifests == Manifests::kKeep) {}

  Result<std::optional<Snapshot>> LatestSnapshot() override;
  Result<SnapshotRef> LatestSnapshotRef() override;
  Result<Snapshot> ReadSnapshot(int64_t id) override;
  Result<SnapshotRef> ReadSnapshotRef(int64_t id) override;
  Status WriteManifest(const std::string& name, const std::vector<FileChange>& changes) override;
  PublishResult Publish(const Snapshot& s) override;
  Status WriteDataFile(const DataFile& f) override;
  bool DataFileExists(const DataFile& f) override;
  Status DeleteDataFile(const DataFile& f) override;
  std::vector<std::string> ListManifests() override;
  std::vector<std::string> ListDataFiles() override;
  void ForEachFile(const std::function<void(std::string_view)>& f) override;

 protected:
  // Stores `s` as snapshot s.id even when that id exists: only a deliberately broken subclass
  // (an object store without a lock) calls this directly. REQUIRES: s.id <= snapshots_.size() + 1
  // (no gap).
  void PutLocked(const Snapshot& s) REQUIRES(mu_);

  const bool locking_;  // false: one thread only, and mu_ is never locked (MaybeMutexLock)
  const bool keep_manifests_;
  Mutex mu_;
  // snapshots_[i] is snapshot i + 1, never null. Shared with readers, so a snapshot once stored
  // is never modified: PutLocked replaces the pointer.
  std::vector<SnapshotRef> snapshots_ GUARDED_BY(mu_);
  // Every manifest name written; listed sorted and deduplicated. Not a set or a vector of
  // strings: a write allocates nothing of its own and copies only its name.
  NameList manifest_names_ GUARDED_BY(mu_);
  std::set<std::string> data_files_ GUARDED_BY(mu_);
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_MEMORY_STORE_H_
