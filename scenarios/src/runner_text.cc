// Text forms of a run report's parts, shared by `commitlab run` and `commitlab lab`.
#include <fmt/format.h>

#include <map>

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
    lines.push_back(
        "invariants: ok (every acknowledged commit landed exactly once, ids contiguous, no file deleted "
        "that was not live)");
    return lines;
  }
  lines.push_back(r.invariants_ok()
                      ? fmt::format("invariants: {} violation(s), each one the scenario expects", r.violations.size())
                      : "invariants: VIOLATED");
  for (const ViolationReport& v : r.violations)
    lines.push_back(fmt::format("  - {}{}", v.expected ? "(expected) " : "", v.violation.ToString()));
  return lines;
}

std::string PerUserLine(const RunReport& r) {
  std::map<std::string, int64_t> per_user;
  if (!r.tables.empty())
    for (const Snapshot& s : r.table().chain) ++per_user[s.commit_user];
  std::string out;
  for (const auto& [user, n] : per_user) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", user, n);
  return "{" + out + "}";
}

}  // namespace commitlab::scenarios
