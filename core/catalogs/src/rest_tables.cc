#include "commitlab/catalogs/rest_tables.h"

#include <sys/random.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <optional>
#include <utility>
#include <variant>

#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"
#include "commitlab/core/iceberg/metadata_json.h"
#include "rest_commit.h"
#include "rest_names.h"

namespace commitlab::catalogs {
namespace {

// A table version's entity tag: its metadata file's location (a load of it again is 304).
std::string ETagOf(const iceberg::TableMetadata& m) { return "\"" + m.location + "\""; }

namespace fs = std::filesystem;
using internal::BadRequest;
using internal::NoSuchNamespace;
using internal::NoSuchTable;
using internal::ParseBody;
using internal::ValidName;
using nlohmann::json;

constexpr size_t kMaxFileBytes = size_t{256} << 20;

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

RestReply ServiceFailure(std::string_view message) { return RestError(500, "ServiceFailureException", message); }

// The metadata of a new table from a CreateTableRequest, or the reply that refuses it.
std::variant<iceberg::TableFields, RestReply> NewTableFields(const json& b, const std::string& default_location) {
  if (!b.contains("schema") || !b["schema"].is_object() || b["schema"].value("type", "") != "struct")
    return BadRequest("create table needs a schema (a struct)");
  iceberg::TableFields f;
  f.uuid = NewTableUuid();
  f.location = b.contains("location") && b["location"].is_string() && !b["location"].get<std::string>().empty()
                   ? b["location"].get<std::string>()
                   : default_location;
  json schema = b["schema"];
  schema["schema-id"] = 0;  // TableMetadata.newTableMetadata: the first schema is 0
  f.schemas = json::array({schema}).dump();
  f.last_column_id = internal::MaxFieldId(schema);
  json spec = b.contains("partition-spec") && b["partition-spec"].is_object() ? b["partition-spec"] : json::object();
  spec["spec-id"] = 0;
  if (!spec.contains("fields")) spec["fields"] = json::array();
  f.partition_specs = json::array({spec}).dump();
  f.last_partition_id = internal::MaxPartitionFieldId(spec);
  json order = b.contains("write-order") && b["write-order"].is_object() ? b["write-order"] : json::object();
  if (!order.contains("fields") || !order["fields"].is_array()) order["fields"] = json::array();
  order["order-id"] = order["fields"].empty() ? 0 : 1;  // SortOrder.unsorted() is 0
  f.default_sort_order_id = order["order-id"];
  f.sort_orders = json::array({order}).dump();
  if (b.contains("properties") && b["properties"].is_object())
    for (const auto& [k, v] : b["properties"].items()) {
      if (!v.is_string()) return BadRequest(fmt::format("create table: property {} is not a string", k));
      f.properties[k] = v.get<std::string>();
    }
  return f;
}

}  // namespace

RestReply RestError(int status, std::string_view type, std::string_view message) {
  json body = {{"error", {{"message", message}, {"type", type}, {"code", status}}}};
  // A message may quote what a client sent, which need not be UTF-8.
  return {status, body.dump(-1, ' ', false, json::error_handler_t::replace)};
}

std::string NewTableUuid() {
  uint8_t bytes[16];
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    COMMITLAB_CHECK(n > 0, "getrandom failed");
    got += static_cast<size_t>(n);
  }
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3f) | 0x80);  // variant 10
  std::string out;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += fmt::format("{:02x}", bytes[i]);
  }
  return out;
}

Result<std::unique_ptr<RestTables>> RestTables::Open(std::string warehouse) {
  std::error_code ec;
  fs::create_directories(warehouse, ec);
  if (ec || !fs::is_directory(warehouse, ec))
    return Status::InvalidArgument(
        fmt::format("--warehouse {}: cannot create the folder: {}", warehouse, ec ? ec.message() : "not a directory"));
  const std::string absolute = fs::absolute(warehouse, ec).lexically_normal().string();
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<WarehouseLock> lock, WarehouseLock::Take(warehouse));
  std::string root = absolute.size() > 1 && absolute.back() == '/' ? absolute.substr(0, absolute.size() - 1) : absolute;
  return std::unique_ptr<RestTables>(new RestTables(std::move(root), std::move(lock)));
}

std::string RestTables::NamespaceDir(const std::string& ns) const {
  std::optional<std::vector<std::string>> levels = internal::NamespaceLevels(ns);
  return levels ? internal::Dotted(*levels) : "";
}

bool RestTables::NamespaceIsThere(const std::string& dir) const {
  std::error_code ec;
  return !dir.empty() && fs::is_directory(warehouse_ + "/" + dir, ec);
}

