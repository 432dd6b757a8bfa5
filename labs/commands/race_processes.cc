#include "commands/race_processes.h"

#include <fmt/format.h>

#include "commitlab/core/paimon/dir_store.h"
#include "commitlab/sim/checker.h"

namespace commitlab::cli {
namespace {

scenarios::Outcome OutcomeOf(const process::WriterProcesses& w) {
  if (w.error.empty()) return scenarios::Outcome::kOk;
  if (w.error_code == Code::kRetriesExhausted) return scenarios::Outcome::kGaveUp;
  if (w.error_code == Code::kCrashed) return scenarios::Outcome::kCrashed;
  return scenarios::Outcome::kRefused;
}

}  // namespace

scenarios::RunReport ProcessRaceReport(const process::ProcessRaceResult& race, const sim::TableDirReport& table,
                                       const scenarios::RunPlan& plan) {
  scenarios::RunReport r;
  r.scenario = "<race>";
  r.title = fmt::format("Race: {} processes", race.writers.size());
  r.plan = plan;

  scenarios::TableReport t;
  t.name = DirTableName(table.root);
  t.chain = table.chain;
  for (const Snapshot& s : table.chain) t.operations.emplace_back(CommitKindName(s.kind));
  t.latest_snapshot = table.latest_snapshot();
  t.orphan_files = static_cast<int64_t>(table.leftovers.size());
  r.tables.push_back(std::move(t));

  std::vector<sim::CommitRecord> records;
  for (const process::WriterProcesses& w : race.writers) {
    scenarios::WriterReport wr;
    wr.name = w.user;
    wr.user = w.user;
    wr.counters.committed = static_cast<int64_t>(w.acks.size());
    wr.counters.attempts = w.stats.attempts;
    wr.counters.atomic_failures = w.stats.atomic_failures;
    wr.counters.conflicts = w.stats.conflicts;
    wr.counters.unknown_outcomes = w.stats.unknown_outcomes;
    wr.counters.idempotent_matches = w.stats.idempotent_matches;
    wr.counters.gave_up = w.stats.gave_up;
    wr.crashes = w.killed;
    wr.outcome = OutcomeOf(w);
    wr.error = w.error;
    // Every writer of a race appends and nothing is injected that ends one: one that did not finish
    // its commits (a full disk, a writer that could not start) means the race did not run.
    if (!w.error.empty())
      r.run_errors.push_back(fmt::format("writer {} failed: {}", w.user, w.error.substr(0, w.error.find('\n'))));
    r.tally += wr.counters;
    r.writers.push_back(std::move(wr));
    for (const process::Ack& a : w.acks)
      records.push_back({a.user, a.identifier, CommitKind::kAppend, sim::CommitOutcome::kAcknowledged, a.snapshot});
    for (const sim::CommitRecord& c : w.records)
      if (c.outcome != sim::CommitOutcome::kAcknowledged) records.push_back(c);
    for (const std::string& f : w.fired_faults) r.fired_faults.push_back(f);
  }
  r.tally.orphan_files = r.table().orphan_files;

  // The table check already judged the chain's structure, file by file; the run checker adds
  // what only the acknowledgements can show (lost, duplicate, misplaced, failed but visible).
  for (const sim::TableDirProblem& p : table.problems) r.violations.push_back({{p.kind, p.message}, false});
  for (sim::Violation& v : sim::CheckInvariants(table.chain, records))
    if (v.snapshot == 0) r.violations.push_back({std::move(v), false});
  return r;
}

std::string KillsLine(const process::ProcessRaceResult& race) {
  std::string per_writer;
  for (const process::WriterProcesses& w : race.writers)
    per_writer += fmt::format("{}{} {}", per_writer.empty() ? "" : ", ", w.user, w.killed);
  return fmt::format(
      "kill -9: {} ({}); each restart resumed after its user's newest committed identifier; a killed process's "
      "attempts and lost races died with it and are not in the counts above",
      race.kills, per_writer);
}

}  // namespace commitlab::cli
