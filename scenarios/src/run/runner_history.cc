#include "run/runner_history.h"

#include <utility>

namespace commitlab::scenarios::internal {
namespace {

using sim::Json;

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

}  // namespace commitlab::scenarios::internal
