#include "commitlab/core/iceberg/metadata_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json_parse.h"
#include "json_write.h"
#include "metadata_json_reader.h"

// Table metadata as TableMetadataParser writes and reads it (apache/iceberg core,
// TableMetadataParser.toJson / fromJson): every field of the format, in its order, and the same
// checks on reading, with upstream's messages. Snapshots are snapshot_json.cc's.
namespace commitlab::iceberg {
namespace {

using internal::json;
using internal::ordered_json;
using internal::Reader;

// TableMetadata.SUPPORTED_TABLE_FORMAT_VERSION is 4 upstream; this reads 1 to 3 and writes a
// table in the version it was read in (2 for a new one).
constexpr int32_t kMaxFormatVersion = 3;

// A JSON array kept as text, or `fallback` when there is none.
ordered_json ArrayOr(const std::string& text, ordered_json fallback) {
  if (text.empty()) return fallback;
  ordered_json parsed = ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  return parsed.is_discarded() ? fallback : parsed;
}

// The schemas, with the current schema among them: a table created without schemas (the
// engine's own) has one schema without fields per id the engine used.
ordered_json SchemasJson(const TableMetadata& m) {
  ordered_json schemas = ArrayOr(m.Fields().schemas, ordered_json::array());
  std::set<int64_t> ids;
  for (const ordered_json& s : schemas)
    if (s.is_object() && s.contains("schema-id") && s["schema-id"].is_number_integer())
      ids.insert(s["schema-id"].get<int64_t>());
  for (int32_t id = m.Fields().schemas.empty() ? 0 : m.current_schema_id; id <= m.current_schema_id; ++id)
    if (ids.count(id) == 0)
      schemas.push_back({{"type", "struct"}, {"schema-id", id}, {"fields", ordered_json::array()}});
  return schemas;
}

// The snapshot log: main's ancestors that are retained, oldest first (TableMetadata.snapshotLog
// for a table whose main only ever moved forward, which is every table this engine writes).
ordered_json SnapshotLogJson(const TableMetadata& m) {
  std::map<int64_t, const Snapshot*> by_id;  // not FindSnapshot: a walk of n snapshots would cost n x n
  for (const SnapshotRef& s : m.snapshots) by_id.insert_or_assign(s->snapshot_id, s.get());  // newest wins
  const auto find = [&by_id](std::optional<int64_t> id) -> const Snapshot* {
    auto it = id ? by_id.find(*id) : by_id.end();
    return it != by_id.end() ? it->second : nullptr;
  };
  std::vector<const Snapshot*> chain;
  for (const Snapshot* s = find(m.current_snapshot_id); s != nullptr && chain.size() <= by_id.size();
       s = find(s->parent_id))
    chain.push_back(s);
  ordered_json out = ordered_json::array();
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    out.push_back({{"timestamp-ms", (*it)->timestamp_ms}, {"snapshot-id", (*it)->snapshot_id}});
  return out;
}

ordered_json RefsJson(const TableMetadata& m) {
  ordered_json refs = ordered_json::object();
  if (m.current_snapshot_id) refs["main"] = {{"snapshot-id", *m.current_snapshot_id}, {"type", "branch"}};
  const ordered_json other = ArrayOr(m.Fields().other_refs, ordered_json::object());
  for (const auto& [name, ref] : other.items())
    if (name != "main") refs[name] = ref;
  return refs;
}

// The element of `array` whose `key` is `id`, or null.
ordered_json ElementWithId(const ordered_json& array, std::string_view key, int64_t id) {
  for (const ordered_json& e : array)
    if (e.is_object() && e.contains(key) && e[std::string(key)] == id) return e;
  return nullptr;
}

// The version N of a metadata file named NNNNN-<uuid>.metadata.json or vN.metadata.json; 0 otherwise.
int64_t VersionOf(std::string_view location) {
  std::string_view name = location.substr(location.rfind('/') + 1);
  if (name.starts_with('v')) name.remove_prefix(1);
  int64_t version = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), version);
  return ec == std::errc() && end != name.data() && (*end == '-' || *end == '.') ? version : 0;
}

}  // namespace

