// WriterStore: one writer's handle on its table's store. It forwards every call and remembers the
// manifests and data files this writer wrote, so that orphan files (written, never referenced by
// a snapshot) can be counted per writer as well as per table.
#ifndef COMMITLAB_SCENARIOS_RUNNER_STORE_H_
#define COMMITLAB_SCENARIOS_RUNNER_STORE_H_

#include <string>
#include <vector>

#include "commitlab/core/store.h"

namespace commitlab::scenarios::internal {

// Used by one writer at a time (its own fiber or thread); read written() once the run is over.
class WriterStore final : public SnapshotStore {
 public:
  explicit WriterStore(SnapshotStore* table) : table_(table) {}

  Result<std::optional<Snapshot>> LatestSnapshot() override { return table_->LatestSnapshot(); }
  Result<SnapshotRef> LatestSnapshotRef() override { return table_->LatestSnapshotRef(); }
  Result<Snapshot> ReadSnapshot(int64_t id) override { return table_->ReadSnapshot(id); }
  Status WriteManifest(const std::string& name, const std::vector<FileChange>& changes) override {
    Status st = table_->WriteManifest(name, changes);
    if (st.ok()) written_.push_back(name);
    return st;
  }
  PublishResult Publish(const Snapshot& s) override { return table_->Publish(s); }
  Status WriteDataFile(const DataFile& f) override {
    Status st = table_->WriteDataFile(f);
    if (st.ok()) written_.push_back(f.name);
    return st;
  }
  bool DataFileExists(const DataFile& f) override { return table_->DataFileExists(f); }
  std::vector<std::string> ListManifests() override { return table_->ListManifests(); }
  std::vector<std::string> ListDataFiles() override { return table_->ListDataFiles(); }

  // Manifest and data file names this writer wrote, in order.
  const std::vector<std::string>& written() const { return written_; }

 private:
  SnapshotStore* const table_;
  std::vector<std::string> written_;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_STORE_H_
