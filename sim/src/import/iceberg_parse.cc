#include "iceberg_parse.h"

#include <fmt/format.h>

#include <unordered_set>
#include <utility>

#include "json_input.h"
#include "json_stream.h"

namespace commitlab::sim::import::internal {
namespace {

// TableMetadata.SUPPORTED_TABLE_FORMAT_VERSION and MIN_FORMAT_VERSION_OPTIONAL_LOCATION.
constexpr int kSupportedFormatVersion = 4;
constexpr int kOptionalLocationVersion = 4;
// TableMetadata's tolerance for clock skew between writers (ONE_MINUTE).
constexpr int64_t kOneMinuteMs = 60 * 1000;

// The members of the root object and the line each starts on.
struct Top {
  Json values = Json::object();
  std::map<std::string, size_t> lines;
  size_t Line(const std::string& key) const {
    auto it = lines.find(key);
    return it == lines.end() ? 1 : it->second;
  }
};

// JsonUtil's getters, with its messages.
class Util {
 public:
  Util(const std::string& file, const Json& node, size_t line) : file_(file), node_(node), line_(line) {}
  Util(const std::string& file, const Top& top) : file_(file), node_(top.values), top_(&top) {}

  bool Has(const char* key) const { return node_.is_object() && node_.contains(key); }
  bool HasNonNull(const char* key) const { return Has(key) && !node_[key].is_null(); }
  Result<int64_t> Long(const char* key, bool is_int = false) const {
    const char* type = is_int ? "int" : "long";
    if (!Has(key)) return Bad(file_, Line(key), fmt::format("Cannot parse missing {}: {}", type, key));
    const Json& v = node_[key];
    const bool ok =
        v.is_number_integer() && (!is_int || (v.get<int64_t>() >= INT32_MIN && v.get<int64_t>() <= INT32_MAX));
    if (!ok)
      return Bad(file_, Line(key),
                 fmt::format("Cannot parse to {} value: {}: {}", is_int ? "an integer" : "a long", key, v.dump()));
    return v.get<int64_t>();
  }
  Result<std::optional<int64_t>> LongOrNull(const char* key, bool is_int = false) const {
    if (!HasNonNull(key)) return std::optional<int64_t>();
    COMMITLAB_ASSIGN_OR_RETURN(int64_t v, Long(key, is_int));
    return std::optional<int64_t>(v);
  }
  Result<std::string> String(const char* key) const {
    if (!Has(key)) return Bad(file_, Line(key), fmt::format("Cannot parse missing string: {}", key));
    if (!node_[key].is_string())
      return Bad(file_, Line(key), fmt::format("Cannot parse to a string value: {}: {}", key, node_[key].dump()));
    return node_[key].get<std::string>();
  }
  Status Check(bool ok, const char* key, std::string message) const {
    return ok ? Status::OK() : Bad(file_, Line(key), message);
  }
  size_t Line(const char* key) const { return top_ != nullptr ? top_->Line(key) : line_; }