std::string EncodeMetadata(const TableMetadata& m, SnapshotTexts* texts) {
  const TableFields& f = m.Fields();
  const int32_t v = f.format_version;
  const ordered_json extra = ArrayOr(f.extra, ordered_json::object());
  ordered_json out = {{"format-version", v}, {"table-uuid", f.uuid}, {"location", f.location}};
  if (v > 1) out["last-sequence-number"] = m.last_sequence_number;
  out["last-updated-ms"] = m.last_updated_ms;
  out["last-column-id"] = f.last_column_id;
  const ordered_json schemas = SchemasJson(m);
  if (v == 1) out["schema"] = ElementWithId(schemas, "schema-id", m.current_schema_id);
  out["current-schema-id"] = m.current_schema_id;
  out["schemas"] = schemas;
  const ordered_json specs =
      ArrayOr(f.partition_specs, ordered_json::array({{{"spec-id", 0}, {"fields", ordered_json::array()}}}));
  if (v == 1) {
    const ordered_json spec = ElementWithId(specs, "spec-id", f.default_spec_id);
    out["partition-spec"] = spec.is_object() && spec.contains("fields") ? spec["fields"] : ordered_json::array();
  }
  out["default-spec-id"] = f.default_spec_id;
  out["partition-specs"] = specs;
  out["last-partition-id"] = f.last_partition_id;
  out["default-sort-order-id"] = f.default_sort_order_id;
  out["sort-orders"] =
      ArrayOr(f.sort_orders, ordered_json::array({{{"order-id", 0}, {"fields", ordered_json::array()}}}));
  out["properties"] = f.properties;
  // Format v3 writes null for no current snapshot, v1 and v2 -1 (MIN_NULL_CURRENT_SNAPSHOT_VERSION).
  out["current-snapshot-id"] = m.current_snapshot_id ? ordered_json(*m.current_snapshot_id)
                               : v >= 3              ? ordered_json(nullptr)
                                                     : ordered_json(-1);
  if (v >= 3) out["next-row-id"] = extra.value("next-row-id", ordered_json(0));
  if (extra.contains("encryption-keys")) out["encryption-keys"] = extra["encryption-keys"];
  out["refs"] = RefsJson(m);
  // The snapshots go in as text (SnapshotTexts), between the members before them and after them.
  ordered_json after = ordered_json::object();
  after["statistics"] = extra.value("statistics", ordered_json::array());
  after["partition-statistics"] = extra.value("partition-statistics", ordered_json::array());
  after["snapshot-log"] = SnapshotLogJson(m);
  ordered_json log = ordered_json::array();
  for (const MetadataLog::Entry& e : m.metadata_log.TimedEntries())
    log.push_back({{"timestamp-ms", e.timestamp_ms}, {"metadata-file", internal::Absolute(f.location, e.location)}});
  after["metadata-log"] = std::move(log);
  SnapshotTexts fresh;
  const std::string snapshots = (texts != nullptr ? texts : &fresh)->Encode(m);
  std::string text = json_io::Compact(out);
  text.pop_back();  // the closing '}' of the members before
  const std::string rest = json_io::Compact(after);
  text.reserve(text.size() + snapshots.size() + rest.size() + 16);
  text += ",\"snapshots\":";
  text += snapshots;
  text += ',';
  text.append(rest, 1);  // without its opening '{'
  return text;
}

