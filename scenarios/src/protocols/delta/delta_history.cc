#include "protocols/delta/delta_history.h"

#include <utility>

namespace commitlab::scenarios::internal {
namespace {

class DeltaLookup final : public TableLookup {
 public:
  explicit DeltaLookup(delta::DeltaLog* log) : log_(log) {}

  std::string CommittedBy(int64_t id) override {
    Result<delta::CommitRef> c = log_->Read(id);
    return c.ok() ? (*c)->commit_info.user_name : "";
  }
  std::optional<Touch> LastTouch(const std::string& file, int64_t at_most) override {
    for (int64_t v = at_most; v >= 0; --v) {
      Result<delta::CommitRef> read = log_->Read(v);
      if (!read.ok()) return std::nullopt;
      const delta::Commit& c = **read;
      for (const delta::AddFile& a : c.adds)
        if (a.file.name == file) return Touch{v, c.commit_info.user_name, true};
      for (const delta::RemoveFile& r : c.removes)
        if (r.file.name == file) return Touch{v, c.commit_info.user_name, false};
    }
    return std::nullopt;
  }

 private:
  delta::DeltaLog* const log_;
};

}  // namespace

std::unique_ptr<TableLookup> MakeDeltaLookup(delta::DeltaLog* log) { return std::make_unique<DeltaLookup>(log); }

Result<int64_t> NotingDeltaLog::LatestVersion() {
  history_->BeforeEffect(EffectGate::Effect::kRead);
  Result<int64_t> v = target_->LatestVersion();
  if (v.ok()) history_->Read(*v);
  return v;
}

Result<delta::CommitRef> NotingDeltaLog::Read(int64_t version) {
  Result<delta::CommitRef> c = target_->Read(version);
  history_->NoteInt("snapshot", version);
  return c;
}

delta::WriteResult NotingDeltaLog::WriteIfAbsent(int64_t version, const delta::Commit& commit) {
  history_->BeforeEffect(EffectGate::Effect::kPublish);
  delta::WriteResult r = target_->WriteIfAbsent(version, commit);
  history_->Published(version, r.outcome == delta::WriteOutcome::kWritten         ? PublishOutcome::kPublished
                               : r.outcome == delta::WriteOutcome::kAlreadyExists ? PublishOutcome::kAlreadyExists
                                                                                  : PublishOutcome::kError);
  return r;
}

}  // namespace commitlab::scenarios::internal
