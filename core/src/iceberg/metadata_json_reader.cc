#include "metadata_json_reader.h"

#include <fmt/format.h>

#include <climits>

#include "json_parse.h"
#include "json_write.h"

namespace commitlab::iceberg::internal {
namespace {

// A value as JsonUtil's messages show it, cut short.
std::string Shown(const json& v) {
  std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 100 ? s.substr(0, 100) + "..." : s;
}

}  // namespace

Status Reader::Error(std::string_view where) const { return Status::Corruption(fmt::format("{}: {}", where, error_)); }

void Reader::Fail(std::string_view at, std::string_view why) {
  if (ok()) error_ = at.empty() ? std::string(why) : fmt::format("{}: {}", at, why);
}

int64_t Reader::GetLong(const json& obj, std::string_view at, std::string_view key) {
  if (!ok()) return 0;
  if (!obj.is_object() || !obj.contains(key)) {
    Fail(at, fmt::format("Cannot parse missing long: {}", key));
    return 0;
  }
  const json& v = obj[std::string(key)];
  if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t{INT64_MAX})) {
    Fail(at, fmt::format("Cannot parse to a long value: {}: {}", key, Shown(v)));
    return 0;
  }
  return v.get<int64_t>();
}

int32_t Reader::GetInt(const json& obj, std::string_view at, std::string_view key) {
  if (!ok()) return 0;
  if (!obj.is_object() || !obj.contains(key)) {
    Fail(at, fmt::format("Cannot parse missing int: {}", key));
    return 0;
  }
  const json& v = obj[std::string(key)];
  if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t{INT32_MAX}) ||
      (!v.is_number_unsigned() && (v.get<int64_t>() < INT32_MIN || v.get<int64_t>() > INT32_MAX))) {
    Fail(at, fmt::format("Cannot parse to an integer value: {}: {}", key, Shown(v)));
    return 0;
  }
  return static_cast<int32_t>(v.get<int64_t>());
}

std::string Reader::GetString(const json& obj, std::string_view at, std::string_view key) {
  if (!ok()) return {};
  if (!obj.is_object() || !obj.contains(key)) {
    Fail(at, fmt::format("Cannot parse missing string: {}", key));
    return {};
  }
  const json& v = obj[std::string(key)];
  if (!v.is_string()) {
    Fail(at, fmt::format("Cannot parse to a string value: {}: {}", key, Shown(v)));
    return {};
  }
  return v.get<std::string>();
}

std::optional<int32_t> Reader::GetIntOrNull(const json& obj, std::string_view at, std::string_view key) {
  if (!obj.is_object() || !obj.contains(key) || obj[std::string(key)].is_null()) return std::nullopt;
  return GetInt(obj, at, key);
}

std::optional<int64_t> Reader::GetLongOrNull(const json& obj, std::string_view at, std::string_view key) {
  if (!obj.is_object() || !obj.contains(key) || obj[std::string(key)].is_null()) return std::nullopt;
  return GetLong(obj, at, key);
}

std::optional<std::string> Reader::GetStringOrNull(const json& obj, std::string_view at, std::string_view key) {
  if (!obj.is_object() || !obj.contains(key) || obj[std::string(key)].is_null()) return std::nullopt;
  return GetString(obj, at, key);
}

const json* Reader::Field(const json& obj, std::string_view at, std::string_view key) {
  if (!ok()) return nullptr;
  if (!obj.is_object()) {
    Fail(at, "expected an object");
    return nullptr;
  }
  auto it = obj.find(key);
  if (it == obj.end()) {
    Fail(at, fmt::format("field {} is missing", json_io::Quote(key)));
    return nullptr;
  }
  return &*it;
}

int64_t Reader::Int(const json& obj, std::string_view at, std::string_view key) {
  const json* v = Field(obj, at, key);
  if (v == nullptr) return 0;
  if (!v->is_number_integer()) {
    Fail(at, fmt::format("field {} must be an integer", json_io::Quote(key)));
    return 0;
  }
  return v->get<int64_t>();
}

std::string Reader::String(const json& obj, std::string_view at, std::string_view key) {
  const json* v = Field(obj, at, key);
  if (v == nullptr) return {};
  if (!v->is_string()) {
    Fail(at, fmt::format("field {} must be a string", json_io::Quote(key)));
    return {};
  }
  return v->get<std::string>();
}

const json& Reader::Array(const json& obj, std::string_view at, std::string_view key) {
  static const json* const kEmpty = new json(json::array());
  const json* v = Field(obj, at, key);
  if (v == nullptr) return *kEmpty;
  if (!v->is_array()) {
    Fail(at, fmt::format("field {} must be an array", json_io::Quote(key)));
    return *kEmpty;
  }
  return *v;
}

std::vector<std::string> Reader::Strings(const json& obj, std::string_view at, std::string_view key) {
  std::vector<std::string> out;
  for (const json& v : Array(obj, at, key)) {
    if (!v.is_string()) {
      Fail(at, fmt::format("field {} must hold strings", json_io::Quote(key)));
      return {};
    }
    out.push_back(v.get<std::string>());
  }
  return out;
}

Result<json> ParseDocument(std::string_view text, std::string_view where) {
  if (text.empty()) return Status::Corruption(fmt::format("{}: empty file", where));
  Result<json> doc = json_io::Parse(text);
  if (!doc.ok()) return Status::Corruption(fmt::format("{}: {}", where, doc.status().message()));
  if (!doc->is_object()) return Status::Corruption(fmt::format("{}: expected a JSON object", where));
  return doc;
}

std::string At(std::string_view at, std::string_view key, size_t i) {
  return at.empty() ? fmt::format("{}[{}]", key, i) : fmt::format("{}.{}[{}]", at, key, i);
}

namespace {

bool IsAbsolute(std::string_view path) { return path.starts_with('/') || path.find("://") != std::string_view::npos; }

}  // namespace

std::string Absolute(std::string_view table_location, const std::string& path) {
  if (table_location.empty() || path.empty() || IsAbsolute(path)) return path;
  return fmt::format("{}/{}", table_location, path);
}

std::string Relative(std::string_view table_location, const std::string& path) {
  if (table_location.empty() || path.size() <= table_location.size() + 1 || !path.starts_with(table_location) ||
      path[table_location.size()] != '/')
    return path;
  return path.substr(table_location.size() + 1);
}

}  // namespace commitlab::iceberg::internal