 private:
  const std::string& file_;
  const Json& node_;
  const Top* top_ = nullptr;
  size_t line_ = 1;
};

// schemas, current-schema-id (TableMetadataParser.fromJson, in its order).
Status Schemas(const Util& u, const Top& top, int format_version, IcebergMetadata* out) {
  if (top.values.contains("schemas")) {
    const Json& schemas = top.values["schemas"];
    COMMITLAB_RETURN_IF_ERROR(
        u.Check(schemas.is_array(), "schemas", fmt::format("Cannot parse schemas from non-array: {}", schemas.dump())));
    COMMITLAB_ASSIGN_OR_RETURN(int64_t current, u.Long("current-schema-id", true));
    bool found = false;
    for (const Json& s : schemas) {
      // SchemaParser.fromJson: a schema without schema-id is schema 0.
      const int64_t id = s.is_object() && s.contains("schema-id") && s["schema-id"].is_number_integer()
                             ? s["schema-id"].get<int64_t>()
                             : 0;
      found = found || id == current;
    }
    out->current_schema_id = static_cast<int>(current);
    return u.Check(found, "current-schema-id",
                   fmt::format("Cannot find schema with current-schema-id={} from schemas", current));
  }
  COMMITLAB_RETURN_IF_ERROR(
      u.Check(format_version == 1, "schemas", fmt::format("schemas must exist in format v{}", format_version)));
  return u.Check(u.HasNonNull("schema"), "schema", "Cannot parse missing field: schema");
}

// partition-specs, default-spec-id, last-partition-id; the default spec's field names.
Status Specs(const Util& u, const Top& top, int format_version, IcebergMetadata* out) {
  const Json* fields = nullptr;
  if (top.values.contains("partition-specs")) {
    const Json& specs = top.values["partition-specs"];
    COMMITLAB_RETURN_IF_ERROR(u.Check(specs.is_array(), "partition-specs",
                                      fmt::format("Cannot parse partition specs from non-array: {}", specs.dump())));
    COMMITLAB_ASSIGN_OR_RETURN(int64_t default_id, u.Long("default-spec-id", true));
    for (const Json& s : specs)
      if (s.is_object() && s.value("spec-id", int64_t{0}) == default_id && s.contains("fields")) fields = &s["fields"];
  } else {
    COMMITLAB_RETURN_IF_ERROR(u.Check(format_version == 1, "partition-specs",
                                      fmt::format("partition-specs must exist in format v{}", format_version)));
    COMMITLAB_RETURN_IF_ERROR(
        u.Check(u.HasNonNull("partition-spec"), "partition-spec", "Cannot parse missing field: partition-spec"));
    fields = &top.values["partition-spec"];
  }
  if (fields != nullptr && fields->is_array())
    for (const Json& f : *fields)
      if (f.is_object() && f.contains("name") && f["name"].is_string()) out->partition_fields.push_back(f["name"]);
  if (!u.HasNonNull("last-partition-id"))
    return u.Check(format_version == 1, "last-partition-id",
                   fmt::format("last-partition-id must exist in format v{}", format_version));
  return Status::OK();
}

Status Rest(const Util& u, const Top& top, int format_version, IcebergMetadata* out) {
  if (top.values.contains("sort-orders")) {
    COMMITLAB_RETURN_IF_ERROR(u.Long("default-sort-order-id", true).status());
  } else {
    COMMITLAB_RETURN_IF_ERROR(u.Check(format_version == 1, "sort-orders",
                                      fmt::format("sort-orders must exist in format v{}", format_version)));
  }
  if (top.values.contains("properties")) {
    const Json& p = top.values["properties"];
    COMMITLAB_RETURN_IF_ERROR(
        u.Check(p.is_object(), "properties",
                fmt::format("Cannot parse string map from non-object value: properties: {}", p.dump())));
    for (const auto& [k, v] : p.items()) {
      COMMITLAB_RETURN_IF_ERROR(
          u.Check(v.is_string(), "properties", fmt::format("Cannot parse to a string value: {}: {}", k, v.dump())));
      out->properties[k] = v.get<std::string>();
    }
  }
  COMMITLAB_ASSIGN_OR_RETURN(std::optional<int64_t> current, u.LongOrNull("current-snapshot-id"));
  out->current_snapshot_id = current.value_or(-1);
  if (format_version >= 3) COMMITLAB_RETURN_IF_ERROR(u.Long("next-row-id").status());
  COMMITLAB_ASSIGN_OR_RETURN(int64_t updated, u.Long("last-updated-ms"));
  out->last_updated_ms = updated;
  // TableMetadataParser.fromJson: without refs, main is the current snapshot.
  if (!top.values.contains("refs") && out->current_snapshot_id != -1) out->refs["main"] = out->current_snapshot_id;
  if (top.values.contains("refs") && top.values["refs"].is_object()) {
    for (const auto& [name, ref] : top.values["refs"].items()) {
      if (!ref.is_object() || !ref.contains("snapshot-id") || !ref["snapshot-id"].is_number_integer())
        return u.Check(false, "refs", fmt::format("Cannot parse missing long: snapshot-id (ref {})", name));
      out->refs[name] = ref["snapshot-id"].get<int64_t>();
    }
  }
  return Status::OK();
}

// TableMetadataParser.fromJson's checks, in its order.
Status Validate(const std::string& file, const Top& top, IcebergMetadata* out) {
  const Util u(file, top);
  COMMITLAB_ASSIGN_OR_RETURN(int64_t version, u.Long("format-version", true));
  COMMITLAB_RETURN_IF_ERROR(u.Check(version <= kSupportedFormatVersion, "format-version",
                                    fmt::format("Cannot read unsupported version {}", version)));
  const int v = static_cast<int>(version);
  out->format_version = v;
  if (v < kOptionalLocationVersion) COMMITLAB_RETURN_IF_ERROR(u.String("location").status());
  if (v > 1) {
    COMMITLAB_ASSIGN_OR_RETURN(int64_t last, u.Long("last-sequence-number"));
    out->last_sequence_number = last;
  }
  COMMITLAB_RETURN_IF_ERROR(u.Long("last-column-id", true).status());
  COMMITLAB_RETURN_IF_ERROR(Schemas(u, top, v, out));
  COMMITLAB_RETURN_IF_ERROR(Specs(u, top, v, out));
  return Rest(u, top, v, out);
}

Result<IcebergLogEntry> LogEntry(const std::string& file, const std::string& key, const Json& e, size_t line) {
  const Util u(file, e, line);
  IcebergLogEntry entry;
  COMMITLAB_ASSIGN_OR_RETURN(int64_t ts, u.Long("timestamp-ms"));
  entry.timestamp_ms = ts;
  if (key == "snapshot-log") {
    COMMITLAB_ASSIGN_OR_RETURN(int64_t id, u.Long("snapshot-id"));
    entry.snapshot_id = id;
  } else {
    COMMITLAB_ASSIGN_OR_RETURN(std::string f, u.String("metadata-file"));
    entry.file = std::move(f);
  }
  return entry;
}

// TableMetadata's constructor wants both logs in time order, within a minute of clock skew. The
// logs stream past: each keeps its newest time and whether an entry came too early.
struct LogOrder {
  int64_t entries = 0;
  std::optional<int64_t> last_ms = {};
  bool unsorted = false;

