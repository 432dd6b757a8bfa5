// Field accessors for decoding documents read with json_parse.h. Errors are InvalidArgument with
// messages like `field "id" is missing` or `field "id" must be an integer, got string`; callers
// add the file.
#ifndef COMMITLAB_CORE_SRC_JSON_FIELDS_H_
#define COMMITLAB_CORE_SRC_JSON_FIELDS_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab::json_io {

// "null", "boolean", "integer", "number", "string", "array", "object".
std::string_view TypeName(const nlohmann::json& v);

Result<const nlohmann::json*> GetField(const nlohmann::json& obj, std::string_view key);
Result<int64_t> GetInt(const nlohmann::json& obj, std::string_view key);
Result<std::string> GetString(const nlohmann::json& obj, std::string_view key);

}  // namespace commitlab::json_io

#endif  // COMMITLAB_CORE_SRC_JSON_FIELDS_H_