Result<const RestTables::Table*> RestTables::Find(const std::string& dir, const std::string& table) {
  const std::string key = dir + "/" + table;
  if (auto it = tables_.find(key); it != tables_.end()) return &it->second;
  const std::string table_dir = fmt::format("{}/{}/{}", warehouse_, dir, table);
  Result<std::string> pointer = ReadRegularFile(table_dir + "/pointer.json", kMaxFileBytes);
  if (!pointer.ok())
    return pointer.status().code() == Code::kNotFound ? Result<const Table*>(nullptr) : pointer.status();
  const std::optional<json> p = ParseBody(*pointer);
  if (!p || !p->contains("metadata-location") || !(*p)["metadata-location"].is_string())
    return Status::Corruption(fmt::format("{}/pointer.json: not a table pointer", table_dir));
  const std::string location = (*p)["metadata-location"];
  COMMITLAB_ASSIGN_OR_RETURN(std::string text, ReadRegularFile(location, kMaxFileBytes));
  COMMITLAB_ASSIGN_OR_RETURN(
      iceberg::MetadataRef m,
      iceberg::DecodeMetadata(text, location, {.location = location, .table_name = dir + "." + table}));
  Table& t = tables_[key];
  t.metadata = m;
  t.text = std::move(text);
  return &t;
}

std::string RestTables::MetadataPath(const iceberg::TableMetadata& m, const std::string& dir, const std::string& file) {
  const std::string& location = m.Fields().location;
  if (location.starts_with('/')) return location + "/" + file;
  return dir + "/" + file;
}

Status RestTables::Persist(const std::string& dir, const std::string& table, Table t, bool write_metadata) {
  const std::string table_dir = fmt::format("{}/{}/{}", warehouse_, dir, table);
  const std::string& path = t.metadata->location;  // absolute: MetadataPath
  std::error_code ec;
  fs::create_directories(FolderOf(path), ec);
  if (ec) return Status::IOError(fmt::format("cannot create {}: {}", FolderOf(path), ec.message()));
  fs::create_directories(table_dir, ec);
  if (ec) return Status::IOError(fmt::format("cannot create {}: {}", table_dir, ec.message()));
  if (write_metadata) COMMITLAB_RETURN_IF_ERROR(WriteFileAtomically(path, t.text));
  const json pointer = {{"table-uuid", t.metadata->Fields().uuid}, {"metadata-location", path}};
  COMMITLAB_RETURN_IF_ERROR(WriteFileAtomically(table_dir + "/pointer.json", pointer.dump()));
  tables_[dir + "/" + table] = std::move(t);
  return Status::OK();
}

RestReply RestTables::LoadResult(const Table& t) {
  std::string body = json({{"metadata-location", t.metadata->location}}).dump();
  body.pop_back();  // the metadata document goes in as it is written to the file
  body += ",\"metadata\":" + t.text + "}";
  return {200, std::move(body), ETagOf(*t.metadata)};
}

RestReply RestTables::Install(const std::string& ns_dir, const std::string& table, iceberg::MetadataRef m,
                              bool write_metadata) {
  Result<const Table*> existing = Find(ns_dir, table);
  if (!existing.ok()) return ServiceFailure(existing.status().message());
  if (*existing != nullptr)
    return RestError(409, "AlreadyExistsException", fmt::format("Table already exists: {}.{}", ns_dir, table));
  Table t{m, ""};
  t.text = iceberg::EncodeMetadata(*m, t.texts.get());
  if (Status st = Persist(ns_dir, table, t, write_metadata); !st.ok()) return ServiceFailure(st.message());
  return LoadResult(t);
}

RestReply RestTables::Create(const std::string& ns, std::string_view body) {
  const std::optional<json> b = ParseBody(body);
  if (!b || !b->contains("name") || !(*b)["name"].is_string()) return BadRequest("create table needs a name");
  const std::string name = (*b)["name"];
  const std::string dir = NamespaceDir(ns);
  if (!ValidName(name)) return BadRequest("a table's name is letters, digits, '_' and '-'");
  if (b->value("stage-create", false))
    return RestError(406, "UnsupportedOperationException", "this catalog does not stage table creation");
  MutexLock l(&mu_);
  if (!NamespaceIsThere(dir)) return NoSuchNamespace(dir.empty() ? ns : dir);
  auto fields = NewTableFields(*b, fmt::format("{}/{}/{}", warehouse_, dir, name));
  if (RestReply* refused = std::get_if<RestReply>(&fields)) return std::move(*refused);
  auto m = std::make_shared<iceberg::TableMetadata>(iceberg::NewTableMetadata(dir + "." + name, 0, ""));
  m->fields = std::make_shared<const iceberg::TableFields>(std::move(std::get<iceberg::TableFields>(fields)));
  m->last_updated_ms = NowMillis();
  m->location =
      MetadataPath(*m, fmt::format("{}/{}/{}", warehouse_, dir, name), iceberg::MetadataFilePath(0, NewTableUuid()));
  return Install(dir, name, std::move(m), /*write_metadata=*/true);
}

