// Reading a JSON document with nlohmann::json, with the limits core's decoders have always had:
// duplicate keys, nesting deeper than kMaxDepth and trailing data are errors. When nlohmann
// refuses a text, commitlab's own checker (json_syntax.h) finds and words the error.
#ifndef COMMITLAB_CORE_SRC_JSON_PARSE_H_
#define COMMITLAB_CORE_SRC_JSON_PARSE_H_

#include <nlohmann/json.hpp>

#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab::json_io {

inline constexpr int kMaxDepth = 64;

// One JSON document (RFC 8259; surrounding whitespace allowed; no byte order mark; strings must
// be UTF-8). Integers within int64 are number_integer, exactly (snapshot ids up to
// Long.MAX_VALUE); other numbers are doubles.
Result<nlohmann::json> Parse(std::string_view text);

}  // namespace commitlab::json_io

#endif  // COMMITLAB_CORE_SRC_JSON_PARSE_H_
