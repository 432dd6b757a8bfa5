#include "rest_commit.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "commitlab/core/iceberg/metadata_json.h"

namespace commitlab::catalogs::internal {
namespace {

using nlohmann::json;

// Text for a message: invalid UTF-8 replaced, long values cut.
std::string Echo(const json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 200 ? s.substr(0, 200) + "..." : s;
}

std::string IdText(const std::optional<int64_t>& id) { return id ? std::to_string(*id) : "null"; }

// The snapshot a ref names now: main is the current snapshot, others are kept as read.
std::optional<int64_t> RefSnapshot(const iceberg::TableMetadata& m, const std::string& ref) {
  if (ref == "main") return m.current_snapshot_id;
  const json refs = ParsedOr(m.Fields().other_refs, json::object());
  if (refs.contains(ref)) return IntOf(refs[ref], "snapshot-id");
  return std::nullopt;
}

// UpdateRequirement.AssertRefSnapshotID.validate.
std::optional<RestReply> CheckRef(const json& r, const iceberg::TableMetadata& now) {
  if (!r.contains("ref") || !r["ref"].is_string()) return BadRequest("assert-ref-snapshot-id needs a ref");
  if (!r.contains("snapshot-id") || !(r["snapshot-id"].is_null() || IntOf(r, "snapshot-id")))
    return BadRequest("assert-ref-snapshot-id needs a snapshot-id (an integer or null)");
  const std::string ref = r["ref"];
  const std::optional<int64_t> want = IntOf(r, "snapshot-id");
  const std::optional<int64_t> have = RefSnapshot(now, ref);
  if (want == have) return std::nullopt;
  const json refs = ParsedOr(now.Fields().other_refs, json::object());
  const std::string type = refs.contains(ref) ? refs[ref].value("type", "branch") : "branch";
  if (!want) return CommitFailed(fmt::format("Requirement failed: {} {} was created concurrently", type, ref));
  if (!have)
    return CommitFailed(fmt::format("Requirement failed: branch or tag {} is missing, expected {}", ref, *want));
  return CommitFailed(
      fmt::format("Requirement failed: {} {} has changed: expected id {} != {}", type, ref, *want, IdText(have)));
}

// The requirements that compare one id: {type, field, what the message calls it, the table's value}.
struct IdRequirement {
  std::string_view type, field, what;
  std::function<int64_t(const iceberg::TableMetadata&)> value;
};
const std::vector<IdRequirement>& IdRequirements() {
  static const auto* const kAll = new std::vector<IdRequirement>{
      {"assert-current-schema-id", "current-schema-id", "current schema changed",
       [](const iceberg::TableMetadata& m) { return m.current_schema_id; }},
      {"assert-last-assigned-field-id", "last-assigned-field-id", "last assigned field id changed",
       [](const iceberg::TableMetadata& m) { return m.Fields().last_column_id; }},
      {"assert-last-assigned-partition-id", "last-assigned-partition-id", "last assigned partition id changed",
       [](const iceberg::TableMetadata& m) { return m.Fields().last_partition_id; }},
      {"assert-default-spec-id", "default-spec-id", "default partition spec changed",
       [](const iceberg::TableMetadata& m) { return m.Fields().default_spec_id; }},
      {"assert-default-sort-order-id", "default-sort-order-id", "default sort order changed",
       [](const iceberg::TableMetadata& m) { return m.Fields().default_sort_order_id; }},
  };
  return *kAll;
}

std::optional<RestReply> CheckOne(const json& r, const iceberg::TableMetadata* now) {
  const std::string type = r.is_object() && r.contains("type") && r["type"].is_string() ? r["type"] : "";
  if (type == "assert-create") {
    if (now != nullptr) return CommitFailed("Requirement failed: table already exists");
    return std::nullopt;
  }
  if (now == nullptr) return std::nullopt;  // the table's absence answers 404 first
  if (type == "assert-table-uuid") {
    if (!r.contains("uuid") || !r["uuid"].is_string()) return BadRequest("assert-table-uuid needs a uuid");
    if (r["uuid"] != now->Fields().uuid)
      return CommitFailed(fmt::format("Requirement failed: UUID does not match: expected {} != {}", now->Fields().uuid,
                                      Echo(r["uuid"])));
    return std::nullopt;
  }
  if (type == "assert-ref-snapshot-id") return CheckRef(r, *now);
  if (type == "assert-current-snapshot-id") {
    // The lecture 04 事务与并发控制's requirement (section 1.2): not among the specification's types,
    // checked as assert-ref-snapshot-id on main.
    json as_ref = r;
    as_ref["ref"] = "main";
    return CheckRef(as_ref, *now);
  }
  for (const IdRequirement& req : IdRequirements()) {
    if (type != req.type) continue;
    const std::optional<int64_t> want = IntOf(r, req.field);
    if (!want) return BadRequest(fmt::format("{} needs {}", type, req.field));
    const int64_t have = req.value(*now);
    if (*want != have)
      return CommitFailed(fmt::format("Requirement failed: {}: expected id {} != {}", req.what, *want, have));
    return std::nullopt;
  }
  return BadRequest(fmt::format("unsupported requirement type {}", type.empty() ? Echo(r) : Echo(type)));
}

}  // namespace

nlohmann::json ParsedOr(const std::string& text, nlohmann::json fallback) {
  if (text.empty()) return fallback;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? fallback : j;
}

std::optional<int64_t> IntOf(const nlohmann::json& j, std::string_view key) {
  if (!j.is_object() || !j.contains(key) || !j[std::string(key)].is_number_integer()) return std::nullopt;
  const nlohmann::json& v = j[std::string(key)];
  if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t{INT64_MAX}) return std::nullopt;
  return v.get<int64_t>();
}

RestReply BadRequest(std::string_view message) { return RestError(400, "BadRequestException", message); }
RestReply CommitFailed(std::string_view message) { return RestError(409, "CommitFailedException", message); }

std::optional<RestReply> CheckRequirements(const json& requirements, const iceberg::TableMetadata* now) {
  for (const json& r : requirements)
    if (std::optional<RestReply> refused = CheckOne(r, now)) return refused;
  return std::nullopt;
}

int32_t MaxFieldId(const json& type) {
  int64_t best = 0;
  if (!type.is_object()) return 0;
  auto take = [&best](const json& v) {
    if (v.is_number_integer()) best = std::max(best, std::min<int64_t>(v.get<int64_t>(), INT32_MAX));
  };
  if (type.contains("fields") && type["fields"].is_array())
    for (const json& f : type["fields"]) {
      if (!f.is_object()) continue;
      if (f.contains("id")) take(f["id"]);
      if (f.contains("type")) best = std::max<int64_t>(best, MaxFieldId(f["type"]));
    }
  for (const char* k : {"element-id", "key-id", "value-id"})
    if (type.contains(k)) take(type[k]);
  for (const char* k : {"element", "key", "value"})
    if (type.contains(k)) best = std::max<int64_t>(best, MaxFieldId(type[k]));
  return static_cast<int32_t>(best);
}

int32_t MaxPartitionFieldId(const json& spec) {
  int64_t best = 999;
  if (spec.is_object() && spec.contains("fields") && spec["fields"].is_array())
    for (const json& f : spec["fields"])
      if (std::optional<int64_t> id = IntOf(f, "field-id"))
        best = std::max<int64_t>(best, std::min<int64_t>(*id, INT32_MAX));
  return static_cast<int32_t>(best);
}

}  // namespace commitlab::catalogs::internal
