#include "commitlab/sim/trace.h"

#include <fmt/format.h>

#include "commitlab/core/json.h"

namespace commitlab::sim {
namespace {

// The line of `text` starting at `pos`, with its '\n' if it has one, or nullopt past the end.
// Advances `pos` past it, so that a scan over all lines stays linear.
std::optional<std::string_view> NextLine(std::string_view text, size_t& pos) {
  if (pos >= text.size()) return std::nullopt;
  const size_t nl = text.find('\n', pos);
  const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
  std::string_view line = text.substr(pos, end - pos);
  pos = end;
  return line;
}

std::string ShowLine(const std::optional<std::string_view>& line, bool other_has_newline) {
  if (!line) return "<end of file>";
  std::string_view body = *line;
  const bool has_newline = !body.empty() && body.back() == '\n';
  if (has_newline) body.remove_suffix(1);
  std::string out(body);
  if (!has_newline && other_has_newline) out += " <no newline at end of file>";
  return out;
}

bool EndsWithNewline(const std::optional<std::string_view>& line) {
  return line && !line->empty() && line->back() == '\n';
}

}  // namespace

TraceFields& TraceFields::Add(std::string_view key, std::string_view value) { return AddRaw(key, JsonQuote(value)); }

TraceFields& TraceFields::AddRaw(std::string_view key, std::string json_value) {
  members_.emplace_back(std::string(key), std::move(json_value));
  return *this;
}

std::string TraceFields::ToJsonMembers() const {
  std::string out;
  for (const auto& [key, value] : members_) {
    out += ',';
    out += JsonQuote(key);
    out += ':';
    out += value;
  }
  return out;
}

std::string TraceLine(const Event& e, int64_t step) {
  std::string line = fmt::format(R"({{"t_us":{},"step":{},"writer":{},"event":{},"level":{},)"
                                 R"("identifier":{},"kind":{},"attempt":{},"snapshot":{})",
                                 e.time_micros, step, JsonQuote(e.user), JsonQuote(EventTypeName(e.type)),
                                 JsonQuote(LevelName(e.level)), e.identifier, JsonQuote(CommitKindName(e.kind)),
                                 e.attempt, e.snapshot_id);
  if (e.type == EventType::kRetryWait) line += fmt::format(R"(,"wait_us":{})", e.wait_micros);
  line += R"(,"message":)";
  line += JsonQuote(e.message);
  line += "}\n";
  return line;
}

TraceWriter::TraceWriter(std::ostream* out, StepSource step) : out_(out), step_(std::move(step)) {}

void TraceWriter::set_step_source(StepSource step) {
  std::lock_guard<std::mutex> lock(mu_);
  step_ = std::move(step);
}

void TraceWriter::WriteHeader(const TraceFields& fields) {
  std::lock_guard<std::mutex> lock(mu_);
  WriteLocked(R"({"type":"header")" + fields.ToJsonMembers() + "}\n");
}

void TraceWriter::WriteFooter(std::string_view schedule, const TraceFields& fields) {
  std::lock_guard<std::mutex> lock(mu_);
  WriteLocked(R"({"type":"footer","schedule":)" + JsonQuote(schedule) + fields.ToJsonMembers() + "}\n");
}

void TraceWriter::OnEvent(const Event& e) {
  std::lock_guard<std::mutex> lock(mu_);
  WriteLocked(TraceLine(e, step_ ? step_() : -1));
}

std::string TraceWriter::TakeBuffer() {
  std::lock_guard<std::mutex> lock(mu_);
  return std::exchange(buffer_, std::string());
}

void TraceWriter::WriteLocked(const std::string& line) {
  if (out_ != nullptr) {
    *out_ << line;
  } else {
    buffer_ += line;
  }
}

std::optional<size_t> FirstDifferingLine(std::string_view a, std::string_view b) {
  size_t pa = 0, pb = 0;
  for (size_t n = 1;; ++n) {
    std::optional<std::string_view> la = NextLine(a, pa), lb = NextLine(b, pb);
    if (!la && !lb) return std::nullopt;
    if (la != lb) return n;
  }
}

std::string DescribeFirstDifference(std::string_view a, std::string_view b) {
  const std::optional<size_t> n = FirstDifferingLine(a, b);
  if (!n) return "";
  size_t pa = 0, pb = 0;
  std::optional<std::string_view> la, lb;
  for (size_t i = 0; i < *n; ++i) {
    la = NextLine(a, pa);
    lb = NextLine(b, pb);
  }
  return fmt::format("line {} differs:\n- {}\n+ {}", *n, ShowLine(la, EndsWithNewline(lb)),
                     ShowLine(lb, EndsWithNewline(la)));
}

}  // namespace commitlab::sim
