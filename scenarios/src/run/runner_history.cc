#include "run/runner_history.h"

#include <utility>
#include <variant>

namespace commitlab::scenarios::internal {
namespace {

using sim::Json;

class PaimonLookup final : public TableLookup {
 public:
  explicit PaimonLookup(SnapshotStore* store) : store_(store) {}

  std::string CommittedBy(int64_t id) override {
    Result<Snapshot> s = store_->ReadSnapshot(id);
    return s.ok() ? s->commit_user : "";
  }
  std::optional<Touch> LastTouch(const std::string& file, int64_t at_most) override {
    for (int64_t id = at_most; id >= 1; --id) {
      Result<Snapshot> s = store_->ReadSnapshot(id);
      if (!s.ok()) return std::nullopt;
      for (const FileChange& c : s->changes)
        if (c.file.name == file) return Touch{id, s->commit_user, c.kind == ChangeKind::kAdd};
    }
    return std::nullopt;
  }

 private:
  SnapshotStore* const store_;
};

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

std::string_view PublishOutcomeNote(PublishOutcome o) {
  switch (o) {
    case PublishOutcome::kPublished: return "published";
    case PublishOutcome::kAlreadyExists: return "lost";
    case PublishOutcome::kError: return "unknown";
  }
  return "unknown";
}

std::optional<PublishOutcome> ParsePublishOutcomeNote(std::string_view note) {
  for (PublishOutcome o : {PublishOutcome::kPublished, PublishOutcome::kAlreadyExists, PublishOutcome::kError})
    if (PublishOutcomeNote(o) == note) return o;
  return std::nullopt;
}

std::unique_ptr<TableLookup> MakePaimonLookup(SnapshotStore* store) { return std::make_unique<PaimonLookup>(store); }
std::unique_ptr<TableLookup> MakeIcebergLookup(iceberg::IcebergCatalog* catalog, iceberg::FileIO* io) {
  return std::make_unique<IcebergLookup>(catalog, io);
}
std::unique_ptr<TableLookup> MakeDeltaLookup(delta::DeltaLog* log) { return std::make_unique<DeltaLookup>(log); }

WriterHistory::WriterHistory(sim::History* history, std::string writer,
                             std::function<std::string(std::string_view)> writer_of)
    : history_(history), writer_(std::move(writer)), writer_of_(std::move(writer_of)) {}

void WriterHistory::Record(std::string_view type, const Json& fields) {
  history_->Record(type, env_->NowMicros(), writer_, fields);
}

Json WriterHistory::Who(std::string_view user, int64_t snapshot) {
  Json who = {{"snapshot", snapshot}, {"user", user}};
  const std::string writer = user.empty() ? "" : writer_of_(user);
  who["writer"] = writer.empty() ? Json(nullptr) : Json(writer);
  return who;
}

void WriterHistory::OnEvent(const Event& e) {
  Json f = sim::EventFields(e);
  if (e.type == EventType::kAtomicCommitFailed && e.injected) {
    f["lost_to"] = {{"snapshot", e.snapshot_id}, {"user", ""}, {"writer", nullptr}, {"injected", true}};
  } else if (e.type == EventType::kAtomicCommitFailed && lookup_ != nullptr) {
    f["lost_to"] = Who(lookup_->CommittedBy(e.snapshot_id), e.snapshot_id);
  }
  if (e.type == EventType::kConflict && e.cause != nullptr) {
    if (e.cause->snapshot >= 0) {
      Json c = Who(e.cause->by, e.cause->snapshot);
      c["change"] = "committed";
      f["culprit"] = std::move(c);
    } else if (lookup_ != nullptr) {
      // The attempt built on snapshot_id - 1: look no later than that (others may have committed
      // since), and past a file no snapshot touched (the writer's own new one in an LSM pair).
      for (const std::string& file : e.cause->files) {
        std::optional<TableLookup::Touch> t = lookup_->LastTouch(file, e.snapshot_id - 1);
        if (!t) continue;
        Json c = Who(t->user, t->snapshot);
        c["change"] = t->added ? "added" : "removed";
        c["file"] = file;
        f["culprit"] = std::move(c);
        break;
      }
    }
  }
  if (f.contains("lost_to") || f.contains("culprit")) {  // the log line stays last
    Json message = std::move(f["message"]);
    f.erase("message");
    f["message"] = std::move(message);
  }
  history_->Record(EventTypeName(e.type), e.time_micros, writer_, f);
}

void WriterHistory::OpStart(StorageOp op) {
  in_op_ = true;
  pending_ = Json::object();
  Record("op_start", {{"op", StorageOpName(op)}});
}

void WriterHistory::OpEnd(StorageOp op) {
  Json f = {{"op", StorageOpName(op)}};
  for (const auto& [key, value] : pending_.items()) f[key] = value;
  in_op_ = false;
  pending_ = Json::object();
  Record("op_end", f);
}

void WriterHistory::Note(Json fields) {
  if (!in_op_) return;
  if (!pending_.contains("at_us")) pending_["at_us"] = env_->NowMicros();
  for (const auto& [key, value] : fields.items()) pending_[key] = value;
}

void WriterHistory::Read(int64_t saw, Json more) {
  more["saw"] = saw;
  Note(std::move(more));
  if (gate_ != nullptr) gate_->After(index_, EffectGate::Effect::kRead, saw, PublishOutcome::kPublished);
}

void WriterHistory::Published(int64_t snapshot, PublishOutcome outcome) {
  Note({{"snapshot", snapshot}, {"outcome", PublishOutcomeNote(outcome)}});
  if (gate_ != nullptr) gate_->After(index_, EffectGate::Effect::kPublish, snapshot, outcome);
}

void WriterHistory::StepStart(const Step& step) {
  Json f = {{"line", step.pos.line}, {"op", OpName(step.op)}};
  if (!step.label.empty()) f["label"] = step.label;
  Record("step_start", f);
}

void WriterHistory::StepEnd(const Step& step, const StepResult& r) {
  Json f = {{"line", step.pos.line}, {"op", OpName(step.op)}, {"status", StepStatusName(r.status)}};
  if (!step.label.empty()) f["label"] = step.label;
  f["returned"] = r.committed;
  if (r.status == StepStatus::kFailed) {
    f["outcome"] = OutcomeName(r.outcome);
    f["error"] = r.error;
  }
  f["detail"] = r.detail;
  if (r.counter) {
    f["counter"] = {{"action", r.counter->action},
                    {"key", r.counter->key},
                    {"read", r.counter->read},
                    {"read_at", r.counter->read_at},
                    {"value", r.counter->value}};
  }
  Record("step_end", f);
}

void WriterHistory::GateWait(const OrderEdge& edge) {
  Record("gate_wait", {{"order", edge.text}, {"line", edge.pos.line}});
}

void WriterHistory::GateOpen(const OrderEdge& edge) {
  Record("gate_open", {{"order", edge.text}, {"line", edge.pos.line}});
}

void WriterHistory::Fault(const sim::FiredFault& fired, const sim::FaultRule& rule) {
  Record("fault", {{"point", fired.point},
                   {"rule", sim::FormatFaultRule(rule)},
                   {"hit", fired.hit},
                   {"effect", sim::FormatFaultEffect(fired.effect)}});
}

Result<iceberg::MetadataRef> NotingCatalog::Current() {
  history_->BeforeEffect(EffectGate::Effect::kRead);
  Result<iceberg::MetadataRef> m = target_->Current();
  if (m.ok()) {
    Json more = Json::object();
    if ((*m)->current_snapshot_id) more["sequence_number"] = (*m)->last_sequence_number;
    history_->Read((*m)->version, std::move(more));
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
  Json note = {{"file", f.path}, {"kind", iceberg::FileKindName(f.kind)}};
  Status st = target_->Write(std::move(f));
  if (!st.ok()) note["error"] = st.message();
  history_->Note(std::move(note));
  return st;
}

Result<iceberg::FileRef> NotingFileIO::ReadDataFile(const std::string& path) {
  Result<iceberg::FileRef> r = target_->ReadDataFile(path);
  history_->Note({{"file", path}});
  return r;
}

Status NotingFileIO::Delete(const std::string& path) {
  Status st = target_->Delete(path);
  history_->Note({{"file", path}, {"deleted", st.ok()}});
  return st;
}

Result<int64_t> NotingDeltaLog::LatestVersion() {
  history_->BeforeEffect(EffectGate::Effect::kRead);
  Result<int64_t> v = target_->LatestVersion();
  if (v.ok()) history_->Read(*v);
  return v;
}

Result<delta::CommitRef> NotingDeltaLog::Read(int64_t version) {
  Result<delta::CommitRef> c = target_->Read(version);
  history_->Note({{"snapshot", version}});
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
