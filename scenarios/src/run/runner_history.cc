#include "run/runner_history.h"

#include <utility>
#include <variant>

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

void WriterHistory::AppendWho(std::string_view user, int64_t snapshot, sim::JsonWriter* w) {
  w->Int("snapshot", snapshot).Str("user", user);
  const std::string writer = user.empty() ? "" : writer_of_(user);
  if (writer.empty()) {
    w->Null("writer");
  } else {
    w->Str("writer", writer);
  }
}

void WriterHistory::OnEvent(const Event& e) {
  sim::JsonWriter w = Begin(EventTypeName(e.type), e.time_micros);
  sim::AppendEventFields(e, &w);
  if (e.type == EventType::kAtomicCommitFailed && e.injected) {
    w.Name("lost_to").BeginObject().Int("snapshot", e.snapshot_id).Str("user", "").Null("writer");
    w.Bool("injected", true).EndObject();
  } else if (e.type == EventType::kAtomicCommitFailed && lookup_ != nullptr) {
    w.Name("lost_to").BeginObject();
    AppendWho(lookup_->CommittedBy(e.snapshot_id), e.snapshot_id, &w);
    w.EndObject();
  }
  if (e.type == EventType::kConflict && e.cause != nullptr) {
    if (e.cause->snapshot >= 0) {
      w.Name("culprit").BeginObject();
      AppendWho(e.cause->by, e.cause->snapshot, &w);
      w.Str("change", "committed").EndObject();
    } else if (lookup_ != nullptr) {
      // The attempt built on snapshot_id - 1: look no later than that (others may have committed
      // since), and past a file no snapshot touched (the writer's own new one in an LSM pair).
      for (const std::string& file : e.cause->files) {
        std::optional<TableLookup::Touch> t = lookup_->LastTouch(file, e.snapshot_id - 1);
        if (!t) continue;
        w.Name("culprit").BeginObject();
        AppendWho(t->user, t->snapshot, &w);
        w.Str("change", t->added ? "added" : "removed").Str("file", file).EndObject();
        break;
      }
    }
  }
  sim::AppendEventMessage(e, &w);  // the log line stays last
  End(w);
}

void WriterHistory::OpStart(StorageOp op) {
  in_op_ = true;
  notes_size_ = 0;
  End(Begin("op_start").Str("op", StorageOpName(op)));
}

void WriterHistory::OpEnd(StorageOp op) {
  sim::JsonWriter w = Begin("op_end");
  w.Str("op", StorageOpName(op));
  for (size_t i = 0; i < notes_size_; ++i) w.Raw(notes_[i].key, notes_[i].value);
  in_op_ = false;
  notes_size_ = 0;
  End(w);
}

std::string* WriterHistory::NoteSlot(std::string_view key) {
  if (!in_op_) return nullptr;
  auto next = [this](std::string_view k) -> std::string* {
    if (notes_size_ == notes_.size()) notes_.emplace_back();
    NoteMember& m = notes_[notes_size_++];
    m.key = k;
    m.value.clear();
    return &m.value;
  };
  if (notes_size_ == 0) AppendDecimal(env_->NowMicros(), next("at_us"));
  for (size_t i = 0; i < notes_size_; ++i) {
    if (notes_[i].key == key) {
      notes_[i].value.clear();
      return &notes_[i].value;
    }
  }
  return next(key);
}

void WriterHistory::NoteInt(std::string_view key, int64_t value) {
  if (std::string* slot = NoteSlot(key)) AppendDecimal(value, slot);
}

void WriterHistory::NoteStr(std::string_view key, std::string_view value) {
  if (std::string* slot = NoteSlot(key)) sim::AppendJsonString(value, slot);
}

void WriterHistory::NoteBool(std::string_view key, bool value) {
  if (std::string* slot = NoteSlot(key)) slot->append(value ? "true" : "false");
}

void WriterHistory::Read(int64_t saw, std::optional<int64_t> sequence_number) {
  if (sequence_number) NoteInt("sequence_number", *sequence_number);
  NoteInt("saw", saw);
  if (gate_ != nullptr) gate_->After(index_, EffectGate::Effect::kRead, saw, PublishOutcome::kPublished);
}

void WriterHistory::Published(int64_t snapshot, PublishOutcome outcome) {
  NoteInt("snapshot", snapshot);
  NoteStr("outcome", PublishOutcomeNote(outcome));
  if (gate_ != nullptr) gate_->After(index_, EffectGate::Effect::kPublish, snapshot, outcome);
}

void WriterHistory::StepStart(const Step& step) {
  sim::JsonWriter w = Begin("step_start");
  w.Int("line", step.pos.line).Str("op", OpName(step.op));
  if (!step.label.empty()) w.Str("label", step.label);
  End(w);
}

void WriterHistory::StepEnd(const Step& step, const StepResult& r) {
  sim::JsonWriter w = Begin("step_end");
  w.Int("line", step.pos.line).Str("op", OpName(step.op)).Str("status", StepStatusName(r.status));
  if (!step.label.empty()) w.Str("label", step.label);
  w.Int("returned", r.committed);
  if (r.status == StepStatus::kFailed) w.Str("outcome", OutcomeName(r.outcome)).Str("error", r.error);
  w.Str("detail", r.detail);
  if (r.counter) {
    w.Name("counter")
        .BeginObject()
        .Str("action", r.counter->action)
        .Str("key", r.counter->key)
        .Int("read", r.counter->read)
        .Int("read_at", r.counter->read_at)
        .Int("value", r.counter->value)
        .EndObject();
  }
  End(w);
}

void WriterHistory::GateWait(const OrderEdge& edge) {
  End(Begin("gate_wait").Str("order", edge.text).Int("line", edge.pos.line));
}

void WriterHistory::GateOpen(const OrderEdge& edge) {
  End(Begin("gate_open").Str("order", edge.text).Int("line", edge.pos.line));
}

void WriterHistory::Fault(const sim::FiredFault& fired, const sim::FaultRule& rule) {
  End(Begin("fault")
          .Str("point", fired.point)
          .Str("rule", sim::FormatFaultRule(rule))
          .Int("hit", fired.hit)
          .Str("effect", sim::FormatFaultEffect(fired.effect)));
}

Result<iceberg::MetadataRef> NotingCatalog::Current() {
  history_->BeforeEffect(EffectGate::Effect::kRead);
  Result<iceberg::MetadataRef> m = target_->Current();
  if (m.ok()) {
    history_->Read((*m)->version, (*m)->current_snapshot_id ? std::optional<int64_t>((*m)->last_sequence_number)
                                                            : std::nullopt);
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
