// Writing JSON text with nlohmann::json in the layouts core's files use. Strings are escaped by
// nlohmann's serializer (short escapes for \b \f \n \r \t, \u00xx for other control bytes, UTF-8
// as is). Bytes that are not UTF-8 are written as U+FFFD: nlohmann's parser rejects them, so a
// file holding them could not be read back.
#ifndef COMMITLAB_CORE_SRC_JSON_WRITE_H_
#define COMMITLAB_CORE_SRC_JSON_WRITE_H_

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace commitlab::json_io {

// No whitespace: {"a":1,"b":["x"]}.
std::string Compact(const nlohmann::ordered_json& v);

// `s` as a JSON string literal, for files and for messages that name a value.
std::string Quote(std::string_view s);

// The layout of Jackson's DefaultPrettyPrinter, which Paimon's JsonSerdeUtil.toJson uses, for an
// object whose members are scalars: "{\n  \"a\" : 1,\n  \"b\" : \"x\"\n}" ("{ }" when empty).
std::string JacksonPretty(const nlohmann::ordered_json& flat);

// One line with a space after each ':' and ',': {"a": 1, "b": "x"}. Members print compact.
std::string SpacedLine(const nlohmann::ordered_json& flat);

}  // namespace commitlab::json_io

#endif  // COMMITLAB_CORE_SRC_JSON_WRITE_H_
