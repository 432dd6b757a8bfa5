// Trace: JSON Lines, one object per engine event, between a header line (seed, strategy, every
// drawn setting, the command line to replay) and a footer line (the schedule string). Same seed,
// same strategy, same build => byte-identical trace, so `commitlab replay` can diff two traces
// line by line.
#ifndef COMMITLAB_SIM_TRACE_H_
#define COMMITLAB_SIM_TRACE_H_

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "commitlab/core/events.h"

namespace commitlab::sim {

// Ordered key/value pairs for the header and footer lines: emitted in the order added, values
// are JSON strings or integers (bool prints as true/false).
class TraceFields {
 public:
  TraceFields& Add(std::string_view key, std::string_view value);
  TraceFields& Add(std::string_view key, const char* value) { return Add(key, std::string_view(value)); }
  template <std::integral T>
  TraceFields& Add(std::string_view key, T value) {
    if constexpr (std::is_same_v<T, bool>) return AddRaw(key, value ? "true" : "false");
    else return AddRaw(key, std::to_string(value));
  }

  // A value that is already JSON (an array, an object).
  TraceFields& AddJson(std::string_view key, std::string json) { return AddRaw(key, std::move(json)); }

  // `,"key":value` for each pair, ready to splice into an object.
  std::string ToJsonMembers() const;
  bool empty() const { return members_.empty(); }

 private:
  TraceFields& AddRaw(std::string_view key, std::string json_value);
  std::vector<std::pair<std::string, std::string>> members_;  // key, rendered JSON value
};

// One event as a trace line (with the trailing newline). Fields, in this order: t_us, step,
// writer, event, level, identifier, kind, attempt, snapshot, wait_us (retry_wait only), message.
std::string TraceLine(const Event& e, int64_t step);

class TraceWriter : public EventSink {
 public:
  // The scheduler's step counter; -1 is written when there is none (RealEnv runs).
  using StepSource = std::function<int64_t()>;

  // Writes each line to `out`, or, when `out` is null, appends it to a buffer the caller drains
  // with TakeBuffer(). `out` must outlive the writer.
  explicit TraceWriter(std::ostream* out = nullptr, StepSource step = {});

  // The scheduler may be built after the trace writer.
  void set_step_source(StepSource step);

  // {"type":"header",<fields>}
  void WriteHeader(const TraceFields& fields);
  // {"type":"footer","schedule":"...",<fields>}
  void WriteFooter(std::string_view schedule, const TraceFields& fields = {});
  void OnEvent(const Event& e) override;

  // Buffer mode: returns what was written since the last call and empties the buffer.
  std::string TakeBuffer();

 private:
  void WriteLocked(const std::string& line);  // REQUIRES: mu_ held

  std::mutex mu_;
  std::ostream* const out_;
  StepSource step_;     // guarded by mu_
  std::string buffer_;  // guarded by mu_
};

// The 1-based number of the first line where `a` and `b` differ, or nullopt when they are equal.
// A text that ends early differs at the first line it lacks; a missing final newline counts.
std::optional<size_t> FirstDifferingLine(std::string_view a, std::string_view b);
// "line N differs:\n- <line of a>\n+ <line of b>" for the first difference, or "" when equal. A
// line that does not exist shows as "<end of file>".
std::string DescribeFirstDifference(std::string_view a, std::string_view b);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_TRACE_H_
