// History: the one record of a run (docs/history.md). JSON Lines: a header (format and build, the
// command and its settings as typed values, the scenario text and its SHA-256), one object per
// event (engine events, storage-operation spans, gates, faults, steps), and a footer (schedule,
// verdicts, tallies). What reads a run reads this: replay now, and whatever else looks at runs.
//
// Every event line starts with the same four members, in this order:
//   {"type": "...", "t_us": <Env time>, "step": <scheduler step, null on OS threads>, "writer": "..."}
// Same seed, same strategy, same build => the same lines.
#ifndef COMMITLAB_SIM_HISTORY_H_
#define COMMITLAB_SIM_HISTORY_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/events.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/status.h"
#include "commitlab/sim/json_writer.h"

namespace commitlab::sim {

using Json = nlohmann::ordered_json;

inline constexpr std::string_view kHistoryFormat = "commitlab-history";
inline constexpr int kHistoryVersion = 1;

// Thread-safe: writers on OS threads record concurrently; each line is written whole. While a
// step source is set (a scheduler runs every writer on its one thread) the history takes no lock.
//
// An event line is written in place, without a DOM (json_writer.h): Begin starts it in the
// caller's buffer with the four common members, the caller adds its members through the writer
// Begin returns, and End(writer) closes it and writes it. Record does the same for members given
// as JSON. To a stream, event lines go in pieces of about 8 KiB (what a file stream buffers
// anyway); the header, the footer, Flush and the destructor write what is pending.
class History {
 public:
  // The scheduler's step counter; without one (OS threads) "step" is null.
  using StepSource = std::function<int64_t()>;
  // Where each line goes, whole and without its newline (a replay compares them as they come).
  using LineSink = std::function<void(std::string_view line)>;

  // Lines go to `out` (not owned; it must outlive the history), or, when `out` is null, are kept
  // for lines().
  explicit History(std::ostream* out = nullptr);
  // Lines go to `sink`, one call per line, in order.
  explicit History(LineSink sink);
  // Writes what is pending to the stream.
  ~History();
  History(const History&) = delete;
  History& operator=(const History&) = delete;

  // Set (and cleared) while no line is being recorded, before the writers start and after they
  // end. A step source is a scheduler's: while it is set, every line comes from the scheduler's
  // one thread, and the history takes no lock (as MemoryStore in a simulation).
  void set_step_source(StepSource step);

  // {"type":"header","format":"commitlab-history","version":1, <fields>}
  void Header(const Json& fields);
  // {"type":"footer", <fields>}
  void Footer(const Json& fields);
  // {"type":<type>,"t_us":<t_us>,"step":<step>,"writer":<writer>, <fields>}
  void Record(std::string_view type, int64_t t_us, std::string_view writer, const Json& fields);

  // Starts the event line {"type":<type>,"t_us":<t_us>,"step":<step>,"writer":<writer> in
  // `*line`, a buffer the caller keeps from line to line (its old contents go; it stays grown);
  // the writer returned adds the rest. `type` is one of the format's words (JsonWriter::Word).
  JsonWriter Begin(std::string* line, std::string_view type, int64_t t_us, std::string_view writer);
  // The same with the writer's name already a JSON string (AppendJsonString's), as a writer's taps
  // keep it: quoted once, not scanned again for every line.
  JsonWriter BeginQuoted(std::string* line, std::string_view type, int64_t t_us, std::string_view writer_json);
  // Closes the line `w` (Begin's) writes and writes it whole.
  void End(JsonWriter& w);
  // Writes the lines pending to the stream.
  void Flush();

  // The lines kept so far (buffer mode), each without its newline.
  std::vector<std::string> lines() const;
  // Not OK once a write to the stream failed (a full disk, a closed pipe): the file is short. Lines
  // pending are not written yet: ask after the footer or Flush.
  Status status() const;

 private:
  // The line's type, time and step: Begin's members but the writer.
  JsonWriter Start(std::string* line, std::string_view type, int64_t t_us);
  // `line` ends with its newline.
  void WriteLocked(std::string_view line) REQUIRES(mu_);
  void WriteJsonLocked(const Json& line) REQUIRES(mu_);
  void FlushLocked() REQUIRES(mu_);

  mutable Mutex mu_;
  std::ostream* const out_ PT_GUARDED_BY(mu_);
  const LineSink sink_;
  // Written only while no line is recorded (set_step_source), read by every line.
  StepSource step_;
  bool one_thread_ = false;              // a step source is set: no lock
  std::string pending_ GUARDED_BY(mu_);  // lines for out_ not yet written to it
  std::vector<std::string> lines_ GUARDED_BY(mu_);
  bool failed_ GUARDED_BY(mu_) = false;
};

// An engine event's members after the common four: level, user, identifier, kind, attempt,
// snapshot, then what its type carries (the plan of an attempt, a retry wait's inputs, a
// conflict's cause), and the log line as "message".
Json EventFields(const Event& e);
// The same members written in place, but for "message": a caller may add members (who won a lost
// race, who caused a conflict) before it, and then writes it with AppendEventMessage.
void AppendEventFields(const Event& e, JsonWriter* w);
inline void AppendEventMessage(const Event& e, JsonWriter* w) { w->Str("message", e.message); }

// Parses one history line. InvalidArgument "line N: ..." when it is not a JSON object.
Result<Json> ParseHistoryLine(std::string_view line, size_t line_number);

// OK when `header` (a history's first line) is a commitlab history of a version this build reads.
// InvalidArgument "line 1: not a commitlab history (...)" or "line 1: history format version V is not
// one this build reads (1)": every reader of a history (timeline, explain, replay, step) asks first,
// so a JSON Lines file of another program is refused by name rather than half drawn.
Status CheckHistoryFormat(const Json& header);

// SHA-256 of `text`, as 64 lowercase hex digits (the header's scenario digest).
std::string Sha256Hex(std::string_view text);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_HISTORY_H_
