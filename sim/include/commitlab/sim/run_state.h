// The state of a run after each event of its history (docs/history.md), as the stepper (`commitlab
// step`) and the timeline page's step slider show it: each table's latest snapshot as its store
// has it (a publish that took effect, before the engine's log line says so) and, for Paimon, whose
// attempts name every file they add and delete, its live files; each writer's phase and what it
// waits for; and one line per event saying what happened, in English or Chinese.
#ifndef COMMITLAB_SIM_RUN_STATE_H_
#define COMMITLAB_SIM_RUN_STATE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/history_fields.h"
#include "commitlab/sim/language.h"

namespace commitlab::sim {

struct WriterNow {
  std::string name;
  size_t table = 0;
  std::string phase = {};      // "publishes snapshot #5", "refused", "finished", ...
  std::string waits_for = {};  // what must happen before it goes on; "" when nothing
  int attempt = 0;             // its current attempt, 0 before the first
  std::optional<int64_t> base = {};
  int64_t wait_until_us = -1;  // in a retry wait: when it ends
  bool failed = false;         // its last step failed (refused, gave up, crashed)
  bool started = false;
};

struct TableNow {
  std::string name;
  std::string protocol;
  std::optional<int64_t> latest = {};  // as the store has it
  std::string latest_by = {};          // the writer whose publish it was
  std::string latest_kind = {};        // APPEND, COMPACT, OVERWRITE, ...
  bool files_known = false;            // Paimon: live_files is exact
  std::vector<std::string> live_files = {};
  std::map<std::string, int64_t> counters = {};  // Iceberg counters: the last value committed
};

class RunState {
 public:
  // `header` is the history's first line: its scenario text names the tables and writers.
  RunState(const Json& header, Language language);

  // Applies one event after the header (a footer finishes every writer that did not fail) and
  // returns what it says: one line, or none for an event that changes nothing a reader sees.
  std::vector<std::string> Apply(const Json& event);

  const std::vector<WriterNow>& writers() const { return writers_; }
  const std::vector<TableNow>& tables() const { return tables_; }
  int64_t now_us() const { return now_us_; }
  Language language() const { return language_; }
  // "snapshot #5", "metadata v2", "version 3": an id of `table` in its protocol's words.
  std::string IdOf(size_t table, int64_t id) const;
  // "latest snapshot #5 (COMPACT by compact-job-1)" or "no snapshot yet".
  std::string LatestLine(size_t table) const;
  // The table's row of a state panel (the stepper's, the timeline page's): its latest snapshot,
  // its live files (at most `max_files` named) when its attempts name them all (Paimon), its
  // counters.
  std::string TableLine(size_t table, size_t max_files) const;
  // The writer's row: its phase, and what it waits for after a colon.
  std::string WriterLine(size_t writer) const;

 private:
  struct Plan {
    int64_t snapshot = -1;
    std::string kind;
    std::vector<std::string> add;
    std::vector<std::string> remove;
  };
  WriterNow& Writer(const std::string& name);
  std::string OpStarted(WriterNow& w, const std::string& op);
  std::string OpEnded(WriterNow& w, const Json& e);
  std::string Engine(WriterNow& w, const std::string& type, const Json& e);
  std::string Step(WriterNow& w, const std::string& type, const Json& e);
  std::string Gate(WriterNow& w, const std::string& type, const Json& e);
  void Landed(WriterNow& w, int64_t id);
  std::string Files(const std::vector<std::string>& files) const;
  std::string F(const char* en, const char* zh) const { return language_ == Language::kChinese ? zh : en; }

  const Language language_;
  HistoryTables layout_;
  std::optional<RetryPolicy> policy_;
  std::vector<WriterNow> writers_;
  std::vector<TableNow> tables_;
  std::map<std::string, size_t> index_;
  std::map<std::string, Plan> plans_;  // writer -> its current attempt
  int64_t now_us_ = 0;
};

// A moment of the run's clock: "13.5 ms", "1.204 s".
std::string Clock(int64_t micros);

// A retry wait's formula (ExplainWait's) in `language`: "45 ms = 10 ms × 2^2 + 5 ms 抖动".
std::string WaitWords(const std::string& explained, Language language);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_RUN_STATE_H_
