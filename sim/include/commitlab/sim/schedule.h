// The schedule string: which writer the scheduler ran at every step of a simulated run, short
// enough to paste into a bug report or a shell without quoting surprises.
//
//   sched1:<W>w:<S>s:<picks>            e.g.  sched1:2w:7s:ab3a2b
//
// <picks> names the writer chosen at each step, in order: writer 0 is `a`, 1 is `b`, ... 25 is
// `z`, 26 is `A`, ... 51 is `Z`, and from 52 on `{52}`, `{53}`, .... A decimal count after a
// writer repeats it, so `ab3a2b` is a b b b a a b. <W> is the number of writers (a replay with a
// different number is refused before it starts) and <S> the number of steps (a string cut short
// while being copied is refused when parsed). Whitespace anywhere is ignored, so a string wrapped
// by a terminal or a mail client still parses. The format is versioned by its `sched1` tag.
#ifndef COMMITLAB_SIM_SCHEDULE_H_
#define COMMITLAB_SIM_SCHEDULE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"

namespace commitlab::sim {

// `count` consecutive steps that ran `writer`.
struct ScheduleRun {
  int writer = 0;
  int64_t count = 0;

  bool operator==(const ScheduleRun&) const = default;
};

// A schedule's runs, in order, held as varints (writer, count) of a byte or two each: a race of a
// million commits among ten writers takes some 14 million steps, nearly each a run of its own,
// which as ScheduleRun structs took 16 bytes apiece. The last run stays open, so a step that
// extends it is an increment. Read front to back (range-for); adjacent runs name different writers.
class ScheduleRuns {
 public:
  class Iterator {
   public:
    using value_type = ScheduleRun;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    ScheduleRun operator*() const { return current_; }
    Iterator& operator++();
    void operator++(int) { ++*this; }
    bool operator==(const Iterator& o) const { return index_ == o.index_; }

   private:
    friend class ScheduleRuns;
    Iterator(const ScheduleRuns* runs, size_t index);
    void Load();
    const ScheduleRuns* runs_ = nullptr;
    size_t index_ = 0;  // runs before this one
    size_t pos_ = 0;    // byte offset of the next closed run to decode
    ScheduleRun current_ = {};
  };

  // `count` more steps of `writer`, extending the last run when it names `writer`.
  // REQUIRES: writer >= 0, count >= 1.
  void Append(int writer, int64_t count);
  size_t size() const { return closed_ + (open_.count > 0 ? 1 : 0); }
  bool empty() const { return size() == 0; }
  int64_t steps() const { return steps_; }
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, size()); }
  bool operator==(const ScheduleRuns&) const = default;

 private:
  std::string bytes_ = {};  // the closed runs
  size_t closed_ = 0;
  ScheduleRun open_ = {};  // the last run (count 0: none yet)
  int64_t steps_ = 0;
};

struct RecordedSchedule {
  int writers = 0;
  ScheduleRuns runs = {};

  int64_t steps() const { return runs.steps(); }
  // Appends one step, extending the last run when it names the same writer.
  void Append(int writer) { runs.Append(writer, 1); }
  bool operator==(const RecordedSchedule&) const = default;
};

// The writer's symbol in a schedule string: "a", "Z", "{52}".
std::string WriterSymbol(int writer);

std::string FormatSchedule(const RecordedSchedule& schedule);
// Errors quote the start of the string and say what was expected where.
Result<RecordedSchedule> ParseSchedule(std::string_view text);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SCHEDULE_H_
