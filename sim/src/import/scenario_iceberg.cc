// A window of Iceberg commits as a scenario (scenario_text.h): each snapshot the operation its
// summary names, in the Iceberg steps (scenarios/README.md, "Iceberg steps"), after a `read` that
// pins the table as it was before all of them.
#include <fmt/format.h>

#include <algorithm>

#include "iceberg_commits.h"
#include "json_input.h"
#include "scenario_text.h"

namespace commitlab::sim::import::internal {
namespace {

// One data file's worth of rows per file the snapshot added, as the summary counts them.
int64_t Rows(const ImportedCommit& c) { return std::clamp<int64_t>(c.added_files, 1, 100); }

// The step for a snapshot, by its operation and what its summary counts; "" for a version that
// changed nothing the scenario language can say (properties, refs, a rollback).
std::string StepOf(const ImportedCommit& c, const std::string& isolation, std::string* why) {
  const bool flink = c.writer.starts_with("flink-");
  if (c.kind == "METADATA") {
    if (c.details.contains("schema-change")) {
      *why = "a schema change: SchemaUpdate.commit, never retried";
      return fmt::format("schema id={}", c.details["schema-change"]["to"].get<int64_t>());
    }
    *why = "no step: the scenario language has none for this change";
    return "";
  }
  if (c.operation == "append") {
    *why = "MergeAppend: validates nothing";
    return fmt::format("append rows={}", Rows(c));
  }
  if (c.operation == "replace") {
    *why = "a compaction (RewriteFiles)";
    return "rewrite";
  }
  if (c.added_delete_files > 0 && flink) {
    *why = "Flink's upsert: equality deletes committed as a RowDelta that validates nothing (IcebergFilesCommitter)";
    return fmt::format("row-delta delete-keys=1..1 rows={}", Rows(c));
  }
  if (c.added_delete_files > 0) {
    // SparkPositionDeltaWrite's commit: the referenced files still exist and nothing they were
    // deleted from was removed; under serializable no new data or deletes, under snapshot no new deletes.
    *why = "a merge-on-read DELETE, UPDATE or MERGE (SparkPositionDeltaWrite) under " + isolation;
    const std::string validate = isolation == "snapshot" ? "data-files-exist,deleted-files,deletes"
                                                         : "data-files-exist,deleted-files,data,deletes";
    return fmt::format("row-delta delete=true{} validate={}", c.added_files > 0 ? fmt::format(" rows={}", Rows(c)) : "",
                       validate);
  }
  if (c.operation == "delete") {
    *why = "a copy-on-write DELETE of whole files";
    return "delete filter=true";
  }
  *why = "a copy-on-write overwrite (OverwriteFiles by a row filter; the filter is not in the log)";
  return fmt::format("overwrite filter=true rows={}", Rows(c));
}

}  // namespace

Result<std::string> IcebergScenario(const ScenarioInput& in) {
  std::string level = in.options.isolation.empty() ? in.facts.isolation : in.options.isolation;
  if (level.empty()) level = "serializable";
  if (level != "serializable" && level != "snapshot")
    return Status::InvalidArgument(
        fmt::format("--isolation '{}': an Iceberg table's level is serializable or snapshot", level));
  std::vector<std::string> writers;
  const std::vector<std::string> lanes = AssignLanes(in.window, in.options.writer_per_commit, &writers);
  std::string body;
  std::vector<std::string> used;
  std::string orders = "\n";
  for (size_t i = 0; i < in.window.size(); ++i) {
    const ImportedCommit& c = in.window[i];
    std::string why;
    const std::string step = StepOf(c, level, &why);
    body += CommitComment(c, "version");
    if (c.details.contains("snapshot-id")) body += fmt::format(" (snapshot {})", c.details["snapshot-id"].dump());
    body += fmt::format("; added {} data file(s), {} delete file(s), removed {} data file(s), {} record(s)\n",
                        c.added_files, c.added_delete_files, c.removed_files, c.records);
    body += fmt::format("#   {}\n", why) + FindingComments(in, c.version);
    if (step.empty()) continue;
    if (std::find(used.begin(), used.end(), lanes[i]) == used.end()) used.push_back(lanes[i]);
    body += fmt::format("{}.r{}: read\n{}.c{}: {}\n\n", lanes[i], c.version, lanes[i], c.version, step);
    orders += fmt::format("order setup.s -> {}.r{}\n", lanes[i], c.version);
  }
  if (used.empty())
    return Status::InvalidArgument("--scenario: none of these commits is one the scenario language can replay");
  std::vector<std::string> kept;
  for (const std::string& w : writers)
    if (std::find(used.begin(), used.end(), w) != used.end()) kept.push_back(w);
  std::string out = Opening(
      in, fmt::format("Isolation in the log's properties: {}; here: {}. The summaries do not say which partitions or "
                      "files a commit touched (the manifests hold that), so the table is unpartitioned here and "
                      "every overwrite, delete and rewrite acts on the whole table: conflicts are over-approximated.",
                      in.facts.isolation.empty() ? "serializable" : in.facts.isolation, level));
  out += fmt::format("table name={} protocol=iceberg isolation={}\nwriter name=setup\n", TableName(in.source), level);
  out += WriterLines(kept, "") + "\n";
  out += "# setup: a live data file for the overwrites, deletes and rewrites to act on\nsetup.s: append rows=1\n\n";
  out += body + orders + ExpectLines(kept);
  return out;
}

}  // namespace commitlab::sim::import::internal
