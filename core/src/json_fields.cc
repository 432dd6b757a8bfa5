#include "json_fields.h"

#include <fmt/format.h>

#include <cstdint>
#include <limits>

#include "commitlab/core/check.h"
#include "json_write.h"

namespace commitlab::json_io {
namespace {

Status WrongType(std::string_view key, std::string_view want, const nlohmann::json& got) {
  return Status::InvalidArgument(fmt::format("field {} must be {}, got {}", Quote(key), want, TypeName(got)));
}

}  // namespace

std::string_view TypeName(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::boolean: return "boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned: return "integer";
    case nlohmann::json::value_t::number_float: return "number";
    case nlohmann::json::value_t::string: return "string";
    case nlohmann::json::value_t::array: return "array";
    case nlohmann::json::value_t::object: return "object";
    case nlohmann::json::value_t::binary:
    case nlohmann::json::value_t::discarded: break;
  }
  return "?";
}

Result<const nlohmann::json*> GetField(const nlohmann::json& obj, std::string_view key) {
  if (!obj.is_object()) return Status::InvalidArgument(fmt::format("expected an object, got {}", TypeName(obj)));
  const auto it = obj.find(key);
  if (it == obj.end()) return Status::InvalidArgument(fmt::format("field {} is missing", Quote(key)));
  return &*it;
}

Result<int64_t> GetInt(const nlohmann::json& obj, std::string_view key) {
  COMMITLAB_ASSIGN_OR_RETURN(const nlohmann::json* v, GetField(obj, key));
  // json_parse.h keeps only int64 values as integers, so an unsigned one is in range too.
  if (!v->is_number_integer()) return WrongType(key, "an integer", *v);
  COMMITLAB_DCHECK(!v->is_number_unsigned() ||
                       v->get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
                   "json_io::Parse turns an integer past int64 into a double");
  return v->get<int64_t>();
}

Result<std::string> GetString(const nlohmann::json& obj, std::string_view key) {
  COMMITLAB_ASSIGN_OR_RETURN(const nlohmann::json* v, GetField(obj, key));
  if (!v->is_string()) return WrongType(key, "a string", *v);
  return v->get<std::string>();
}

}  // namespace commitlab::json_io
