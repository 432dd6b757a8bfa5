// The namespaces of commitlab's REST catalog (RestTables' namespace operations): each a folder of
// the warehouse, its properties in .namespace.json. CatalogHandlers' createNamespace,
// listNamespaces, loadNamespace, namespaceExists, updateNamespaceProperties and dropNamespace.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "commitlab/catalogs/rest_tables.h"
#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"
#include "rest_commit.h"
#include "rest_names.h"

namespace commitlab::catalogs {
namespace {

namespace fs = std::filesystem;
using internal::BadRequest;
using internal::NoSuchNamespace;
using nlohmann::json;

constexpr char kPropertiesFile[] = ".namespace.json";

json Properties(const std::string& dir) {
  Result<std::string> text = ReadRegularFile(dir + "/" + kPropertiesFile, size_t{1} << 20);
  if (!text.ok()) return json::object();
  json j = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  return j.is_object() ? j : json::object();
}

// The tables of a namespace folder: its folders that hold a pointer.
std::vector<std::string> TablesIn(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (fs::is_regular_file(it->path() / "pointer.json")) out.push_back(it->path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

RestReply RestTables::CreateNamespace(std::string_view body) {
  const std::optional<json> b = internal::ParseBody(body);
  if (!b || !b->contains("namespace") || !(*b)["namespace"].is_array() || (*b)["namespace"].empty())
    return BadRequest("create namespace needs a namespace (an array of names)");
  std::vector<std::string> levels;
  for (const json& level : (*b)["namespace"]) {
    if (!level.is_string() || !internal::ValidName(level.get<std::string>()))
      return BadRequest("a namespace's levels are letters, digits, '_' and '-'");
    levels.push_back(level);
  }
  json properties = b->value("properties", json::object());
  if (!properties.is_object()) return BadRequest("create namespace: properties must be an object");
  for (const auto& [k, v] : properties.items())
    if (!v.is_string()) return BadRequest(fmt::format("create namespace: property {} is not a string", k));
  const std::string dir = internal::Dotted(levels);
  MutexLock l(&mu_);
  if (NamespaceIsThere(dir))
    return RestError(409, "AlreadyExistsException", fmt::format("Namespace already exists: {}", dir));
  std::error_code ec;
  fs::create_directories(warehouse_ + "/" + dir, ec);
  if (ec) return RestError(500, "ServiceFailureException", fmt::format("cannot create {}: {}", dir, ec.message()));
  if (Status st = WriteFileAtomically(warehouse_ + "/" + dir + "/" + kPropertiesFile, properties.dump()); !st.ok())
    return RestError(500, "ServiceFailureException", st.message());
  return {200, json({{"namespace", levels}, {"properties", properties}}).dump()};
}

RestReply RestTables::ListNamespaces(const std::string& parent) {
  std::vector<std::string> prefix;
  if (!parent.empty()) {
    const std::string dir = NamespaceDir(parent);
    if (!NamespaceIsThere(dir)) return NoSuchNamespace(dir.empty() ? parent : dir);
    prefix = internal::LevelsOfDir(dir);
  }
  MutexLock l(&mu_);
  std::set<std::vector<std::string>> found;
  std::error_code ec;
  for (fs::directory_iterator it(warehouse_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with('.') || !it->is_directory()) continue;
    std::vector<std::string> levels = internal::LevelsOfDir(name);
    if (levels.size() <= prefix.size() || !std::equal(prefix.begin(), prefix.end(), levels.begin())) continue;
    levels.resize(prefix.size() + 1);  // a child, or the child on the way to a deeper one
    found.insert(std::move(levels));
  }
  json namespaces = json::array();
  for (const std::vector<std::string>& n : found) namespaces.push_back(n);
  return {200, json({{"namespaces", namespaces}}).dump()};
}

RestReply RestTables::LoadNamespace(const std::string& ns) {
  const std::string dir = NamespaceDir(ns);
  MutexLock l(&mu_);
  if (!NamespaceIsThere(dir)) return NoSuchNamespace(dir.empty() ? ns : dir);
  return {200,
          json({{"namespace", internal::LevelsOfDir(dir)}, {"properties", Properties(warehouse_ + "/" + dir)}}).dump()};
}

RestReply RestTables::NamespaceExists(const std::string& ns) {
  const std::string dir = NamespaceDir(ns);
  MutexLock l(&mu_);
  return NamespaceIsThere(dir) ? RestReply{204, ""} : NoSuchNamespace(dir.empty() ? ns : dir);
}

RestReply RestTables::UpdateNamespaceProperties(const std::string& ns, std::string_view body) {
  const std::optional<json> b = internal::ParseBody(body);
  const json removals = b ? b->value("removals", json::array()) : json();
  const json updates = b ? b->value("updates", json::object()) : json();
  if (!b || !removals.is_array() || !updates.is_object())
    return BadRequest("update namespace properties takes removals (an array) and updates (an object)");
  for (const json& k : removals)
    if (!k.is_string() || updates.contains(k.get<std::string>()))
      return RestError(422, "UnprocessableEntityException",
                       fmt::format("a key is both removed and updated, or not a string: {}", k.dump()));
  for (const auto& [k, v] : updates.items())
    if (!v.is_string()) return BadRequest(fmt::format("property {} is not a string", k));
  const std::string dir = NamespaceDir(ns);
  MutexLock l(&mu_);
  if (!NamespaceIsThere(dir)) return NoSuchNamespace(dir.empty() ? ns : dir);
  json properties = Properties(warehouse_ + "/" + dir);
  json removed = json::array(), missing = json::array(), updated = json::array();
  for (const json& k : removals) (properties.erase(k.get<std::string>()) != 0 ? removed : missing).push_back(k);
  for (const auto& [k, v] : updates.items()) {
    properties[k] = v;
    updated.push_back(k);
  }
  if (Status st = WriteFileAtomically(warehouse_ + "/" + dir + "/" + kPropertiesFile, properties.dump()); !st.ok())
    return RestError(500, "ServiceFailureException", st.message());
  return {200, json({{"updated", updated}, {"removed", removed}, {"missing", missing}}).dump()};
}

RestReply RestTables::DropNamespace(const std::string& ns) {
  const std::string dir = NamespaceDir(ns);
  MutexLock l(&mu_);
  if (!NamespaceIsThere(dir)) return NoSuchNamespace(dir.empty() ? ns : dir);
  const std::vector<std::string> tables = TablesIn(warehouse_ + "/" + dir);
  if (!tables.empty())
    return RestError(409, "NamespaceNotEmptyException",
                     fmt::format("Namespace {} is not empty. {} tables exist.", dir, tables.size()));
  std::error_code ec;
  fs::remove_all(warehouse_ + "/" + dir, ec);  // the folders of dropped tables went with them
  if (ec) return RestError(500, "ServiceFailureException", fmt::format("cannot remove {}: {}", dir, ec.message()));
  return {204, ""};
}

RestReply RestTables::List(const std::string& ns) {
  const std::string dir = NamespaceDir(ns);
  MutexLock l(&mu_);
  if (!NamespaceIsThere(dir)) return NoSuchNamespace(dir.empty() ? ns : dir);
  json identifiers = json::array();
  for (const std::string& t : TablesIn(warehouse_ + "/" + dir))
    identifiers.push_back({{"namespace", internal::LevelsOfDir(dir)}, {"name", t}});
  return {200, json({{"identifiers", identifiers}}).dump()};
}

RestReply RestTables::Drop(const std::string& ns, const std::string& table, bool purge) {
  const std::string dir = NamespaceDir(ns);
  if (dir.empty() || !internal::ValidName(table)) return internal::NoSuchTable(ns, table);
  MutexLock l(&mu_);
  Result<const Table*> t = Find(dir, table);
  if (!t.ok()) return RestError(500, "ServiceFailureException", t.status().message());
  if (*t == nullptr) return internal::NoSuchTable(dir, table);
  const std::string table_dir = fmt::format("{}/{}/{}", warehouse_, dir, table);
  tables_.erase(dir + "/" + table);
  std::error_code ec;
  // Without purging, the metadata files stay (dropTable(ident, false)); the pointer goes.
  if (purge) {
    fs::remove_all(table_dir, ec);
  } else {
    fs::remove(table_dir + "/pointer.json", ec);
  }
  if (ec) return RestError(500, "ServiceFailureException", fmt::format("cannot drop {}: {}", table, ec.message()));
  return {204, ""};
}

RestReply RestTables::Rename(std::string_view body) {
  const std::optional<json> b = internal::ParseBody(body);
  auto identifier = [&](const char* key) -> std::optional<std::pair<std::string, std::string>> {
    if (!b || !b->contains(key) || !(*b)[key].is_object()) return std::nullopt;
    const json& id = (*b)[key];
    if (!id.contains("namespace") || !id["namespace"].is_array() || !id.contains("name") || !id["name"].is_string())
      return std::nullopt;
    std::vector<std::string> levels;
    for (const json& level : id["namespace"])
      if (!level.is_string() || !internal::ValidName(level.get<std::string>())) return std::nullopt;
      else levels.push_back(level);
    if (levels.empty() || !internal::ValidName(id["name"].get<std::string>())) return std::nullopt;
    return std::make_pair(internal::Dotted(levels), id["name"].get<std::string>());
  };
  const auto source = identifier("source"), destination = identifier("destination");
  if (!source || !destination) return BadRequest("rename needs a source and a destination (namespace and name)");
  MutexLock l(&mu_);
  Result<const Table*> from = Find(source->first, source->second);
  if (!from.ok()) return RestError(500, "ServiceFailureException", from.status().message());
  if (*from == nullptr) return internal::NoSuchTable(source->first, source->second);
  if (!NamespaceIsThere(destination->first)) return NoSuchNamespace(destination->first);
  Result<const Table*> to = Find(destination->first, destination->second);
  if (!to.ok()) return RestError(500, "ServiceFailureException", to.status().message());
  if (*to != nullptr)
    return RestError(409, "AlreadyExistsException",
                     fmt::format("Table already exists: {}.{}", destination->first, destination->second));
  // The new name's pointer first, then the old one goes: a crash between leaves two names for
  // one table, never none. The table's files stay at its location.
  Table moved = **from;
  if (Status st = Persist(destination->first, destination->second, moved, /*write_metadata=*/false); !st.ok())
    return RestError(500, "ServiceFailureException", st.message());
  tables_.erase(source->first + "/" + source->second);
  std::error_code ec;
  fs::remove(fmt::format("{}/{}/{}/pointer.json", warehouse_, source->first, source->second), ec);
  return {204, ""};
}

}  // namespace commitlab::catalogs
