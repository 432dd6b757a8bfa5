#include "run/runner_expect.h"

#include <fmt/format.h>

#include <map>
#include <variant>

namespace commitlab::scenarios::internal {
namespace {

// The line of `error` that holds `text` (where it first occurs), else its first line.
std::string LineWith(std::string_view error, std::string_view text) {
  size_t at = text.empty() ? std::string_view::npos : error.find(text);
  if (at == std::string_view::npos) at = 0;
  const size_t begin = error.rfind('\n', at);
  const size_t start = begin == std::string_view::npos || at == 0 ? 0 : begin + 1;
  return std::string(error.substr(start, error.find('\n', at) - start));
}

std::string DescribeSnapshot(const Snapshot& s) {
  return fmt::format("snapshot {} {} user={} identifier={} total={} delta={}", s.id, CommitKindName(s.kind),
                     s.commit_user, s.commit_identifier, s.total_records, s.delta_records);
}

// How a writer's script or a labelled line ended, with the error (if any) that ended it.
struct Ending {
  std::optional<Outcome> outcome;  // unset: the line did not run (or not all of it)
  std::string error;
  std::string_view not_run;  // "not run" or "skipped" when unset
};

Ending LineEnding(const WriterReport& w, size_t first, size_t last) {
  for (size_t i = first; i <= last; ++i) {
    const StepRecord& s = w.steps[i];
    if (s.status == StepStatus::kFailed) return {s.outcome, std::string(w.StepError(i)), {}};
    if (s.status != StepStatus::kOk) return {std::nullopt, "", StepStatusName(s.status)};
  }
  return {Outcome::kOk, "", {}};
}

// "refused: <the line of the error with `text`>", "ok", "not run".
std::string DescribeEnding(const Ending& e, std::string_view text = {}) {
  if (!e.outcome) return std::string(e.not_run);
  std::string out(OutcomeName(*e.outcome));
  if (!e.error.empty()) out += ": " + LineWith(e.error, text);
  return out;
}

bool Matches(const Ending& e, const OutcomeExpect& x) {
  return e.outcome == x.outcome && (x.message.empty() || e.error.find(x.message) != std::string::npos);
}

// The parts of `seen` an outcome expectation adds when the outcome is right but the text is not.
std::string TextNote(const Ending& e, const OutcomeExpect& x) {
  if (e.outcome != x.outcome || x.message.empty() || e.error.find(x.message) != std::string::npos) return "";
  return fmt::format(" (its error does not contain \"{}\")", x.message);
}

class Evaluator {
 public:
  Evaluator(const Scenario& s, RunReport* r) : s_(s), r_(*r) {}

  void Evaluate(const Expectation& e) {
    ExpectationResult out{.pos = e.pos, .where = s_.Where({e.pos.line, 0}), .text = e.text};
    std::visit([&](const auto& x) { Check(x, &out); }, e.body);
    r_.expectations.push_back(std::move(out));
  }

 private:
  // The table an expectation names (table=NAME), "table T: " in what it saw when it is not the
  // first one.
  const TableReport& Table(size_t t) const { return r_.tables[t]; }
  std::string Prefix(size_t t) const { return t == 0 ? "" : fmt::format("table {}: ", r_.tables[t].name); }

  void Check(const SnapshotExpect& x, ExpectationResult* out) {
    const TableReport& table = Table(x.table);
    const SnapshotChain& c = table.chain;
    size_t found = c.size();
    for (size_t i = 0; i < c.size(); ++i)
      if (c[i].id == x.id) found = i;
    if (found == c.size()) {
      out->seen = fmt::format("{}no snapshot {} (latest {})", Prefix(x.table), x.id, table.latest_snapshot);
      return;
    }
    const Snapshot& s = c[found];
    const std::string operation(table.operation(found));
    out->passed = (!x.kind || s.kind == *x.kind) && (!x.user || s.commit_user == *x.user) &&
                  (!x.identifier || s.commit_identifier == *x.identifier) &&
                  (!x.total_records || s.total_records == *x.total_records) &&
                  (!x.delta_records || s.delta_records == *x.delta_records) &&
                  (!x.parent || s.parent_id == *x.parent) && (!x.operation || operation == *x.operation);
    out->seen = Prefix(x.table) + DescribeSnapshot(s);
    if (x.parent) out->seen += fmt::format(" parent={}", s.parent_id);
    if (x.operation) out->seen += " operation=" + operation;
  }

