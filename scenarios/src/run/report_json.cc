#include "commitlab/scenarios/report_json.h"

#include <utility>

namespace commitlab::scenarios {
namespace {

using sim::Json;

Json SnapshotJson(const Snapshot& s, std::string_view operation) {
  return {{"id", s.id},
          {"parent", s.parent_id},
          {"kind", CommitKindName(s.kind)},
          {"operation", operation},
          {"user", s.commit_user},
          {"identifier", s.commit_identifier},
          {"total_records", s.total_records},
          {"delta_records", s.delta_records}};
}

Json TableJson(const TableReport& t) {
  Json snapshots = Json::array();
  for (size_t i = 0; i < t.chain.size(); ++i) snapshots.push_back(SnapshotJson(t.chain[i], t.operation(i)));
  Json counters = Json::object();
  for (const auto& [key, value] : t.counters) counters[key] = value;
  return {{"name", t.name},
          {"protocol", ProtocolName(t.protocol)},
          {"latest_snapshot", t.latest_snapshot},
          {"orphan_files", t.orphan_files},
          {"snapshots", std::move(snapshots)},
          {"counters", std::move(counters)}};
}

Json WriterJson(const WriterReport& w) {
  return {{"name", w.name},
          {"user", w.user},
          {"outcome", OutcomeName(w.outcome)},
          {"message", w.error.empty() ? Json(nullptr) : Json(w.error)},
          {"crashes", w.crashes},
          {"counters", CountersJson(w.counters)}};
}

std::string_view StoreKindName(StoreKind k) {
  switch (k) {
    case StoreKind::kMemory: return "memory";
    case StoreKind::kDir: return "dir";
    case StoreKind::kTableDir: return "table-dir";
  }
  return "?";
}

}  // namespace

Json PlanJson(const RunPlan& p) {
  Json faults = Json::array();
  for (const sim::FaultRule& f : p.faults) faults.push_back(sim::FormatFaultRule(f));
  return {{"seed", p.seed},
          {"sched", p.sched},
          {"strategy", p.strategy},
          {"store", StoreKindName(p.store)},
          {"object_store", p.object_store.empty() ? Json(nullptr) : Json(p.object_store)},
          {"retry", FormatRetryPolicy(p.retry)},
          {"idempotency_check", p.idempotency_check},
          {"latency", sim::FormatLatencyModel(p.latency)},
          {"faults", std::move(faults)}};
}

Json CountersJson(const Counters& c) {
  Json out = Json::object();
  for (Counter k : {Counter::kCommitted, Counter::kAttempts, Counter::kAtomicFailures, Counter::kConflicts,
                    Counter::kUnknownOutcomes, Counter::kIdempotentMatches, Counter::kGaveUp, Counter::kOrphanFiles})
    out[std::string(CounterName(k))] = CounterValue(c, k);
  return out;
}

Json VerdictsJson(const RunReport& r) {
  Json violations = Json::array();
  for (const ViolationReport& v : r.violations)
    violations.push_back({{"kind", v.violation.kind}, {"message", v.violation.message}, {"expected", v.expected}});
  Json results = Json::array();
  for (const ExpectationResult& e : r.expectations)
    results.push_back({{"line", e.pos.line}, {"text", e.text}, {"passed", e.passed}, {"seen", e.seen}});
  return {{"ok", r.ok()},
          {"invariants_ok", r.invariants_ok()},
          {"violations", std::move(violations)},
          {"expectations",
           {{"passed", r.expectations_passed()}, {"failed", r.expectations_failed()}, {"results", std::move(results)}}},
          {"run_errors", r.run_errors}};
}

namespace {

// A run whose faults fired more often than the report lists says how often in all.
void AddFiredTotal(const RunReport& r, Json* out) {
  if (r.fired_faults_total > static_cast<int64_t>(r.fired_faults.size()))
    (*out)["faults_fired_total"] = r.fired_faults_total;
}

}  // namespace

Json RunJson(const RunReport& r) {
  Json tables = Json::array();
  for (const TableReport& t : r.tables) tables.push_back(TableJson(t));
  Json writers = Json::array();
  for (const WriterReport& w : r.writers) writers.push_back(WriterJson(w));
  Json out = {{"scenario", r.scenario},
              {"title", r.title},
              {"seed", r.plan.seed},
              {"sched", r.plan.strategy},
              {"ok", r.ok()},
              {"tables", std::move(tables)},
              {"writers", std::move(writers)},
              {"tally", CountersJson(r.tally)},
              {"verdicts", VerdictsJson(r)},
              {"faults_fired", r.fired_faults},
              {"schedule", r.schedule.empty() ? Json(nullptr) : Json(r.schedule)},
              {"virtual_us", r.plan.free ? Json(nullptr) : Json(r.virtual_micros)}};
  AddFiredTotal(r, &out);
  return out;
}

Json HistoryFooter(const RunReport& r) {
  Json out = {{"schedule", r.schedule.empty() ? Json(nullptr) : Json(r.schedule)},
              {"virtual_us", r.plan.free ? Json(nullptr) : Json(r.virtual_micros)},
              {"latest_snapshot", r.latest_snapshot()},
              {"tally", CountersJson(r.tally)},
              {"faults_fired", r.fired_faults},
              {"verdicts", VerdictsJson(r)}};
  AddFiredTotal(r, &out);
  return out;
}

}  // namespace commitlab::scenarios
