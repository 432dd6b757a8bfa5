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

History::History(LineSink sink) : out_(nullptr), sink_(std::move(sink)) {}

History::~History() { Flush(); }

void History::set_step_source(StepSource step) {
  one_thread_ = static_cast<bool>(step);
  step_ = std::move(step);
}

void History::Header(const Json& fields) {
  Json line = {{"type", "header"}, {"format", kHistoryFormat}, {"version", kHistoryVersion}};
  for (const auto& [key, value] : fields.items()) line[key] = value;
  MutexLock lock(&mu_);
  WriteJsonLocked(line);
  FlushLocked();
}

void History::Footer(const Json& fields) {
  Json line = {{"type", "footer"}};
  for (const auto& [key, value] : fields.items()) line[key] = value;
  MutexLock lock(&mu_);
  WriteJsonLocked(line);
  FlushLocked();
}

void History::Flush() {
  MutexLock lock(&mu_);
  FlushLocked();
}

void History::Record(std::string_view type, int64_t t_us, std::string_view writer, const Json& fields) {
  std::string line;
  JsonWriter w = Begin(&line, type, t_us, writer);
  for (const auto& [key, value] : fields.items()) w.Key(key).Value(value);  // the caller's keys: escaped
  End(w);
}

JsonWriter History::Start(std::string* line, std::string_view type, int64_t t_us) {
  JsonWriter w(line, /*overwrite=*/true);
  w.BeginObject().Word("type", type).Int("t_us", t_us).Name("step");
  if (step_) {  // set only while no line is recorded: read without the lock
    w.Int(step_());
  } else {
    w.Null();
  }
  return w;
}

JsonWriter History::Begin(std::string* line, std::string_view type, int64_t t_us, std::string_view writer) {
  JsonWriter w = Start(line, type, t_us);
  w.Str("writer", writer);
  return w;
}

JsonWriter History::BeginQuoted(std::string* line, std::string_view type, int64_t t_us, std::string_view writer_json) {
  JsonWriter w = Start(line, type, t_us);
  w.Raw("writer", writer_json);
  return w;
}

void History::End(JsonWriter& w) {
  const std::string_view line = w.EndObject().Byte('\n').Release();  // the buffer stays grown
  MaybeMutexLock lock(&mu_, !one_thread_);
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

void History::WriteJsonLocked(const Json& line) {
  // Invalid UTF-8 (a scenario's bytes) is replaced, never thrown about: the line still parses.
  std::string text;
  JsonWriter(&text).Value(line);  // a temporary: the text is cut to size when it goes
  text += '\n';
  WriteLocked(text);
}

void History::WriteLocked(std::string_view line) {
  // About what a file stream buffers before it writes (libstdc++'s BUFSIZ): a run that stops
  // without its footer leaves no more unwritten than a line-by-line write to the stream did.
  constexpr size_t kPendingBytes = 8192;
  if (out_ != nullptr) {
    pending_.append(line);
    if (pending_.size() >= kPendingBytes) FlushLocked();
  } else if (sink_) {
    sink_(line.substr(0, line.size() - 1));
  } else {
    lines_.emplace_back(line.substr(0, line.size() - 1));
  }
}

void History::FlushLocked() {
  if (out_ == nullptr || pending_.empty()) return;
  out_->write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
  failed_ = failed_ || !*out_;
  pending_.clear();
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

namespace {

void AppendFileNames(const std::vector<FileChange>& changes, ChangeKind kind, JsonWriter* w) {
  w->BeginArray();
  for (const FileChange& c : changes)
    if (c.kind == kind) w->String(c.file.name);
  w->EndArray();
}

}  // namespace

// The members EventFields builds, in its order (history_test.cc holds them to it).
void AppendEventFields(const Event& e, JsonWriter* w) {
  w->Word("level", LevelName(e.level))
      .Str("user", e.user)
      .Int("identifier", e.identifier)
      .Word("kind", CommitKindName(e.kind))
      .Int("attempt", e.attempt)
      .Int("snapshot", e.snapshot_id);
  switch (e.type) {
    case EventType::kAttempt:
      if (e.changes != nullptr || e.base_snapshot >= 0) {
        w->Name("plan").BeginObject().Int("base", e.base_snapshot);
        if (e.changes != nullptr) {
          AppendFileNames(*e.changes, ChangeKind::kAdd, &w->Name("add"));
          AppendFileNames(*e.changes, ChangeKind::kDelete, &w->Name("delete"));
        }
        w->EndObject();
      }
      break;
    case EventType::kRetryWait:
      w->Int("wait_us", e.wait_micros).Int("base_us", e.wait_base_micros).Int("jitter_us", e.wait_jitter_micros);
      break;
    case EventType::kConflict:
      if (e.cause != nullptr) {
        w->Name("cause").BeginObject().Word("kind", CauseKindName(e.cause->kind)).Name("files").BeginArray();
        for (const std::string& f : e.cause->files) w->String(f);
        w->EndArray();
        if (e.cause->snapshot >= 0) w->Int("snapshot", e.cause->snapshot);
        if (!e.cause->by.empty()) w->Str("by", e.cause->by);
        w->EndObject();
      }
      break;
    default: break;
  }
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
