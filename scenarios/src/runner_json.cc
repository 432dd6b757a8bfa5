// RunReportJson: the object `commitlab run --json` prints. Keys keep a fixed order and writers
// appear in the scenario's order, so the same run prints the same text.
#include <fmt/format.h>

#include "commitlab/core/json.h"
#include "commitlab/scenarios/runner.h"

namespace commitlab::scenarios {
namespace {

// Appends `"key": value` pairs, comma-separated.
class JsonObject {
 public:
  JsonObject& Raw(std::string_view key, std::string_view json) {
    text_ += fmt::format("{}{}: {}", text_.empty() ? "" : ", ", JsonQuote(key), json);
    return *this;
  }
  JsonObject& Str(std::string_view key, std::string_view value) { return Raw(key, JsonQuote(value)); }
  JsonObject& Int(std::string_view key, int64_t value) { return Raw(key, std::to_string(value)); }
  JsonObject& Bool(std::string_view key, bool value) { return Raw(key, value ? "true" : "false"); }
  std::string Done() const { return "{" + text_ + "}"; }

 private:
  std::string text_;
};

template <typename T, typename F>
std::string Array(const std::vector<T>& items, F item) {
  std::string out;
  for (const T& x : items) out += (out.empty() ? "" : ", ") + item(x);
  return "[" + out + "]";
}

std::string CountersJson(const Counters& c, JsonObject o) {
  return o.Int("commits_ok", c.committed)
      .Int("attempts", c.attempts)
      .Int("atomic_failures", c.atomic_failures)
      .Int("conflicts", c.conflicts)
      .Int("unknown_outcomes", c.unknown_outcomes)
      .Int("idempotent_matches", c.idempotent_matches)
      .Int("gave_up", c.gave_up)
      .Int("orphan_files", c.orphan_files)
      .Done();
}

std::string SnapshotJson(const Snapshot& s) {
  return JsonObject()
      .Int("id", s.id)
      .Int("parent", s.parent_id)
      .Str("kind", CommitKindName(s.kind))
      .Str("user", s.commit_user)
      .Int("identifier", s.commit_identifier)
      .Int("total_records", s.total_records)
      .Int("delta_records", s.delta_records)
      .Done();
}

std::string WritersJson(const RunReport& r) {
  JsonObject writers;
  for (const WriterReport& w : r.writers) {
    JsonObject o;
    o.Str("user", w.user).Str("outcome", OutcomeName(w.outcome)).Int("crashes", w.crashes);
    o.Raw("error", w.error.empty() ? "null" : JsonQuote(w.error));
    // The counters after the outcome: CountersJson appends them to the same object.
    writers.Raw(w.name, CountersJson(w.counters, o));
  }
  return writers.Done();
}

std::string TallyJson(const Counters& c) {
  return JsonObject()
      .Int("committed", c.committed)
      .Int("attempts", c.attempts)
      .Int("atomic_failures", c.atomic_failures)
      .Int("conflicts", c.conflicts)
      .Int("unknown_outcomes", c.unknown_outcomes)
      .Int("idempotent_matches", c.idempotent_matches)
      .Int("gave_up", c.gave_up)
      .Int("orphan_files", c.orphan_files)
      .Done();
}

std::string QuotedList(const std::vector<std::string>& items) {
  return Array(items, [](const std::string& s) { return JsonQuote(s); });
}

}  // namespace

std::string RunReportJson(const RunReport& r) {
  JsonObject o;
  o.Str("scenario", r.scenario).Str("title", r.title);
  o.Raw("seed", std::to_string(r.plan.seed)).Str("sched", r.plan.strategy);
  o.Int("latest_snapshot", r.latest_snapshot());
  o.Raw("snapshots", r.tables.empty() ? "[]" : Array(r.table().chain, SnapshotJson));
  o.Raw("tables", Array(r.tables, [](const TableReport& t) {
          return JsonObject()
              .Str("name", t.name)
              .Int("latest_snapshot", t.latest_snapshot)
              .Int("orphan_files", t.orphan_files)
              .Done();
        }));
  o.Raw("writers", WritersJson(r));
  o.Raw("tally", TallyJson(r.tally));
  o.Bool("invariants_ok", r.invariants_ok());
  o.Raw("violations", Array(r.violations, [](const ViolationReport& v) {
          return JsonObject()
              .Str("kind", v.violation.kind)
              .Str("message", v.violation.message)
              .Bool("expected", v.expected)
              .Done();
        }));
  o.Raw("expectations", JsonObject()
                            .Int("passed", r.expectations_passed())
                            .Int("failed", r.expectations_failed())
                            .Raw("results", Array(r.expectations,
                                                  [](const ExpectationResult& e) {
                                                    return JsonObject()
                                                        .Int("line", e.pos.line)
                                                        .Str("text", e.text)
                                                        .Bool("passed", e.passed)
                                                        .Str("seen", e.seen)
                                                        .Done();
                                                  }))
                            .Done());
  o.Raw("run_errors", QuotedList(r.run_errors));
  o.Raw("faults_fired", QuotedList(r.fired_faults));
  o.Raw("schedule", r.schedule.empty() ? "null" : JsonQuote(r.schedule));
  o.Bool("ok", r.ok());
  return o.Done();
}

}  // namespace commitlab::scenarios
