#include "iceberg_commits.h"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>

#include "json_input.h"

namespace commitlab::sim::import::internal {
namespace {

// The job a snapshot's summary names: Flink's IcebergFilesCommitter writes flink.job-id, Spark's
// SparkWrite spark.app.id (and, since 1.4, app-id with engine-name and engine-version).
void Writer(const Json& summary, ImportedCommit* c) {
  auto text = [&summary](const char* key) {
    return summary.contains(key) && summary[key].is_string() ? summary[key].get<std::string>() : std::string();
  };
  if (std::string job = text("flink.job-id"); !job.empty()) {
    c->user = "flink job " + job;
    c->writer = SafeName("flink-" + job);
  } else if (std::string app = text("spark.app.id"); !app.empty()) {
    c->user = "spark app " + app;
    c->writer = SafeName("spark-" + app);
  } else if (std::string engine = text("engine-name"); !engine.empty()) {
    c->user = engine + " " + text("engine-version");
    c->writer = SafeName(c->user);
  } else {
    c->user = "";
    c->writer = "writer";
  }
}

}  // namespace

int64_t SummaryInt(const Json& summary, const char* key) {
  if (!summary.is_object() || !summary.contains(key) || !summary[key].is_string()) return 0;
  const std::string& s = summary[key].get_ref<const std::string&>();
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() ? v : 0;
}

std::string IcebergIsolation(const IcebergMetadata& meta) {
  auto it = meta.properties.find("write.delete.isolation-level");
  return it == meta.properties.end() ? "serializable" : it->second;
}

ImportedCommit SnapshotCommit(const IcebergSnapshot& s, int64_t version, const std::string& file,
                              const IcebergMetadata& meta) {
  ImportedCommit c;
  c.version = version;
  c.file = file;
  c.time_ms = s.timestamp_ms;
  c.operation = s.operation;
  // As commitlab's reports map Iceberg operations: append, replace (a compaction), else overwrite.
  c.kind = s.operation == "append" ? "APPEND" : s.operation == "replace" ? "COMPACT" : "OVERWRITE";
  Writer(s.summary, &c);
  c.added_files = SummaryInt(s.summary, "added-data-files");
  c.removed_files = SummaryInt(s.summary, "deleted-data-files");
  c.added_delete_files = SummaryInt(s.summary, "added-delete-files");
  c.records = SummaryInt(s.summary, "added-records");
  Json refs = Json::array();
  for (const auto& [name, id] : meta.refs)
    if (id == s.id) refs.push_back(name);
  c.details = {{"snapshot-id", s.id},
               {"parent-snapshot-id", s.parent ? Json(*s.parent) : Json(nullptr)},
               {"sequence-number", s.sequence},
               {"timestamp-ms", s.timestamp_ms},
               {"summary", s.summary}};
  if (s.schema_id) c.details["schema-id"] = *s.schema_id;
  if (!refs.empty()) c.details["refs"] = std::move(refs);
  c.details["metadata-file"] = std::filesystem::path(meta.file).filename().string();
  return c;
}

}  // namespace commitlab::sim::import::internal
