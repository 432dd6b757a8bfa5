// A run's report as JSON: what `race`, `run` and `lab --json` print (inside the report envelope of
// docs/report.schema.json) and what a history's footer carries. Keys keep a fixed order and
// writers and tables appear in the scenario's order, so the same run prints the same text.
#ifndef COMMITLAB_SCENARIOS_REPORT_JSON_H_
#define COMMITLAB_SCENARIOS_REPORT_JSON_H_

#include <functional>
#include <string_view>

#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/json_writer.h"

namespace commitlab::scenarios {

inline constexpr std::string_view kReportFormat = "commitlab-report";
inline constexpr int kReportVersion = 1;

// What a run resolved its settings to: seed, sched, strategy, store, object store, retry,
// idempotency check, latency, faults.
sim::Json PlanJson(const RunPlan& p);
// {"committed": .., "attempts": .., "atomic_failures": .., ...}: the names `expect` uses.
sim::Json CountersJson(const Counters& c);
// {"ok", "invariants_ok", "violations": [{kind, message, expected}], "expectations": {...},
//  "run_errors": [...]}
sim::Json VerdictsJson(const RunReport& r);
// One run: scenario, title, seed, sched, ok, tables (with their snapshots), writers, tally,
// verdicts, faults fired, schedule, virtual time.
sim::Json RunJson(const RunReport& r);
// The same run written into `w` as it is read (the bytes JsonWriter::Value(RunJson(r)) writes),
// without a document holding every snapshot: what `race --json` prints. With `drain`, what is
// written so far goes to it every few thousand snapshots (JsonWriter::Drain).
void WriteRunJson(const RunReport& r, sim::JsonWriter& w, const std::function<void(std::string_view)>& drain);
// The history's footer fields: schedule, virtual time, verdicts, tally.
sim::Json HistoryFooter(const RunReport& r);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_REPORT_JSON_H_
