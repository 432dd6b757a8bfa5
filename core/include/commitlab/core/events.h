// Events: every step of the commit loop emits one. Core never prints; sinks turn events into log
// lines, the history and tallies.
#ifndef COMMITLAB_CORE_EVENTS_H_
#define COMMITLAB_CORE_EVENTS_H_

#include <fmt/compile.h>
#include <fmt/format.h>

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "commitlab/core/model.h"

namespace commitlab {

enum class EventType {
  kAttempt,             // an attempt starts (after reading latest)
  kPublished,           // INFO Successfully commit snapshot N ...
  kAtomicCommitFailed,  // WARN Atomic commit failed for snapshot #N ... (lost the race)
  kUnknownOutcome,      // WARN Exception occurs when committing snapshot #N ... (publish threw)
  kIdempotentMatch,     // INFO the previous attempt's snapshot was found: counted as success
  kConflict,            // ERROR File deletion / LSM conflicts detected! Give up committing.
  kRetryWait,           // the wait chosen by the retry policy
  kGaveUp,              // ERROR Commit failed after ... retries
  kCrashed,             // the writer stopped at a crash fault
  kFiltered,            // filterCommitted dropped already committed identifiers
  kError,               // any other failure that ends the commit
};
std::string_view EventTypeName(EventType t);  // "published", "atomic_commit_failed", ...

enum class Level { kInfo, kWarn, kError };
std::string_view LevelName(Level l);  // "INFO", "WARN", "ERROR"

enum class CauseKind {
  kFileDeletion,   // Paimon: a DELETE finds no live file, or an ADD one already live
  kLsm,            // Paimon: two files of one level overlap in key range
  kValidation,     // Iceberg: a ValidationException
  kDeltaConflict,  // Delta: the conflict checker against a winning commit
  kBucketCount,    // Paimon: a partition's total buckets changed without an overwrite
};
// "file-deletion", "lsm", "validation", "delta-conflict", "bucket-count"
std::string_view CauseKindName(CauseKind k);

// Why an attempt was refused, as far as the engine knows it: the entries in conflict and, when
// the engine saw it, the commit that made them so (Iceberg's conflicting snapshot, Delta's
// winning version). Paimon's conflict detection knows only the files; who removed them is
// found afterwards by whoever reads the table.
struct EventCause {
  CauseKind kind = CauseKind::kFileDeletion;
  std::vector<std::string> files = {};  // conflicting file names, as the format writes them
  int64_t snapshot = -1;                // Iceberg: the sequence number; Delta: the version; -1 unknown
  std::string by = {};                  // who committed it (commit user), "" if unknown
};

struct Event {
  EventType type = EventType::kAttempt;
  Level level = Level::kInfo;
  std::string_view user = {};  // filled in by the committer
  int64_t identifier = 0;
  CommitKind kind = CommitKind::kAppend;
  int attempt = 0;           // 1-based attempt within one tryCommit
  int64_t snapshot_id = 0;   // the id this attempt tried to publish (or found)
  int64_t wait_micros = 0;   // kRetryWait only
  int64_t time_micros = 0;   // Env time when emitted
  std::string message = {};  // the log line in the format's own words
  // kAttempt: the plan. The snapshot (Iceberg: metadata version, Delta: log version) the attempt
  // builds on, and the file changes it publishes; null when the format has none to show.
  int64_t base_snapshot = -1;
  const std::vector<FileChange>* changes = nullptr;
  // kRetryWait: the policy's inputs (wait = base + jitter, see RetryWait).
  int64_t wait_base_micros = 0;
  int64_t wait_jitter_micros = 0;
  // kConflict: why, when the engine can say (null otherwise).
  const EventCause* cause = nullptr;
  // kAtomicCommitFailed: a fault point refused the publish (Status::LostRace), not the store, so
  // no writer took the snapshot.
  bool injected = false;
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void OnEvent(const Event& e) = 0;
  // False when the sink never reads Event::message: emitters may then skip formatting it, which
  // is most of the cost of a commit attempt in a large simulated sweep.
  virtual bool wants_messages() const { return true; }
  // False when OnEvent does nothing at all: emitters may then skip building events.
  virtual bool wants_events() const { return true; }
};

// What an emitter's sink wants, asked once when the emitter is built. Emitters guard each
// per-attempt event with events() at the call (the compiler does not drop an unused Event's
// construction) and build its text with Message(), which formats only for a sink that reads it.
class EventGate {
 public:
  explicit EventGate(const EventSink& sink)
      : events_(sink.wants_events()), messages_(events_ && sink.wants_messages()) {}
  bool events() const { return events_; }
  bool messages() const { return messages_; }
  // fmt::format, or "" when the sink reads no messages.
  template <typename... Args>
  std::string Message(fmt::format_string<Args...> format, Args&&... args) const {
    return messages_ ? fmt::format(format, std::forward<Args>(args)...) : std::string();
  }
  // The same for a format compiled with FMT_COMPILE, for the lines of every attempt: formatted
  // without parsing the format again for each line (which took most of a line's cost).
  template <typename S, typename... Args, std::enable_if_t<fmt::detail::is_compiled_string<S>::value, int> = 0>
  std::string Message(const S& format, Args&&... args) const {
    if (!messages_) return std::string();
    fmt::memory_buffer text;  // fmt writes into a std::string a character at a time, into this in blocks
    fmt::format_to(std::back_inserter(text), format, std::forward<Args>(args)...);
    return std::string(text.data(), text.size());
  }

 private:
  const bool events_;
  const bool messages_;
};

class NullEventSink final : public EventSink {
 public:
  void OnEvent(const Event&) override {}
  bool wants_messages() const override { return false; }
  bool wants_events() const override { return false; }
};

// Hands every event to each sink in turn (log, trace, outcome recorder, ...).
class TeeEventSink final : public EventSink {
 public:
  explicit TeeEventSink(std::vector<EventSink*> sinks) : sinks_(std::move(sinks)) {}
  void OnEvent(const Event& e) override {
    for (EventSink* s : sinks_) s->OnEvent(e);
  }
  bool wants_messages() const override {
    for (const EventSink* s : sinks_)
      if (s->wants_messages()) return true;
    return false;
  }

 private:
  std::vector<EventSink*> sinks_;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_EVENTS_H_