namespace {

// TableMetadataParser.fromJson's schema, partition spec and sort order fields into `f` (and the
// current schema id into `m`).
void ReadLayout(Reader& r, const json& j, int32_t v, TableMetadata* m, TableFields* f) {
  if (const auto it = j.find("schemas"); it != j.end()) {
    if (!it->is_array()) return r.Fail("", "Cannot parse schemas from non-array");
    m->current_schema_id = r.GetInt(j, "", "current-schema-id");
    bool found = false;
    for (const json& s : *it) {
      if (!s.is_object() || s.value("type", "") != "struct") return r.Fail("", "Cannot parse schema: not a struct");
      found = found || r.GetIntOrNull(s, "", "schema-id").value_or(0) == m->current_schema_id;
    }
    if (!found)
      return r.Fail("", fmt::format("Cannot find schema with current-schema-id={} from schemas", m->current_schema_id));
    f->schemas = it->dump();
  } else if (v != 1) {
    return r.Fail("", fmt::format("schemas must exist in format v{}", v));
  } else {
    const json* schema = j.contains("schema") && j["schema"].is_object() ? &j["schema"] : nullptr;
    if (schema == nullptr) return r.Fail("", "Cannot parse missing field: schema");
    m->current_schema_id = r.GetIntOrNull(*schema, "schema", "schema-id").value_or(0);
    json with_id = *schema;
    with_id["schema-id"] = m->current_schema_id;
    f->schemas = json::array({with_id}).dump();
  }
  if (const auto it = j.find("partition-specs"); it != j.end()) {
    if (!it->is_array()) return r.Fail("", "Cannot parse partition specs from non-array");
    f->default_spec_id = r.GetInt(j, "", "default-spec-id");
    f->partition_specs = it->dump();
  } else if (v != 1) {
    return r.Fail("", fmt::format("partition-specs must exist in format v{}", v));
  } else {
    if (!j.contains("partition-spec")) return r.Fail("", "Cannot parse missing field: partition-spec");
    f->partition_specs = json::array({{{"spec-id", 0}, {"fields", j["partition-spec"]}}}).dump();
  }
  const std::optional<int32_t> last_partition = r.GetIntOrNull(j, "", "last-partition-id");
  if (!last_partition && v != 1) return r.Fail("", fmt::format("last-partition-id must exist in format v{}", v));
  // Format v1 without it: the highest partition field id of the specs, or the unpartitioned 999.
  int64_t highest = 999;
  for (const json& spec : json::parse(f->partition_specs, nullptr, false))
    if (spec.is_object() && spec.contains("fields") && spec["fields"].is_array())
      for (const json& field : spec["fields"])
        if (field.is_object() && field.contains("field-id") && field["field-id"].is_number_integer())
          highest = std::max<int64_t>(highest, field["field-id"].get<int64_t>());
  f->last_partition_id = last_partition.value_or(static_cast<int32_t>(std::min<int64_t>(highest, INT32_MAX)));
  if (const auto it = j.find("sort-orders"); it != j.end()) {
    f->default_sort_order_id = r.GetInt(j, "", "default-sort-order-id");
    f->sort_orders = it->dump();
  } else if (v != 1) {
    return r.Fail("", fmt::format("sort-orders must exist in format v{}", v));
  } else {  // SortOrder.unsorted()
    f->default_sort_order_id = 0;
    f->sort_orders = json::array({{{"order-id", 0}, {"fields", json::array()}}}).dump();
  }
}

// properties, refs and the fields kept as read.
void ReadOthers(Reader& r, const json& j, TableFields* f) {
  if (const auto it = j.find("properties"); it != j.end()) {
    if (!it->is_object()) return r.Fail("", "Cannot parse string map from non-object value: properties");
    for (const auto& [k, value] : it->items()) f->properties[k] = r.GetString(*it, "properties", k);
  }
  if (const auto it = j.find("refs"); it != j.end()) {
    if (!it->is_object()) return r.Fail("", "Cannot parse refs from non-object");
    json other = json::object();
    for (const auto& [name, ref] : it->items()) {
      r.GetLong(ref, "refs." + name, "snapshot-id");
      if (name != "main") other[name] = ref;
    }
    if (!other.empty()) f->other_refs = other.dump();
  }
  json extra = json::object();
  // An empty list is what the writer puts when there is none: not kept.
  for (const char* key : {"next-row-id", "encryption-keys", "statistics", "partition-statistics"})
    if (j.contains(key) && !(j[key].is_array() && j[key].empty())) extra[key] = j[key];
  if (!extra.empty()) f->extra = extra.dump();
}

// The snapshots of `previous` by id, when it is an earlier version of the table `m` reads.
std::map<int64_t, SnapshotRef> Known(const TableMetadata* previous, const TableMetadata& m) {
  std::map<int64_t, SnapshotRef> out;
  if (previous == nullptr || previous->Fields().uuid.empty() || previous->Fields().uuid != m.Fields().uuid) return out;
  for (const SnapshotRef& s : previous->snapshots) out.emplace(s->snapshot_id, s);
  return out;
}

// The snapshot read before that the element at `i` stands in for, when it is a stand-in.
const SnapshotRef* Kept(const std::map<size_t, SnapshotRef>* reused, const json& element, size_t i) {
  if (reused == nullptr || !element.is_number()) return nullptr;
  const auto it = reused->find(i);
  return it != reused->end() ? &it->second : nullptr;
}

// The snapshots, the logs, and the checks across them.
void ReadHistory(Reader& r, const json& j, TableMetadata* m, const TableMetadata* previous,
                 const std::map<size_t, SnapshotRef>* reused) {
  const std::string_view location = m->Fields().location;
  const std::map<int64_t, SnapshotRef> known = Known(previous, *m);
  std::set<int64_t> ids;  // read so far (FindSnapshot for each would cost snapshots x snapshots)
  if (const auto it = j.find("snapshots"); it != j.end()) {
    if (!it->is_array()) return r.Fail("", "Cannot parse snapshots from non-array");
    for (size_t i = 0; i < it->size() && r.ok(); ++i) {
      const json& s = (*it)[i];
      const auto seen = s.is_object() && s.contains("snapshot-id") && s["snapshot-id"].is_number_integer()
                            ? known.find(s["snapshot-id"].get<int64_t>())
                            : known.end();
      const SnapshotRef* kept = Kept(reused, s, i);
      SnapshotRef built = kept != nullptr ? *kept
                          : seen != known.end()
                              ? seen->second
                              : internal::ReadSnapshot(r, s, internal::At("", "snapshots", i), *m, location);
      if (built == nullptr) return;
      if (!ids.insert(built->snapshot_id).second)
        return r.Fail(internal::At("", "snapshots", i), fmt::format("snapshot {} appears twice", built->snapshot_id));
      m->snapshots.push_back(std::move(built));
    }
  }
  if (const auto it = j.find("snapshot-log"); it != j.end())  // derived again when written
    for (const json& e : *it) {
      r.GetLong(e, "snapshot-log", "timestamp-ms");
      r.GetLong(e, "snapshot-log", "snapshot-id");
    }
  std::vector<MetadataLog::Entry> log;
  if (const auto it = j.find("metadata-log"); it != j.end())
    for (const json& e : *it) {
      const int64_t ms = r.GetLong(e, "metadata-log", "timestamp-ms");
      log.push_back({internal::Relative(location, r.GetString(e, "metadata-log", "metadata-file")), ms});
    }
  m->metadata_log = MetadataLog(log);
  if (r.ok() && m->current_snapshot_id && m->CurrentSnapshot() == nullptr)
    r.Fail("", fmt::format("current-snapshot-id {} names no snapshot", *m->current_snapshot_id));
}

}  // namespace

