// The audit both process-race tests make, from the outside: `commitlab check --json` must find
// the table sound, every acknowledgement a process printed must be in it exactly once and in the
// snapshot it was told, and every user's identifiers 1..commits must each be there once.
#ifndef COMMITLAB_PROCESS_TESTS_ACK_AUDIT_H_
#define COMMITLAB_PROCESS_TESTS_ACK_AUDIT_H_

#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/process/process_race.h"
#include "commitlab_binary.h"

namespace commitlab::process::test {

// The problems found; empty when the table holds exactly what was acknowledged.
inline std::vector<std::string> AuditAcks(const std::string& dir, const ProcessRaceResult& race, int64_t commits) {
  std::vector<std::string> problems;
  int exit_code = -1;
  const sim::Json check = CheckJson(dir, {}, &exit_code);
  if (check.is_discarded() || !check.is_object()) return {fmt::format("check printed no JSON (exit {})", exit_code)};
  if (exit_code != 0 || !check.value("sound", false))
    problems.push_back(fmt::format("check: {}", check["problems"].dump()));
  std::map<std::pair<std::string, int64_t>, std::vector<int64_t>> where;  // (user, identifier) -> snapshot ids
  for (const sim::Json& s : check["snapshots"])
    where[{s["user"].get<std::string>(), s["identifier"].get<int64_t>()}].push_back(s["id"].get<int64_t>());
  for (const WriterProcesses& w : race.writers) {
    if (!w.error.empty()) problems.push_back(fmt::format("{}: {}", w.user, w.error));
    for (const Ack& a : w.acks) {
      const std::vector<int64_t>& ids = where[{a.user, a.identifier}];
      if (ids.size() != 1 || ids[0] != a.snapshot) {
        problems.push_back(fmt::format("ack {} identifier {} snapshot {}: the table has it in {} snapshot(s){}", a.user,
                                       a.identifier, a.snapshot, ids.size(),
                                       ids.empty() ? "" : fmt::format(", first {}", ids[0])));
      }
    }
    for (int64_t id = 1; id <= commits; ++id) {
      const size_t n = where[{w.user, id}].size();
      if (n != 1) problems.push_back(fmt::format("{} identifier {} is in the table {} times", w.user, id, n));
    }
  }
  return problems;
}

}  // namespace commitlab::process::test

#endif  // COMMITLAB_PROCESS_TESTS_ACK_AUDIT_H_
