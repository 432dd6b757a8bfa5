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

struct RecordedSchedule {
  int writers = 0;
  std::vector<ScheduleRun> runs;  // adjacent runs name different writers

  int64_t steps() const;
  // Appends one step, extending the last run when it names the same writer.
  void Append(int writer);
  bool operator==(const RecordedSchedule&) const = default;
};

// The writer's symbol in a schedule string: "a", "Z", "{52}".
std::string WriterSymbol(int writer);

std::string FormatSchedule(const RecordedSchedule& schedule);
// Errors quote the start of the string and say what was expected where.
Result<RecordedSchedule> ParseSchedule(std::string_view text);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SCHEDULE_H_
