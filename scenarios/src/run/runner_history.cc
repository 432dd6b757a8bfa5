#include "run/runner_history.h"

#include <utility>

namespace commitlab::scenarios::internal {
namespace {

using sim::Json;

std::string JsonString(std::string_view s) {
  std::string json;
  sim::AppendJsonString(s, &json);
  return json;
}

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

WriterHistory::WriterHistory(sim::History* history, std::string writer,
                             std::function<std::string(std::string_view)> writer_of)
    : history_(history),
      writer_(std::move(writer)),
      writer_json_(JsonString(writer_)),
      writer_of_(std::move(writer_of)) {}

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
  End(Begin("op_start").Word("op", StorageOpName(op)));
}

void WriterHistory::OpEnd(StorageOp op) {
  sim::JsonWriter w = Begin("op_end");
  w.Word("op", StorageOpName(op));
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
  w.Int("line", step.pos.line).Word("op", OpName(step.op));
  if (!step.label.empty()) w.Str("label", step.label);
  End(w);
}

void WriterHistory::StepEnd(const Step& step, const StepResult& r) {
  sim::JsonWriter w = Begin("step_end");
  w.Int("line", step.pos.line).Word("op", OpName(step.op)).Word("status", StepStatusName(r.status));
  if (!step.label.empty()) w.Str("label", step.label);
  w.Int("returned", r.committed);
  if (r.status == StepStatus::kFailed) w.Word("outcome", OutcomeName(r.outcome)).Str("error", r.error);
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

}  // namespace commitlab::scenarios::internal
