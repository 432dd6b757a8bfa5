#include "commitlab/sim/history.h"

#include <fmt/format.h>

#include <optional>
#include <utility>

namespace commitlab::sim {
namespace {

Json FileNames(const std::vector<FileChange>& changes, ChangeKind kind) {
  Json names = Json::array();
  for (const FileChange& c : changes)
    if (c.kind == kind) names.push_back(c.file.name);
  return names;
}

}  // namespace

History::History(std::ostream* out) : out_(out) {}

void History::set_step_source(StepSource step) {
  MutexLock lock(&mu_);
  step_ = std::move(step);
}

void History::Header(const Json& fields) {
  Json line = {{"type", "header"}, {"format", kHistoryFormat}, {"version", kHistoryVersion}};
  for (const auto& [key, value] : fields.items()) line[key] = value;
  MutexLock lock(&mu_);
  WriteLocked(line);
}

void History::Footer(const Json& fields) {
  Json line = {{"type", "footer"}};
  for (const auto& [key, value] : fields.items()) line[key] = value;
  MutexLock lock(&mu_);
  WriteLocked(line);
}

void History::Record(std::string_view type, int64_t t_us, std::string_view writer, const Json& fields) {
  Json line = {{"type", type}, {"t_us", t_us}, {"step", nullptr}, {"writer", writer}};
  for (const auto& [key, value] : fields.items()) line[key] = value;
  MutexLock lock(&mu_);
  // Read under the lock: on OS threads there is no step, and in the simulator one writer runs.
  if (step_) line["step"] = step_();
  WriteLocked(line);
}

std::vector<std::string> History::lines() const {
  MutexLock lock(&mu_);
  return lines_;
}

Status History::status() const {
  MutexLock lock(&mu_);
  if (failed_) return Status::IOError("writing the history failed");
  return Status::OK();
}

void History::WriteLocked(const Json& line) {
  // Invalid UTF-8 (a scenario's bytes) is replaced, never thrown about: the line still parses.
  std::string text = line.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (out_ == nullptr) {
    lines_.push_back(std::move(text));
    return;
  }
  text += '\n';
  out_->write(text.data(), static_cast<std::streamsize>(text.size()));
  failed_ = failed_ || !*out_;
}

Json EventFields(const Event& e) {
  Json f = {{"level", LevelName(e.level)},    {"user", e.user},       {"identifier", e.identifier},
            {"kind", CommitKindName(e.kind)}, {"attempt", e.attempt}, {"snapshot", e.snapshot_id}};
  switch (e.type) {
    case EventType::kAttempt:
      if (e.changes != nullptr || e.base_snapshot >= 0) {
        Json plan = {{"base", e.base_snapshot}};
        if (e.changes != nullptr) {
          plan["add"] = FileNames(*e.changes, ChangeKind::kAdd);
          plan["delete"] = FileNames(*e.changes, ChangeKind::kDelete);
        }
        f["plan"] = std::move(plan);
      }
      break;
    case EventType::kRetryWait:
      f["wait_us"] = e.wait_micros;
      f["base_us"] = e.wait_base_micros;
      f["jitter_us"] = e.wait_jitter_micros;
      break;
    case EventType::kConflict:
      if (e.cause != nullptr) {
        Json cause = {{"kind", CauseKindName(e.cause->kind)}, {"files", e.cause->files}};
        if (e.cause->snapshot >= 0) cause["snapshot"] = e.cause->snapshot;
        if (!e.cause->by.empty()) cause["by"] = e.cause->by;
        f["cause"] = std::move(cause);
      }
      break;
    default: break;
  }
  f["message"] = e.message;
  return f;
}

Status CheckHistoryFormat(const Json& header) {
  auto string_member = [&header](const char* key) -> std::optional<std::string> {
    const auto it = header.find(key);
    if (it == header.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  if (!header.is_object() || string_member("type") != "header")
    return Status::InvalidArgument("line 1: not a commitlab history (no header)");
  const std::optional<std::string> format = string_member("format");
  if (format != kHistoryFormat) {
    return Status::InvalidArgument(
        fmt::format("line 1: not a commitlab history (its header's format is {}, expected \"{}\")",
                    format ? fmt::format("\"{}\"", *format) : std::string("missing"), kHistoryFormat));
  }
  const auto version = header.find("version");
  if (version == header.end() || !version->is_number_integer() || *version != kHistoryVersion) {
    return Status::InvalidArgument(fmt::format("line 1: history format version {} is not one this build reads ({})",
                                               version == header.end() ? "(none)" : version->dump(), kHistoryVersion));
  }
  return Status::OK();
}

Result<Json> ParseHistoryLine(std::string_view line, size_t line_number) {
  Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::InvalidArgument(fmt::format("line {}: not JSON", line_number));
  if (!j.is_object()) return Status::InvalidArgument(fmt::format("line {}: not a JSON object", line_number));
  return j;
}

}  // namespace commitlab::sim
