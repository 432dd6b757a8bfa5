// Builders shared by core tests: files, committables and a recording event sink.
#ifndef COMMITLAB_TESTING_TEST_UTIL_H_
#define COMMITLAB_TESTING_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <source_location>
#include <string>
#include <vector>

#include "commitlab/core/events.h"
#include "commitlab/core/model.h"

namespace commitlab::test {

inline DataFile File(std::string name, int32_t level = 0, int64_t min_key = 0, int64_t max_key = 0, int64_t rows = 1,
                     int32_t bucket = 0, std::string partition = "") {
  return DataFile{std::move(name), std::move(partition), bucket, level, min_key, max_key, rows};
}
inline FileChange Add(DataFile f) { return {ChangeKind::kAdd, std::move(f)}; }
inline FileChange Del(DataFile f) { return {ChangeKind::kDelete, std::move(f)}; }

inline Committable AppendOf(int64_t identifier, std::vector<FileChange> changes) {
  return Committable{identifier, std::move(changes), {}};
}
inline Committable CompactOf(int64_t identifier, std::vector<FileChange> changes) {
  return Committable{identifier, {}, std::move(changes)};
}

struct RecordedEvent {
  EventType type;
  Level level;
  std::string user;
  int64_t snapshot_id;
  int64_t wait_micros;
  std::string message;
};

class RecordingSink : public EventSink {
 public:
  void OnEvent(const Event& e) override {
    events.push_back({e.type, e.level, std::string(e.user), e.snapshot_id, e.wait_micros, e.message});
  }
  int Count(EventType t) const {
    int n = 0;
    for (const RecordedEvent& e : events) n += e.type == t;
    return n;
  }
  const RecordedEvent* Last(EventType t) const {
    for (auto it = events.rbegin(); it != events.rend(); ++it)
      if (it->type == t) return &*it;
    return nullptr;
  }
  // The last event of type `t`, for a test that expects one: without it the test fails at the
  // caller's line, naming the type, and reads an empty event instead of dereferencing null.
  const RecordedEvent& LastOf(EventType t, std::source_location at = std::source_location::current()) const {
    if (const RecordedEvent* e = Last(t)) return *e;
    ADD_FAILURE_AT(at.file_name(), static_cast<int>(at.line()))
        << "no " << EventTypeName(t) << " event among the " << events.size() << " recorded";
    static const RecordedEvent kNone{};
    return kNone;
  }
  std::vector<RecordedEvent> events;
};

}  // namespace commitlab::test

#endif  // COMMITLAB_TESTING_TEST_UTIL_H_
