#include "commitlab/catalogs/rest_tables.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>
#include <variant>
#include <vector>

#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"
#include "commitlab/core/iceberg/metadata_json.h"
#include "commitlab/core/model.h"

namespace commitlab::catalogs {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr size_t kMaxFileBytes = size_t{256} << 20;

// Names become folders: letters, digits, '_' and '-' only, so no request reaches outside the
// warehouse.
bool ValidName(std::string_view s) {
  return !s.empty() && s.size() <= 128 && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

RestReply NoSuchTable(const std::string& ns, const std::string& table) {
  return RestError(404, "NoSuchTableException", fmt::format("Table does not exist: {}.{}", ns, table));
}

RestReply CommitFailed(std::string_view message) { return RestError(409, "CommitFailedException", message); }
RestReply BadRequest(std::string_view message) { return RestError(400, "BadRequestException", message); }

constexpr int kMaxDepth = 64;

// An object, nested at most kMaxDepth deep (what is echoed back or re-encoded must not recurse
// without bound).
std::optional<json> ParseBody(std::string_view body) {
  bool too_deep = false;
  json j = json::parse(
      body,
      [&too_deep](int depth, json::parse_event_t, json&) {
        if (depth > kMaxDepth) too_deep = true;
        return !too_deep;
      },
      /*allow_exceptions=*/false);
  if (too_deep || j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

// Text for a message: invalid UTF-8 replaced, long values cut.
std::string Echo(const json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 200 ? s.substr(0, 200) + "..." : s;
}

std::string FormatId(const json& v) { return v.is_null() ? "null" : v.dump(); }

// The reply to the first requirement that fails against `now` (UpdateRequirement.validate: 409),
// or 400 for one this server does not know; nullopt when all hold.
std::optional<RestReply> CheckRequirements(const json& requirements, const std::string& uuid,
                                           const iceberg::TableMetadata& now) {
  const json current = now.current_snapshot_id ? json(*now.current_snapshot_id) : json(nullptr);
  for (const json& r : requirements) {
    const std::string type = r.is_object() && r.contains("type") && r["type"].is_string() ? r["type"] : "";
    if (type == "assert-table-uuid") {
      if (!r.contains("uuid") || !r["uuid"].is_string()) return BadRequest("assert-table-uuid needs a uuid");
      if (r["uuid"] != uuid)
        return CommitFailed(
            fmt::format("Requirement failed: UUID does not match: expected {} != {}", Echo(r["uuid"]), uuid));
    } else if (type == "assert-ref-snapshot-id" || type == "assert-current-snapshot-id") {
      if (type == "assert-ref-snapshot-id" && (!r.contains("ref") || r["ref"] != "main"))
        return BadRequest("assert-ref-snapshot-id: this catalog has the one branch main");
      if (!r.contains("snapshot-id") || !(r["snapshot-id"].is_null() || r["snapshot-id"].is_number_integer()))
        return BadRequest(fmt::format("{} needs a snapshot-id (an integer or null)", type));
      const json& want = r["snapshot-id"];
      if (want == current) continue;
      if (want.is_null()) return CommitFailed("Requirement failed: branch main was created concurrently");
      if (current.is_null())
        return CommitFailed(fmt::format("Requirement failed: branch or tag main is missing, expected {}", want.dump()));
      return CommitFailed(fmt::format("Requirement failed: branch main has changed: expected id {} != {}",
                                      FormatId(want), FormatId(current)));
    } else if (type == "assert-current-schema-id") {
      if (!r.contains("current-schema-id") || !r["current-schema-id"].is_number_integer())
        return BadRequest("assert-current-schema-id needs a current-schema-id");
      if (r["current-schema-id"].get<int64_t>() != now.current_schema_id)
        return CommitFailed(fmt::format("Requirement failed: current schema changed: expected id {} != {}",
                                        r["current-schema-id"].get<int64_t>(), now.current_schema_id));
    } else {
      return BadRequest(fmt::format("unsupported requirement type {}", type.empty() ? Echo(r) : Echo(type)));
    }
  }
  return std::nullopt;
}

// The updates applied to `now` (TableMetadata.Builder): the next version, or the reply that
// refuses them.
std::variant<iceberg::TableMetadata, RestReply> ApplyUpdates(const iceberg::TableMetadata& now, const json& updates,
                                                             std::string location) {
  iceberg::TableMetadata next = now;
  next.version = now.version + 1;
  next.location = std::move(location);
  next.last_updated_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  next.metadata_log.Append(now.location);
  for (size_t i = 0; i < updates.size(); ++i) {
    const json& u = updates[i];
    const std::string action = u.is_object() && u.contains("action") && u["action"].is_string() ? u["action"] : "";
    if (action == "add-snapshot") {
      if (!u.contains("snapshot") || !u["snapshot"].is_object()) return BadRequest("add-snapshot needs a snapshot");
      Result<iceberg::SnapshotRef> s =
          iceberg::DecodeSnapshot(u["snapshot"].dump(), next, fmt::format("updates[{}].snapshot", i));
      if (!s.ok()) return BadRequest(s.status().message());
      if (next.FindSnapshot((*s)->snapshot_id) != nullptr)
        return BadRequest(fmt::format("Snapshot already exists for id: {}", (*s)->snapshot_id));
      // TableMetadata.Builder.addSnapshot: a stale sequence number is retryable (409).
      if ((*s)->sequence_number <= next.last_sequence_number)
        return CommitFailed(
            fmt::format("Cannot add snapshot with sequence number {} older than last sequence number {}",
                        (*s)->sequence_number, next.last_sequence_number));
      next.last_sequence_number = (*s)->sequence_number;
      next.snapshots.push_back(*s);
    } else if (action == "set-snapshot-ref") {
      if (!u.contains("ref-name") || u["ref-name"] != "main" || !u.contains("snapshot-id") ||
          !u["snapshot-id"].is_number_integer())
        return BadRequest("set-snapshot-ref needs ref-name main and a snapshot-id");
      const int64_t id = u["snapshot-id"];
      if (next.FindSnapshot(id) == nullptr)
        return BadRequest(fmt::format("Cannot set main to unknown snapshot: {}", id));
      next.current_snapshot_id = id;
    } else if (action == "set-current-schema") {
      if (!u.contains("schema-id") || !u["schema-id"].is_number_integer() || u["schema-id"].get<int64_t>() < 0 ||
          u["schema-id"].get<int64_t>() > INT32_MAX)
        return BadRequest("set-current-schema needs a schema-id in 0..2147483647");
      next.current_schema_id = u["schema-id"].get<int32_t>();
    } else if (action == "remove-snapshots") {
      if (!u.contains("snapshot-ids") || !u["snapshot-ids"].is_array())
        return BadRequest("remove-snapshots needs snapshot-ids");
      std::set<int64_t> gone;
      for (const json& id : u["snapshot-ids"])
        if (id.is_number_integer()) gone.insert(id.get<int64_t>());
      if (next.current_snapshot_id && gone.count(*next.current_snapshot_id) != 0)
        return BadRequest("Cannot remove the current snapshot of main");
      next.snapshots.erase_if([&](const iceberg::SnapshotRef& s) { return gone.count(s->snapshot_id) != 0; });
    } else {
      return BadRequest(fmt::format("unsupported update action {}", action.empty() ? Echo(u) : Echo(action)));
    }
  }
  return next;
}

}  // namespace

RestReply RestError(int status, std::string_view type, std::string_view message) {
  json body = {{"error", {{"message", message}, {"type", type}, {"code", status}}}};
  // A message may quote what a client sent, which need not be UTF-8.
  return {status, body.dump(-1, ' ', false, json::error_handler_t::replace)};
}

Result<std::unique_ptr<RestTables>> RestTables::Open(std::string warehouse, uint64_t seed) {
  std::error_code ec;
  fs::create_directories(warehouse, ec);
  if (ec || !fs::is_directory(warehouse, ec))
    return Status::InvalidArgument(
        fmt::format("--warehouse {}: cannot create the folder: {}", warehouse, ec ? ec.message() : "not a directory"));
  return std::unique_ptr<RestTables>(new RestTables(std::move(warehouse), seed));
}

std::string RestTables::TableDir(const std::string& ns, const std::string& table) const {
  return fmt::format("{}/{}/{}", warehouse_, ns, table);
}

Result<const RestTables::Table*> RestTables::Find(const std::string& ns, const std::string& table) {
  const std::string key = ns + "/" + table;
  if (auto it = tables_.find(key); it != tables_.end()) return &it->second;
  const std::string dir = TableDir(ns, table);
  Result<std::string> pointer = ReadRegularFile(dir + "/pointer.json", kMaxFileBytes);
  if (!pointer.ok())
    return pointer.status().code() == Code::kNotFound ? Result<const Table*>(nullptr) : pointer.status();
  const std::optional<json> p = ParseBody(*pointer);
  if (!p || !p->contains("table-uuid") || !p->contains("metadata-location") || !(*p)["table-uuid"].is_string() ||
      !(*p)["metadata-location"].is_string())
    return Status::Corruption(fmt::format("{}/pointer.json: not a table pointer", dir));
  const std::string location = (*p)["metadata-location"];
  Result<std::string> text = ReadRegularFile(dir + "/" + location, kMaxFileBytes);
  if (!text.ok()) return text.status();
  Result<iceberg::MetadataRef> m = iceberg::DecodeMetadata(*text, dir + "/" + location);
  if (!m.ok()) return m.status();
  Table& t = tables_[key];
  t.uuid = (*p)["table-uuid"];
  t.metadata = *m;
  return &t;
}

Status RestTables::Persist(const std::string& dir, const Table& t) {
  std::error_code ec;
  fs::create_directories(dir + "/metadata", ec);
  if (ec) return Status::IOError(fmt::format("cannot create {}/metadata: {}", dir, ec.message()));
  COMMITLAB_RETURN_IF_ERROR(
      WriteFileAtomically(dir + "/" + t.metadata->location, iceberg::EncodeMetadata(*t.metadata)));
  const json pointer = {{"table-uuid", t.uuid}, {"metadata-location", t.metadata->location}};
  return WriteFileAtomically(dir + "/pointer.json", pointer.dump());
}

RestReply RestTables::LoadResult(const Table& t) {
  json head = {{"metadata-location", t.metadata->location}, {"table-uuid", t.uuid}};
  std::string body = head.dump();
  body.pop_back();  // the metadata document goes in as it is written to the file
  body += ",\"metadata\":" + iceberg::EncodeMetadata(*t.metadata) + "}";
  return {200, std::move(body)};
}

RestReply RestTables::Create(const std::string& ns, std::string_view body) {
  const std::optional<json> b = ParseBody(body);
  if (!b || !b->contains("name") || !(*b)["name"].is_string()) return BadRequest("create table needs a name");
  const std::string name = (*b)["name"];
  if (!ValidName(ns) || !ValidName(name))
    return BadRequest("namespace and table names are letters, digits, '_' and '-'");
  MutexLock l(&mu_);
  Result<const Table*> existing = Find(ns, name);
  if (!existing.ok()) return RestError(500, "ServiceFailureException", existing.status().message());
  if (*existing != nullptr)
    return RestError(409, "AlreadyExistsException", fmt::format("Table already exists: {}.{}", ns, name));
  Table t;
  t.uuid = RandomUuid(rng_);
  t.metadata =
      std::make_shared<const iceberg::TableMetadata>(iceberg::NewTableMetadata(ns + "." + name, 0, RandomUuid(rng_)));
  if (Status st = Persist(TableDir(ns, name), t); !st.ok())
    return RestError(500, "ServiceFailureException", st.message());
  const Table& stored = tables_[ns + "/" + name] = std::move(t);
  return LoadResult(stored);
}

RestReply RestTables::Load(const std::string& ns, const std::string& table) {
  if (!ValidName(ns) || !ValidName(table)) return NoSuchTable(ns, table);
  MutexLock l(&mu_);
  Result<const Table*> t = Find(ns, table);
  if (!t.ok()) return RestError(500, "ServiceFailureException", t.status().message());
  if (*t == nullptr) return NoSuchTable(ns, table);
  return LoadResult(**t);
}

RestReply RestTables::Commit(const std::string& ns, const std::string& table, std::string_view body) {
  if (!ValidName(ns) || !ValidName(table)) return NoSuchTable(ns, table);
  const std::optional<json> b = ParseBody(body);
  if (!b || !b->contains("requirements") || !b->contains("updates") || !(*b)["requirements"].is_array() ||
      !(*b)["updates"].is_array())
    return BadRequest("a commit is an object with the arrays requirements and updates");
  MutexLock l(&mu_);
  Result<const Table*> found = Find(ns, table);
  if (!found.ok()) return RestError(500, "ServiceFailureException", found.status().message());
  if (*found == nullptr) return NoSuchTable(ns, table);
  const Table& now = **found;
  if (std::optional<RestReply> refused = CheckRequirements((*b)["requirements"], now.uuid, *now.metadata))
    return std::move(*refused);
  const int64_t version = now.metadata->version + 1;
  auto applied = ApplyUpdates(*now.metadata, (*b)["updates"], iceberg::MetadataFilePath(version, RandomUuid(rng_)));
  if (RestReply* refused = std::get_if<RestReply>(&applied)) return std::move(*refused);
  Table next{now.uuid, std::make_shared<const iceberg::TableMetadata>(std::move(std::get<0>(applied)))};
  // 500 leaves the state unknown to the client, as the specification says. The pointer may or may
  // not have been replaced (a failed fsync after the rename): the table is read again from disk.
  if (Status st = Persist(TableDir(ns, table), next); !st.ok()) {
    tables_.erase(ns + "/" + table);
    return RestError(500, "ServiceFailureException", st.message());
  }
  const Table& stored = tables_[ns + "/" + table] = std::move(next);
  return LoadResult(stored);
}

}  // namespace commitlab::catalogs