namespace internal {

Result<MetadataRef> ReadDocument(const json& j, std::string_view where, const MetadataFileName& file,
                                 const TableMetadata* previous, const std::map<size_t, SnapshotRef>* reused) {
  if (!j.is_object()) return Status::Corruption(fmt::format("{}: expected a JSON object", where));
  Reader r;
  auto m = std::make_shared<TableMetadata>();
  auto f = std::make_shared<TableFields>();
  f->format_version = r.GetInt(j, "", "format-version");
  if (r.ok() && f->format_version > kMaxFormatVersion)
    return Status::Corruption(fmt::format("{}: Cannot read unsupported version {}", where, f->format_version));
  if (r.ok() && f->format_version < 1)
    return Status::Corruption(fmt::format("{}: Cannot read format version {}", where, f->format_version));
  f->uuid = r.GetStringOrNull(j, "", "table-uuid").value_or("");
  f->location = r.GetString(j, "", "location");
  m->last_sequence_number = f->format_version > 1 ? r.GetLong(j, "", "last-sequence-number") : 0;
  f->last_column_id = r.GetInt(j, "", "last-column-id");
  ReadLayout(r, j, f->format_version, m.get(), f.get());
  ReadOthers(r, j, f.get());
  const std::optional<int64_t> current = r.GetLongOrNull(j, "", "current-snapshot-id");
  if (current && *current != -1) m->current_snapshot_id = *current;
  if (f->format_version >= 3) r.GetLong(j, "", "next-row-id");
  m->last_updated_ms = r.GetLong(j, "", "last-updated-ms");
  if (!r.ok()) return r.Error(where);
  m->fields = std::move(f);
  m->table_name = file.table_name;
  m->location = file.location;
  m->version = VersionOf(file.location);
  ReadHistory(r, j, m.get(), previous, reused);
  if (!r.ok()) return r.Error(where);
  return MetadataRef(std::move(m));
}

}  // namespace internal

Result<MetadataRef> DecodeMetadata(std::string_view text, std::string_view where, const MetadataFileName& file,
                                   const TableMetadata* previous) {
  COMMITLAB_ASSIGN_OR_RETURN(json doc, internal::ParseDocument(text, where));
  return internal::ReadDocument(doc, where, file, previous);
}

}  // namespace commitlab::iceberg