RestReply RestTables::Register(const std::string& ns, std::string_view body) {
  const std::optional<json> b = ParseBody(body);
  if (!b || !b->contains("name") || !(*b)["name"].is_string() || !b->contains("metadata-location") ||
      !(*b)["metadata-location"].is_string())
    return BadRequest("register table needs a name and a metadata-location");
  const std::string name = (*b)["name"], location = (*b)["metadata-location"];
  const std::string dir = NamespaceDir(ns);
  if (!ValidName(name)) return BadRequest("a table's name is letters, digits, '_' and '-'");
  if (!location.starts_with('/'))
    return BadRequest("metadata-location must be an absolute path: this catalog reads files on its own machine");
  MutexLock l(&mu_);
  if (!NamespaceIsThere(dir)) return NoSuchNamespace(dir.empty() ? ns : dir);
  Result<std::string> text = ReadRegularFile(location, kMaxFileBytes);
  if (!text.ok()) return BadRequest(text.status().message());
  Result<iceberg::MetadataRef> m =
      iceberg::DecodeMetadata(*text, location, {.location = location, .table_name = dir + "." + name});
  if (!m.ok()) return BadRequest(m.status().message());
  if ((*m)->Fields().uuid.empty()) {  // format v1 may have none: TableMetadata assigns one
    auto with_uuid = std::make_shared<iceberg::TableMetadata>(**m);
    auto f = std::make_shared<iceberg::TableFields>(with_uuid->Fields());
    f->uuid = NewTableUuid();
    with_uuid->fields = std::move(f);
    *m = std::move(with_uuid);
  }
  // The file stays where it is, as it is: the table's history starts there.
  return Install(dir, name, *m, /*write_metadata=*/false);
}

RestReply RestTables::Load(const std::string& ns, const std::string& table, std::string_view if_none_match) {
  const std::string dir = NamespaceDir(ns);
  if (dir.empty() || !ValidName(table)) return NoSuchTable(ns, table);
  MutexLock l(&mu_);
  Result<const Table*> t = Find(dir, table);
  if (!t.ok()) return ServiceFailure(t.status().message());
  if (*t == nullptr) return NoSuchTable(dir, table);
  const std::string etag = ETagOf(*(*t)->metadata);
  if (!if_none_match.empty() && if_none_match == etag) return {304, "", etag};
  return LoadResult(**t);
}

RestReply RestTables::Exists(const std::string& ns, const std::string& table) {
  RestReply r = Load(ns, table);
  return r.status == 200 ? RestReply{204, ""} : r;
}

RestReply RestTables::Commit(const std::string& ns, const std::string& table, std::string_view body) {
  const std::string dir = NamespaceDir(ns);
  if (dir.empty() || !ValidName(table)) return NoSuchTable(ns, table);
  const std::optional<json> b = ParseBody(body);
  if (!b || !b->contains("requirements") || !b->contains("updates") || !(*b)["requirements"].is_array() ||
      !(*b)["updates"].is_array())
    return BadRequest("a commit is an object with the arrays requirements and updates");
  MutexLock l(&mu_);
  Result<const Table*> found = Find(dir, table);
  if (!found.ok()) return ServiceFailure(found.status().message());
  if (*found == nullptr) return NoSuchTable(dir, table);
  const iceberg::TableMetadata& now = *(*found)->metadata;
  if (std::optional<RestReply> refused = internal::CheckRequirements((*b)["requirements"], &now))
    return std::move(*refused);
  const std::string location = MetadataPath(now, fmt::format("{}/{}/{}", warehouse_, dir, table),
                                            iceberg::MetadataFilePath(now.version + 1, NewTableUuid()));
  auto applied = internal::ApplyUpdates(now, (*b)["updates"], location, NowMillis());
  if (RestReply* refused = std::get_if<RestReply>(&applied)) return std::move(*refused);
  auto next = std::make_shared<const iceberg::TableMetadata>(std::move(std::get<0>(applied)));
  Table t{next, iceberg::EncodeMetadata(*next, (*found)->texts.get()), (*found)->texts};
  // 500 leaves the state unknown to the client, as the specification says. The pointer may or may
  // not have been replaced (a failed fsync after the rename): the table is read again from disk.
  if (Status st = Persist(dir, table, t, /*write_metadata=*/true); !st.ok()) {
    tables_.erase(dir + "/" + table);
    return ServiceFailure(st.message());
  }
  return LoadResult(t);
}

}  // namespace commitlab::catalogs
