// Text forms of a run report's parts, shared by `commitlab run` and `commitlab lab`.
#include <fmt/format.h>

#include <map>
#include <set>

#include "commitlab/scenarios/protocols.h"
#include "commitlab/scenarios/runner.h"

namespace commitlab::scenarios {

std::string SnapshotLine(const Snapshot& s) {
  return fmt::format("snapshot {}  {:<7}  user={}  identifier={}  total={}", s.id, CommitKindName(s.kind),
                     s.commit_user, s.commit_identifier, s.total_records);
}

std::string ExpectationLine(const ExpectationResult& e) {
  return fmt::format("{} {}: {} (saw {})", e.passed ? "PASS" : "FAIL", e.where, e.text, e.seen);
}

std::vector<std::string> InvariantLines(const RunReport& r) {
  std::vector<std::string> lines;
  if (r.violations.empty()) {
    // What was checked, in each protocol's terms (README, "invariant-violation").
    std::set<Protocol> present;
    for (const TableReport& t : r.tables) present.insert(t.protocol);
    const bool several = present.size() > 1;
    std::string checked;
    for (Protocol p : present) {
      checked += fmt::format("{}{}{}", checked.empty() ? "" : "; ", several ? fmt::format("{}: ", ProtocolName(p)) : "",
                             WordsOf(p).invariants);
    }
    lines.push_back(fmt::format("invariants: ok ({})", checked.empty() ? "no table" : checked));
    return lines;
  }
  lines.push_back(r.invariants_ok()
                      ? fmt::format("invariants: {} violation(s), each one the scenario expects", r.violations.size())
                      : "invariants: VIOLATED");
  for (const ViolationReport& v : r.violations)
    lines.push_back(fmt::format("  - {}{}", v.expected ? "(expected) " : "", v.violation.ToString()));
  return lines;
}

std::string AtomicFailuresLine(const RunReport& r) {
  std::string per_writer;
  for (const WriterReport& w : r.writers)
    per_writer += fmt::format("{}{} {}", per_writer.empty() ? "" : ", ", w.name, w.counters.atomic_failures);
  return fmt::format("atomic commit failures: {} ({})", r.tally.atomic_failures, per_writer);
}

std::string FailureSummary(const RunReport& r) {
  std::set<std::string> kinds;
  for (const ViolationReport& v : r.violations)
    if (!v.expected) kinds.insert(v.violation.kind);
  std::string out;
  for (const std::string& k : kinds) out += (out.empty() ? "" : ", ") + k;
  auto add = [&out](int n, std::string_view what) {
    if (n > 0) out += fmt::format("{}{} {}", out.empty() ? "" : "; ", n, what);
  };
  add(r.expectations_failed(), "expectation(s) failed");
  add(static_cast<int>(r.run_errors.size()), "run error(s)");
  return out;
}

std::vector<RunFailure> RunFailures(const RunReport& r) {
  std::vector<RunFailure> out;
  for (const ViolationReport& v : r.violations)
    if (!v.expected) out.push_back({v.violation.kind, v.violation.message});
  for (const ExpectationResult& e : r.expectations)
    if (!e.passed) out.push_back({"expect " + e.where, fmt::format("{} (saw {})", e.text, e.seen)});
  for (const std::string& e : r.run_errors) out.push_back({"run error", e});
  return out;
}

std::string PerUserLine(const RunReport& r) { return r.tables.empty() ? "{}" : PerUserLine(r.table()); }

std::string PerUserLine(const TableReport& t) {
  std::map<std::string, int64_t> per_user;
  for (const Snapshot& s : t.chain) ++per_user[s.commit_user];
  std::string out;
  for (const auto& [user, n] : per_user) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", user, n);
  return "{" + out + "}";
}

}  // namespace commitlab::scenarios
