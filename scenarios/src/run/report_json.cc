#include "commitlab/scenarios/report_json.h"

#include <functional>
#include <string>
#include <utility>

#include "commitlab/sim/json_writer.h"

namespace commitlab::scenarios {
namespace {

using sim::Json;

// A table with every snapshot, written as it is read: a million-commit race's report is mostly
// this array, and a JSON document holding it took more memory than the run.
void WriteTable(const TableReport& t, sim::JsonWriter& w, const std::function<void(std::string_view)>& drain) {
  constexpr size_t kPiece = 4096;  // snapshots written between drains
  w.BeginObject()
      .Str("name", t.name)
      .Str("protocol", ProtocolName(t.protocol))
      .Int("latest_snapshot", t.latest_snapshot)
      .Int("orphan_files", t.orphan_files)
      .Name("snapshots")
      .BeginArray();
  for (size_t i = 0; i < t.chain.size(); ++i) {
    const Snapshot& s = t.chain[i];
    w.BeginObject()
        .Int("id", s.id)
        .Int("parent", s.parent_id)
        .Str("kind", CommitKindName(s.kind))
        .Str("operation", t.operation(i))
        .Str("user", s.commit_user)
        .Int("identifier", s.commit_identifier)
        .Int("total_records", s.total_records)
        .Int("delta_records", s.delta_records)
        .EndObject();
    if (drain && (i + 1) % kPiece == 0) w.Drain(drain);
  }
  w.EndArray().Name("counters").BeginObject();
  for (const auto& [key, value] : t.counters) w.Key(key).Int(value);
  w.EndObject().EndObject();
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
bool MoreFiredThanListed(const RunReport& r) {
  return r.fired_faults_total > static_cast<int64_t>(r.fired_faults.size());
}

}  // namespace

void WriteRunJson(const RunReport& r, sim::JsonWriter& w, const std::function<void(std::string_view)>& drain) {
  w.BeginObject()
      .Str("scenario", r.scenario)
      .Str("title", r.title)
      .Name("seed")
      .Uint(r.plan.seed)
      .Str("sched", r.plan.strategy)
      .Bool("ok", r.ok())
      .Name("tables")
      .BeginArray();
  for (const TableReport& t : r.tables) WriteTable(t, w, drain);
  w.EndArray().Name("writers").BeginArray();
  for (const WriterReport& x : r.writers) w.Value(WriterJson(x));
  w.EndArray()
      .Value("tally", CountersJson(r.tally))
      .Value("verdicts", VerdictsJson(r))
      .Value("faults_fired", Json(r.fired_faults));
  if (r.schedule.empty()) {
    w.Null("schedule");
  } else {
    w.Str("schedule", r.schedule);
  }
  if (r.plan.free) {
    w.Null("virtual_us");
  } else {
    w.Int("virtual_us", r.virtual_micros);
  }
  if (MoreFiredThanListed(r)) w.Int("faults_fired_total", r.fired_faults_total);
  w.EndObject();
}

Json RunJson(const RunReport& r) {
  std::string text;
  sim::JsonWriter w(&text);
  WriteRunJson(r, w, {});
  w.Done();
  return Json::parse(text);  // one formatter: the document is what WriteRunJson writes
}

Json HistoryFooter(const RunReport& r) {
  Json out = {{"schedule", r.schedule.empty() ? Json(nullptr) : Json(r.schedule)},
              {"virtual_us", r.plan.free ? Json(nullptr) : Json(r.virtual_micros)},
              {"latest_snapshot", r.latest_snapshot()},
              {"tally", CountersJson(r.tally)},
              {"faults_fired", r.fired_faults},
              {"verdicts", VerdictsJson(r)}};
  if (MoreFiredThanListed(r)) out["faults_fired_total"] = r.fired_faults_total;
  return out;
}

}  // namespace commitlab::scenarios