  void Check(const CounterValueExpect& x, ExpectationResult* out) {
    const TableReport& table = Table(x.table);
    auto it = table.counters.find(x.key);
    if (it == table.counters.end()) {
      out->seen = fmt::format("{}no counter {} (no counter init step wrote it)", Prefix(x.table), x.key);
      return;
    }
    out->passed = x.value.Matches(it->second);
    out->seen = fmt::format("{}counter {} = {}", Prefix(x.table), x.key, it->second);
  }

  void Check(const LatestSnapshotExpect& x, ExpectationResult* out) {
    const int64_t latest = Table(x.table).latest_snapshot;
    out->passed = x.value.Matches(latest);
    out->seen = fmt::format("{}latest snapshot {}", Prefix(x.table), latest);
  }

  void Check(const PerUserExpect& x, ExpectationResult* out) {
    std::map<std::string, int64_t> want;
    for (const auto& [user, n] : x.snapshots)
      if (n != 0) want[user] = n;
    std::map<std::string, int64_t> seen;
    for (const Snapshot& s : Table(x.table).chain) ++seen[s.commit_user];
    out->passed = want == seen;
    out->seen = Prefix(x.table) + PerUserLine(Table(x.table));
  }

  void Check(const TallyExpect& x, ExpectationResult* out) {
    const int64_t v = CounterValue(r_.tally, x.counter);
    out->passed = x.value.Matches(v);
    out->seen = fmt::format("tally {} {}", CounterName(x.counter), v);
  }

  void Check(const OutcomeExpect& x, ExpectationResult* out) {
    if (x.subject == Subject::kSomeWriter) {
      std::string endings;
      for (const WriterReport& w : r_.writers) {
        const Ending e{w.outcome, w.error, {}};
        if (Matches(e, x)) {
          out->passed = true;
          out->seen = fmt::format("{} {}", w.name, DescribeEnding(e, x.message));
          return;
        }
        endings += fmt::format("{}{} {}", endings.empty() ? "" : "; ", w.name, DescribeEnding(e));
      }
      out->seen = fmt::format("no writer ended {}{}: {}", OutcomeName(x.outcome),
                              x.message.empty() ? "" : fmt::format(" with \"{}\"", x.message), endings);
      return;
    }
    const WriterReport& w = r_.writers[x.writer];
    Ending e{w.outcome, w.error, {}};
    std::string who = w.name;
    if (x.subject == Subject::kStep) {
      e = LineEnding(w, x.first_step, x.last_step);
      who = fmt::format("{}.{}", w.name, s_.writers[x.writer].steps[x.first_step].label);
    }
    out->passed = Matches(e, x);
    out->seen = fmt::format("{} {}{}", who, DescribeEnding(e, x.message), TextNote(e, x));
  }

  void Check(const CounterExpect& x, ExpectationResult* out) {
    const WriterReport& w = r_.writers[x.writer];
    if (x.subject == Subject::kWriter) {
      const int64_t v = CounterValue(w.counters, x.counter);
      out->passed = x.value.Matches(v);
      out->seen = fmt::format("{} {} {}", w.name, CounterName(x.counter), v);
      return;
    }
    const std::string label = fmt::format("{}.{}", w.name, s_.writers[x.writer].steps[x.first_step].label);
    int64_t sum = 0;
    for (size_t i = x.first_step; i <= x.last_step; ++i) {
      const StepRecord& s = w.steps[i];
      if (s.status == StepStatus::kNotRun || s.status == StepStatus::kSkipped) {
        out->seen = fmt::format("{} {}", label, StepStatusName(s.status));
        return;
      }
      sum += s.committed;
    }
    out->passed = x.value.Matches(sum);
    out->seen = fmt::format("{} committed {}", label, sum);
  }

  void Check(const InvariantExpect& x, ExpectationResult* out) {
    for (ViolationReport& v : r_.violations) {
      if (v.violation.kind != x.violation) continue;
      v.expected = true;
      if (!out->passed) out->seen = "found " + v.violation.ToString();
      out->passed = true;
    }
    if (!out->passed) out->seen = fmt::format("no {} violation", x.violation);
  }

  const Scenario& s_;
  RunReport& r_;
};

}  // namespace

void EvaluateExpectations(const Scenario& s, RunReport* r) {
  Evaluator evaluator(s, r);
  for (const Expectation& e : s.expectations) evaluator.Evaluate(e);
}

}  // namespace commitlab::scenarios::internal