  void Add(int64_t ms) {
    if (last_ms && ms - *last_ms < -kOneMinuteMs) unsorted = true;
    last_ms = ms;
    ++entries;
  }
};

// The checks in TableMetadata's order, once the whole file was read and validated.
Status LogsSorted(const std::string& file, const Top& top, const IcebergMetadata& m, const LogOrder& snapshots,
                  const LogOrder& metadata) {
  if (snapshots.unsorted) return Bad(file, top.Line("snapshot-log"), "[BUG] Expected sorted snapshot log entries.");
  if (snapshots.last_ms && m.last_updated_ms - *snapshots.last_ms < -kOneMinuteMs)
    return Bad(file, top.Line("last-updated-ms"),
               fmt::format("Invalid update timestamp {}: before last snapshot log entry at {}", m.last_updated_ms,
                           *snapshots.last_ms));
  if (metadata.unsorted)
    return Bad(file, top.Line("metadata-log"), "[BUG] Expected sorted previous metadata log entries.");
  if (metadata.last_ms && m.last_updated_ms - *metadata.last_ms < -kOneMinuteMs)
    return Bad(file, top.Line("last-updated-ms"),
               fmt::format("Invalid update timestamp {}: before the latest metadata log entry timestamp {}",
                           m.last_updated_ms, *metadata.last_ms));
  return Status::OK();
}

// One element of `snapshots`, as SnapshotParser.fromJson reads it.
Result<IcebergSnapshot> ParseSnapshot(const std::string& file, const Json& v, size_t line) {
  if (!v.is_object()) return Bad(file, line, fmt::format("Cannot parse table version from a non-object: {}", v.dump()));
  const Util u(file, v, line);
  IcebergSnapshot s{.line = line};
  Result<std::optional<int64_t>> seq = u.LongOrNull("sequence-number");
  Result<int64_t> id = u.Long("snapshot-id");
  Result<std::optional<int64_t>> parent = u.LongOrNull("parent-snapshot-id");
  Result<int64_t> ts = u.Long("timestamp-ms");
  Result<std::optional<int64_t>> schema = u.LongOrNull("schema-id", true);
  for (const Status& st : {seq.status(), id.status(), parent.status(), ts.status(), schema.status()})
    COMMITLAB_RETURN_IF_ERROR(st);
  s.sequence = seq->value_or(0);
  s.id = *id;
  s.parent = *parent;
  s.timestamp_ms = *ts;
  s.schema_id = *schema;
  s.operation = "overwrite";  // "When the operation is not found, default to overwrite"
  if (v.contains("summary")) {
    const Json& sum = v["summary"];
    if (!sum.is_object())
      return Bad(file, line, fmt::format("Cannot parse summary from non-object value: {}", sum.dump()));
    for (const auto& [k, val] : sum.items()) {
      if (!val.is_string())
        return Bad(file, line, fmt::format("Cannot parse to a string value: {}: {}", k, val.dump()));
      if (k == "operation") {
        s.operation = val.get<std::string>();
      } else {
        s.summary[k] = val;
      }
    }
  }
  return s;
}

}  // namespace

Status ReadIcebergTop(const std::string& file, IcebergMetadata* out, const SnapshotLogFn& log) {
  *out = IcebergMetadata{};
  out->file = file;
  Top top;
  StreamPlan plan{
      .whole = {"schema", "schemas", "partition-spec", "partition-specs", "sort-orders", "properties", "refs"},
      .elements = {"snapshot-log", "metadata-log"}};
  auto member = [&top](const std::string& key, Json v, size_t line) {
    top.values[key] = std::move(v);
    top.lines[key] = line;
    return Status::OK();
  };
  LogOrder snapshot_log;
  LogOrder metadata_log;
  auto element = [&](const std::string& key, Json v, size_t line) -> Status {
    top.lines.try_emplace(key, line);
    COMMITLAB_ASSIGN_OR_RETURN(IcebergLogEntry e, LogEntry(file, key, v, line));
    if (key == "snapshot-log") {
      snapshot_log.Add(e.timestamp_ms);
      if (log) log(e);
    } else {
      metadata_log.Add(e.timestamp_ms);
      out->last_metadata_log = std::move(e);
    }
    return Status::OK();
  };
  COMMITLAB_RETURN_IF_ERROR(StreamObject(file, plan, "Cannot parse metadata from a non-object", member, element));
  COMMITLAB_RETURN_IF_ERROR(Validate(file, top, out));
  out->snapshot_log_entries = snapshot_log.entries;
  out->metadata_log_entries = metadata_log.entries;
  return LogsSorted(file, top, *out, snapshot_log, metadata_log);
}

Status ReadIcebergSnapshotLog(const std::string& file, const SnapshotLogFn& log) {
  auto member = [](const std::string&, Json, size_t) { return Status::OK(); };
  auto element = [&](const std::string& key, Json v, size_t line) -> Status {
    COMMITLAB_ASSIGN_OR_RETURN(IcebergLogEntry e, LogEntry(file, key, v, line));
    log(e);
    return Status::OK();
  };
  return StreamObject(file, {.whole = {}, .elements = {"snapshot-log"}}, "Cannot parse metadata from a non-object",
                      member, element);
}

Status ReadIcebergSnapshots(const std::string& file, IcebergMetadata* meta,
                            const std::function<Status(IcebergSnapshot)>& each, const SnapshotLogFn& log) {
  // Only the snapshots the refs and current-snapshot-id name are looked for, so a file of many
  // snapshots keeps none of their ids.
  std::unordered_set<int64_t> wanted;
  for (const auto& [name, id] : meta->refs) wanted.insert(id);
  if (meta->current_snapshot_id >= 0) wanted.insert(meta->current_snapshot_id);
  std::unordered_set<int64_t> ids;  // those of `wanted` seen
  auto member = [](const std::string&, Json, size_t) { return Status::OK(); };
  auto element = [&](const std::string& key, Json v, size_t line) -> Status {
    if (key == "snapshot-log") {
      COMMITLAB_ASSIGN_OR_RETURN(IcebergLogEntry e, LogEntry(file, key, v, line));
      log(e);
      return Status::OK();
    }
    COMMITLAB_ASSIGN_OR_RETURN(IcebergSnapshot s, ParseSnapshot(file, v, line));
    // TableMetadata.indexAndValidateSnapshots.
    if (s.sequence > meta->last_sequence_number)
      return Bad(file, line,
                 fmt::format("Invalid snapshot with sequence number {} greater than last sequence number {}",
                             s.sequence, meta->last_sequence_number));
    if (wanted.count(s.id) > 0) ids.insert(s.id);
    ++meta->snapshots;
    return each(std::move(s));
  };
  StreamPlan plan{.whole = {}, .elements = {"snapshots"}};
  if (log) plan.elements.insert("snapshot-log");
  COMMITLAB_RETURN_IF_ERROR(StreamObject(file, plan, "Cannot parse metadata from a non-object", member, element));
  // TableMetadata.validateRefs and the current snapshot.
  for (const auto& [name, id] : meta->refs)
    if (ids.count(id) == 0)
      return Bad(file, 1, fmt::format("Snapshot for reference {} does not exist in the existing snapshots list", name));
  auto main = meta->refs.find("main");
  if (meta->current_snapshot_id != -1 && main != meta->refs.end() && main->second != meta->current_snapshot_id)
    return Bad(file, 1,
               fmt::format("Current snapshot ID does not match main branch ({} != {})", meta->current_snapshot_id,
                           main->second));
  if (meta->current_snapshot_id == -1 && main != meta->refs.end())
    return Bad(file, 1, fmt::format("Current snapshot is not set, but main branch exists: {}", main->second));
  if (meta->current_snapshot_id >= 0 && ids.count(meta->current_snapshot_id) == 0)
    return Bad(file, 1, "Invalid table metadata: Cannot find current version");
  return Status::OK();
}

}  // namespace commitlab::sim::import::internal
