// A Paimon table's history (run/runner_history.h): WriterStore, one writer's handle on its
// table's store, and the table's lookups.
//
// WriterStore forwards every call, remembers the manifests and data files this writer wrote (so
// that orphan files, written and never referenced by a snapshot, can be counted per writer as
// well as per table), and notes what each call did into the writer's history when the run keeps
// one.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_HISTORY_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_HISTORY_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/name_list.h"
#include "commitlab/core/paimon/store.h"
#include "run/runner_history.h"

namespace commitlab::scenarios::internal {

// Used by one writer at a time (its own fiber or thread); read written() once the run is over.
class WriterStore final : public SnapshotStore {
 public:
  // `history` may be null (no history).
  WriterStore(SnapshotStore* table, WriterHistory* history) : table_(table), history_(history) {}

  Result<std::optional<Snapshot>> LatestSnapshot() override {
    if (history_ != nullptr) history_->BeforeEffect(EffectGate::Effect::kRead);
    Result<std::optional<Snapshot>> r = table_->LatestSnapshot();
    if (history_ != nullptr && r.ok()) history_->Read(r->has_value() ? (*r)->id : 0);
    return r;
  }
  Result<SnapshotRef> LatestSnapshotRef() override {
    if (history_ != nullptr) history_->BeforeEffect(EffectGate::Effect::kRead);
    Result<SnapshotRef> r = table_->LatestSnapshotRef();
    if (history_ != nullptr && r.ok()) history_->Read(*r != nullptr ? (*r)->id : 0);
    return r;
  }
  Result<Snapshot> ReadSnapshot(int64_t id) override {
    if (history_ != nullptr) history_->NoteInt("snapshot", id);
    return table_->ReadSnapshot(id);
  }
  Result<SnapshotRef> ReadSnapshotRef(int64_t id) override {
    if (history_ != nullptr) history_->NoteInt("snapshot", id);
    return table_->ReadSnapshotRef(id);
  }
  Status WriteManifest(const std::string& name, const std::vector<FileChange>& changes) override {
    Status st = table_->WriteManifest(name, changes);
    if (st.ok()) written_.Add(name);
    if (history_ != nullptr) history_->NoteStr("file", name);
    return st;
  }
  PublishResult Publish(const Snapshot& s) override {
    if (history_ != nullptr) history_->BeforeEffect(EffectGate::Effect::kPublish);
    PublishResult r = table_->Publish(s);
    if (history_ != nullptr) history_->Published(s.id, r.outcome);
    return r;
  }
  Status WriteDataFile(const DataFile& f) override {
    Status st = table_->WriteDataFile(f);
    if (st.ok()) written_.Add(f.name);
    if (history_ != nullptr) history_->NoteStr("file", f.name);
    return st;
  }
  bool DataFileExists(const DataFile& f) override { return table_->DataFileExists(f); }
  Status DeleteDataFile(const DataFile& f) override { return table_->DeleteDataFile(f); }
  std::vector<std::string> ListManifests() override { return table_->ListManifests(); }
  std::vector<std::string> ListDataFiles() override { return table_->ListDataFiles(); }
  void ForEachFile(const std::function<void(std::string_view)>& f) override { table_->ForEachFile(f); }

  // Manifest and data file names this writer wrote, in order.
  const NameList& written() const { return written_; }

 private:
  SnapshotStore* const table_;
  WriterHistory* const history_;
  NameList written_;
};

// Who committed a snapshot, and which snapshot last added or deleted a file: read straight from
// the store.
std::unique_ptr<TableLookup> MakePaimonLookup(SnapshotStore* store);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_HISTORY_H_
