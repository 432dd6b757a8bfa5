#include "protocols/iceberg/iceberg_history.h"

#include <utility>

namespace commitlab::scenarios::internal {
namespace {

using sim::Json;

class IcebergLookup final : public TableLookup {
 public:
  IcebergLookup(iceberg::IcebergCatalog* catalog, iceberg::FileIO* io) : catalog_(catalog), io_(io) {}

  // The writer of the metadata file that version `id` of the pointer named.
  std::string CommittedBy(int64_t id) override {
    Result<iceberg::MetadataRef> current = catalog_->Current();
    if (!current.ok()) return "";
    const iceberg::TableMetadata& m = **current;
    std::string location;
    if (id == m.version) {
      location = m.location;
    } else {
      // metadata_log ends with the version before the current one.
      const int64_t back = m.version - id;
      if (back < 1 || back > static_cast<int64_t>(m.metadata_log.size())) return "";
      location = m.metadata_log[m.metadata_log.size() - static_cast<size_t>(back)];
    }
    for (const iceberg::StoredFile& f : io_->List())
      if (f.path == location) return f.writer;
    return "";
  }
  std::optional<Touch> LastTouch(const std::string& file, int64_t) override {
    Result<iceberg::MetadataRef> current = catalog_->Current();
    if (!current.ok()) return std::nullopt;
    const auto& snapshots = (*current)->snapshots;
    for (size_t i = snapshots.size(); i > 0; --i) {
      const iceberg::Snapshot& s = *snapshots[i - 1];
      for (bool added : {true, false})
        for (const iceberg::FileRef& f : added ? s.added_files : s.deleted_files)
          if (f->path() == file) return Touch{s.sequence_number, s.committed_by, added};
    }
    return std::nullopt;
  }

 private:
  iceberg::IcebergCatalog* const catalog_;
  iceberg::FileIO* const io_;
};

}  // namespace

std::unique_ptr<TableLookup> MakeIcebergLookup(iceberg::IcebergCatalog* catalog, iceberg::FileIO* io) {
  return std::make_unique<IcebergLookup>(catalog, io);
}

Result<iceberg::MetadataRef> NotingCatalog::Current() {
  history_->BeforeEffect(EffectGate::Effect::kRead);
  Result<iceberg::MetadataRef> m = target_->Current();
  if (m.ok()) {
    history_->Read((*m)->version,
                   (*m)->current_snapshot_id ? std::optional<int64_t>((*m)->last_sequence_number) : std::nullopt);
  }
  return m;
}

namespace {

PublishOutcome OutcomeOf(const iceberg::CasResult& r) {
  return r.outcome == iceberg::CasOutcome::kSwapped ? PublishOutcome::kPublished
         : r.outcome == iceberg::CasOutcome::kLost  ? PublishOutcome::kAlreadyExists
                                                    : PublishOutcome::kError;
}

}  // namespace

iceberg::CasResult NotingCatalog::CompareAndSwap(int64_t expected_version, iceberg::MetadataRef new_metadata) {
  const int64_t version = new_metadata->version;
  history_->BeforeEffect(EffectGate::Effect::kPublish);
  iceberg::CasResult r = target_->CompareAndSwap(expected_version, std::move(new_metadata));
  history_->Published(version, OutcomeOf(r));
  return r;
}

iceberg::CasResult NotingCatalog::Commit(const iceberg::TableMetadata& base, iceberg::MetadataRef next) {
  int64_t version = next->version;
  history_->BeforeEffect(EffectGate::Effect::kPublish);
  iceberg::CasResult r = target_->Commit(base, std::move(next));
  if (r.current != nullptr) version = r.current->version;  // the server's version of the commit
  history_->Published(version, OutcomeOf(r));
  return r;
}

Status NotingFileIO::Write(iceberg::StoredFile f) {
  const std::string path = f.path;
  const iceberg::FileKind kind = f.kind;
  Status st = target_->Write(std::move(f));
  history_->NoteStr("file", path);
  history_->NoteStr("kind", iceberg::FileKindName(kind));
  if (!st.ok()) history_->NoteStr("error", st.message());
  return st;
}

Result<iceberg::FileRef> NotingFileIO::ReadDataFile(const std::string& path) {
  Result<iceberg::FileRef> r = target_->ReadDataFile(path);
  history_->NoteStr("file", path);
  return r;
}

Status NotingFileIO::Delete(const std::string& path) {
  Status st = target_->Delete(path);
  history_->NoteStr("file", path);
  history_->NoteBool("deleted", st.ok());
  return st;
}

}  // namespace commitlab::scenarios::internal
