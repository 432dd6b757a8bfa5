#include "protocols/paimon/paimon_history.h"

namespace commitlab::scenarios::internal {
namespace {

class PaimonLookup final : public TableLookup {
 public:
  explicit PaimonLookup(SnapshotStore* store) : store_(store) {}

  std::string CommittedBy(int64_t id) override {
    Result<SnapshotRef> s = store_->ReadSnapshotRef(id);
    return s.ok() ? (*s)->commit_user : "";
  }
  std::optional<Touch> LastTouch(const std::string& file, int64_t at_most) override {
    for (int64_t id = at_most; id >= 1; --id) {
      Result<SnapshotRef> s = store_->ReadSnapshotRef(id);
      if (!s.ok()) return std::nullopt;
      for (const FileChange& c : (*s)->changes)
        if (c.file.name == file) return Touch{id, (*s)->commit_user, c.kind == ChangeKind::kAdd};
    }
    return std::nullopt;
  }

 private:
  SnapshotStore* const store_;
};

}  // namespace

std::unique_ptr<TableLookup> MakePaimonLookup(SnapshotStore* store) { return std::make_unique<PaimonLookup>(store); }

}  // namespace commitlab::scenarios::internal
