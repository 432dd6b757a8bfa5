// A window of Paimon snapshots as a scenario (scenario_text.h): one writer per commit user, each
// snapshot its commit kind with its identifier, in the Paimon steps (scenarios/README.md, "Steps").
#include <fmt/format.h>

#include <algorithm>

#include "json_input.h"
#include "scenario_text.h"

namespace commitlab::sim::import::internal {

Result<std::string> PaimonScenario(const ScenarioInput& in) {
  if (!in.options.isolation.empty())
    return Status::InvalidArgument("--isolation: a Paimon table has no isolation level to choose");
  std::vector<std::string> writers;
  const std::vector<std::string> lanes = AssignLanes(in.window, in.options.writer_per_commit, &writers);
  std::string body;
  std::string orders = "\n";
  std::vector<std::string> used;
  bool compactions = false;
  for (size_t i = 0; i < in.window.size(); ++i) {
    const ImportedCommit& c = in.window[i];
    body += CommitComment(c, "snapshot") +
            fmt::format("; user {}, identifier {}, {} record(s) added\n", c.user, c.identifier, c.records) +
            FindingComments(in, c.version);
    // An APPEND and the COMPACT after it with the same user and identifier are one committable
    // (FileStoreCommitImpl.commit writes both): one commit step makes both.
    const bool joined = i + 1 < in.window.size() && c.kind == "APPEND" && in.window[i + 1].kind == "COMPACT" &&
                        in.window[i + 1].user == c.user && in.window[i + 1].identifier == c.identifier &&
                        lanes[i + 1] == lanes[i];
    std::string steps;
    if (c.kind == "APPEND")
      steps = joined ? "write rows=1; compact from=0 to=5 files=all; commit" : "write rows=1; commit";
    if (c.kind == "COMPACT") steps = "compact from=0 to=5 files=all; commit";
    if (c.kind == "OVERWRITE") steps = "write rows=1; commit overwrite=all";
    if (c.kind == "ANALYZE") {
      body += "#   no step: statistics only (the scenario language has no ANALYZE)\n";
      continue;
    }
    compactions = compactions || c.kind == "COMPACT" || joined;
    if (std::find(used.begin(), used.end(), lanes[i]) == used.end()) used.push_back(lanes[i]);
    body += fmt::format("{}.c{}: {} identifier={}\n\n", lanes[i], c.version, steps, c.identifier);
    orders += fmt::format("order setup.s -> {}.c{}\n", lanes[i], c.version);
    if (joined) {
      body += CommitComment(in.window[i + 1], "snapshot") + ": the COMPACT of the commit above\n\n";
      ++i;
    }
  }
  if (used.empty()) return Status::InvalidArgument("--scenario: none of these snapshots is one a scenario can replay");
  std::vector<std::string> kept;
  for (const std::string& w : writers)
    if (std::find(used.begin(), used.end(), w) != used.end()) kept.push_back(w);
  std::string out = Opening(in,
                            "Snapshots do not name their files (the manifests hold them): each APPEND writes one "
                            "L0 file here, and each COMPACT merges every L0 file of bucket 0 into L5.");
  out += fmt::format("table name={} protocol=paimon primary-key={} buckets=1 ignore-empty-commit=true\n",
                     TableName(in.source), in.facts.primary_key ? "true" : "false");
  out += "writer name=setup\n";
  for (const std::string& w : kept) {
    // The commit user as the log names it, so that identifiers are checked per user as Paimon does.
    const auto it = std::find(lanes.begin(), lanes.end(), w);
    const std::string& user = in.window[static_cast<size_t>(it - lanes.begin())].user;
    out += fmt::format("writer name={} user={}\n", w, SafeName(user, 64));
  }
  out += fmt::format("\n# setup: {}\nsetup.s: write rows=1; write rows=1; commit\n\n",
                     compactions ? "two L0 files for the compactions to merge" : "the table before these commits");
  out += body + orders + ExpectLines(kept);
  return out;
}

}  // namespace commitlab::sim::import::internal
