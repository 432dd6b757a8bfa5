// The updates of a REST table commit applied to the table's current metadata: ApplyUpdates of
// rest_commit.h, one handler per action, as TableMetadata.Builder applies MetadataUpdate.
#include <fmt/format.h>

#include <climits>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "commitlab/core/iceberg/metadata_json.h"
#include "rest_commit.h"

namespace commitlab::catalogs::internal {
namespace {

using nlohmann::json;

std::optional<int32_t> Int32Of(const json& j, std::string_view key) {
  std::optional<int64_t> v = IntOf(j, key);
  if (!v || *v < INT32_MIN || *v > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(*v);
}

// The next version as it is built: the metadata, and its fields parsed once.
struct Builder {
  iceberg::TableMetadata next = {};
  iceberg::TableFields fields = {};
  json schemas = {}, specs = {}, orders = {}, refs = {};
  // Ids the updates added, which -1 names.
  std::optional<int32_t> last_schema = {}, last_spec = {}, last_order = {};
  size_t i = 0;  // the update being applied, for messages
};

using Handler = std::optional<RestReply> (*)(Builder&, const json&);

// The ids of `array`'s elements under `key`.
std::set<int64_t> Ids(const json& array, std::string_view key) {
  std::set<int64_t> out;
  for (const json& e : array)
    if (std::optional<int64_t> id = IntOf(e, key)) out.insert(*id);
  return out;
}

// add-snapshot: TableMetadata.Builder.addSnapshot.
std::optional<RestReply> AddSnapshot(Builder& b, const json& u) {
  if (!u.contains("snapshot") || !u["snapshot"].is_object()) return BadRequest("add-snapshot needs a snapshot");
  const std::string where = fmt::format("updates[{}].snapshot", b.i);
  b.next.fields = std::make_shared<const iceberg::TableFields>(b.fields);
  Result<iceberg::SnapshotRef> s = iceberg::DecodeSnapshot(u["snapshot"].dump(), b.next, where);
  if (!s.ok()) return BadRequest(s.status().message());
  // Snapshot ids are positive (SnapshotIdGeneratorUtil), and a sequence number must leave room for
  // the next one: a writer adds 1 to the table's last.
  if ((*s)->snapshot_id <= 0)
    return BadRequest(fmt::format("{}: field snapshot-id must be positive, not {}", where, (*s)->snapshot_id));
  if ((*s)->sequence_number < 0 || (*s)->sequence_number == INT64_MAX)
    return BadRequest(
        fmt::format("{}: field sequence-number must be 0..9223372036854775806, not {}", where, (*s)->sequence_number));
  if (b.next.FindSnapshot((*s)->snapshot_id) != nullptr)
    return BadRequest(fmt::format("Snapshot already exists for id: {}", (*s)->snapshot_id));
  // A stale sequence number is a lost race (409), which the client retries.
  if (b.fields.format_version > 1 && (*s)->sequence_number <= b.next.last_sequence_number)
    return CommitFailed(fmt::format("Cannot add snapshot with sequence number {} older than last sequence number {}",
                                    (*s)->sequence_number, b.next.last_sequence_number));
  b.next.last_sequence_number = std::max(b.next.last_sequence_number, (*s)->sequence_number);
  b.next.snapshots.push_back(*s);
  return std::nullopt;
}

std::optional<RestReply> SetSnapshotRef(Builder& b, const json& u) {
  const std::optional<int64_t> id = IntOf(u, "snapshot-id");
  if (!u.contains("ref-name") || !u["ref-name"].is_string() || !id)
    return BadRequest("set-snapshot-ref needs a ref-name and a snapshot-id");
  const std::string type = u.value("type", "branch");
  if (type != "branch" && type != "tag") return BadRequest("set-snapshot-ref: type is branch or tag");
  if (b.next.FindSnapshot(*id) == nullptr)
    return BadRequest(fmt::format("Cannot set {} to unknown snapshot: {}", u["ref-name"].get<std::string>(), *id));
  const std::string name = u["ref-name"];
  if (name == "main") {
    if (type != "branch") return BadRequest("main is a branch");
    b.next.current_snapshot_id = *id;
    return std::nullopt;
  }
  json ref = {{"snapshot-id", *id}, {"type", type}};
  for (const char* k : {"max-ref-age-ms", "max-snapshot-age-ms", "min-snapshots-to-keep"})
    if (u.contains(k)) ref[k] = u[k];
  b.refs[name] = std::move(ref);
  return std::nullopt;
}

std::optional<RestReply> RemoveSnapshotRef(Builder& b, const json& u) {
  if (!u.contains("ref-name") || !u["ref-name"].is_string()) return BadRequest("remove-snapshot-ref needs a ref-name");
  if (u["ref-name"] == "main") {
    b.next.current_snapshot_id.reset();
  } else {
    b.refs.erase(u["ref-name"].get<std::string>());
  }
  return std::nullopt;
}

std::optional<RestReply> RemoveSnapshots(Builder& b, const json& u) {
  if (!u.contains("snapshot-ids") || !u["snapshot-ids"].is_array())
    return BadRequest("remove-snapshots needs snapshot-ids");
  std::set<int64_t> gone;
  for (const json& id : u["snapshot-ids"])
    if (id.is_number_integer()) gone.insert(id.get<int64_t>());
  if (b.next.current_snapshot_id && gone.count(*b.next.current_snapshot_id) != 0)
    return BadRequest("Cannot remove the current snapshot of main");
  b.next.snapshots.erase_if([&](const iceberg::SnapshotRef& s) { return gone.count(s->snapshot_id) != 0; });
  return std::nullopt;
}

std::optional<RestReply> AddSchema(Builder& b, const json& u) {
  if (!u.contains("schema") || !u["schema"].is_object() || u["schema"].value("type", "") != "struct")
    return BadRequest("add-schema needs a schema (a struct)");
  json schema = u["schema"];
  const std::set<int64_t> ids = Ids(b.schemas, "schema-id");
  const int32_t id = ids.empty() ? 0 : static_cast<int32_t>(*ids.rbegin() + 1);
  schema["schema-id"] = id;  // TableMetadata.Builder.addSchema assigns the next id
  b.schemas.push_back(schema);
  b.fields.last_column_id =
      std::max({b.fields.last_column_id, MaxFieldId(schema), Int32Of(u, "last-column-id").value_or(0)});
  b.last_schema = id;
  return std::nullopt;
}

std::optional<RestReply> SetCurrentSchema(Builder& b, const json& u) {
  std::optional<int32_t> id = Int32Of(u, "schema-id");
  if (id == -1) id = b.last_schema;
  if (!id) return BadRequest("set-current-schema needs a schema-id (-1: the schema added last)");
  // The engine's own schema ids (a table created without schemas) are taken as they are.
  if (!b.fields.schemas.empty() && Ids(b.schemas, "schema-id").count(*id) == 0)
    return BadRequest(fmt::format("Cannot set current schema to unknown schema: {}", *id));
  b.next.current_schema_id = *id;
  return std::nullopt;
}

std::optional<RestReply> AddSpec(Builder& b, const json& u) {
  if (!u.contains("spec") || !u["spec"].is_object()) return BadRequest("add-spec needs a spec");
  json spec = u["spec"];
  const std::set<int64_t> ids = Ids(b.specs, "spec-id");
  const int32_t id = ids.empty() ? 0 : static_cast<int32_t>(*ids.rbegin() + 1);
  spec["spec-id"] = id;
  if (!spec.contains("fields")) spec["fields"] = json::array();
  b.specs.push_back(spec);
  b.fields.last_partition_id = std::max(b.fields.last_partition_id, MaxPartitionFieldId(spec));
  b.last_spec = id;
  return std::nullopt;
}

std::optional<RestReply> SetDefaultSpec(Builder& b, const json& u) {
  std::optional<int32_t> id = Int32Of(u, "spec-id");
  if (id == -1) id = b.last_spec;
  if (!id || Ids(b.specs, "spec-id").count(*id) == 0)
    return BadRequest("set-default-spec needs the spec-id of a spec of the table (-1: the spec added last)");
  b.fields.default_spec_id = *id;
  return std::nullopt;
}

std::optional<RestReply> AddSortOrder(Builder& b, const json& u) {
  if (!u.contains("sort-order") || !u["sort-order"].is_object()) return BadRequest("add-sort-order needs a sort-order");
  json order = u["sort-order"];
  if (!order.contains("fields")) order["fields"] = json::array();
  const std::set<int64_t> ids = Ids(b.orders, "order-id");
  // The unsorted order is 0; any other takes the next id from 1.
  const int32_t id =
      order["fields"].empty() ? 0 : static_cast<int32_t>(ids.empty() ? 1 : std::max<int64_t>(1, *ids.rbegin() + 1));
  order["order-id"] = id;
  if (ids.count(id) == 0) b.orders.push_back(order);
  b.last_order = id;
  return std::nullopt;
}

std::optional<RestReply> SetDefaultSortOrder(Builder& b, const json& u) {
  std::optional<int32_t> id = Int32Of(u, "sort-order-id");
  if (id == -1) id = b.last_order;
  if (!id || Ids(b.orders, "order-id").count(*id) == 0)
    return BadRequest("set-default-sort-order needs the sort-order-id of an order of the table");
  b.fields.default_sort_order_id = *id;
  return std::nullopt;
}

std::optional<RestReply> SetProperties(Builder& b, const json& u) {
  if (!u.contains("updates") || !u["updates"].is_object()) return BadRequest("set-properties needs updates");
  for (const auto& [k, v] : u["updates"].items()) {
    if (!v.is_string()) return BadRequest(fmt::format("set-properties: the value of {} is not a string", k));
    b.fields.properties[k] = v.get<std::string>();
  }
  return std::nullopt;
}

std::optional<RestReply> RemoveProperties(Builder& b, const json& u) {
  if (!u.contains("removals") || !u["removals"].is_array()) return BadRequest("remove-properties needs removals");
  for (const json& k : u["removals"])
    if (k.is_string()) b.fields.properties.erase(k.get<std::string>());
  return std::nullopt;
}

std::optional<RestReply> SetLocation(Builder& b, const json& u) {
  if (!u.contains("location") || !u["location"].is_string()) return BadRequest("set-location needs a location");
  b.fields.location = u["location"];
  return std::nullopt;
}

std::optional<RestReply> AssignUuid(Builder& b, const json& u) {
  if (!u.contains("uuid") || !u["uuid"].is_string()) return BadRequest("assign-uuid needs a uuid");
  if (u["uuid"] != b.fields.uuid) return BadRequest("Cannot reassign uuid");
  return std::nullopt;
}

std::optional<RestReply> UpgradeFormatVersion(Builder& b, const json& u) {
  const std::optional<int32_t> v = Int32Of(u, "format-version");
  if (!v || *v > 3) return BadRequest("upgrade-format-version: this catalog writes format versions 1 to 3");
  if (*v < b.fields.format_version)
    return BadRequest(fmt::format("Cannot downgrade v{} table to v{}", b.fields.format_version, *v));
  b.fields.format_version = *v;
  return std::nullopt;
}

const std::map<std::string, Handler, std::less<>>& Handlers() {
  static const auto* const kAll = new std::map<std::string, Handler, std::less<>>{
      {"assign-uuid", AssignUuid},
      {"upgrade-format-version", UpgradeFormatVersion},
      {"add-schema", AddSchema},
      {"set-current-schema", SetCurrentSchema},
      {"add-spec", AddSpec},
      {"set-default-spec", SetDefaultSpec},
      {"add-sort-order", AddSortOrder},
      {"set-default-sort-order", SetDefaultSortOrder},
      {"add-snapshot", AddSnapshot},
      {"set-snapshot-ref", SetSnapshotRef},
      {"remove-snapshot-ref", RemoveSnapshotRef},
      {"remove-snapshots", RemoveSnapshots},
      {"set-properties", SetProperties},
      {"remove-properties", RemoveProperties},
      {"set-location", SetLocation},
  };
  return *kAll;
}

}  // namespace

std::variant<iceberg::TableMetadata, RestReply> ApplyUpdates(const iceberg::TableMetadata& now, const json& updates,
                                                             std::string location, int64_t now_ms) {
  Builder b{.next = now, .fields = now.Fields()};
  b.next.version = now.version + 1;
  b.next.location = std::move(location);
  b.next.last_updated_ms = now_ms;
  b.next.metadata_log.Append(now.location, now.last_updated_ms);
  b.schemas = ParsedOr(b.fields.schemas, json::array());
  b.specs = ParsedOr(b.fields.partition_specs, json::array({{{"spec-id", 0}, {"fields", json::array()}}}));
  b.orders = ParsedOr(b.fields.sort_orders, json::array({{{"order-id", 0}, {"fields", json::array()}}}));
  b.refs = ParsedOr(b.fields.other_refs, json::object());
  for (b.i = 0; b.i < updates.size(); ++b.i) {
    const json& u = updates[b.i];
    const std::string action = u.is_object() && u.contains("action") && u["action"].is_string() ? u["action"] : "";
    const auto handler = Handlers().find(action);
    if (handler == Handlers().end())
      return BadRequest(
          fmt::format("unsupported update action {}",
                      action.empty() ? u.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 200) : action));
    if (std::optional<RestReply> refused = handler->second(b, u)) return std::move(*refused);
  }
  if (!b.schemas.empty()) b.fields.schemas = b.schemas.dump();
  b.fields.partition_specs = b.specs.dump();
  b.fields.sort_orders = b.orders.dump();
  b.fields.other_refs = b.refs.empty() ? "" : b.refs.dump();
  b.next.fields = std::make_shared<const iceberg::TableFields>(std::move(b.fields));
  return std::move(b.next);
}

}  // namespace commitlab::catalogs::internal
