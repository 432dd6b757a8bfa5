// Parse errors in the words core's decoders have always used: "truncated JSON: expected ',' or
// '}' at offset 57" when the text ended too early, "invalid JSON: <why> at offset N" otherwise.
// Tests and callers match on these texts. json_syntax.h finds the errors of grammar; the two
// below are the checks json_parse.h makes as it builds a document.
#ifndef COMMITLAB_CORE_SRC_JSON_PARSE_ERROR_H_
#define COMMITLAB_CORE_SRC_JSON_PARSE_ERROR_H_

#include <cstddef>
#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab::json_io {

// InvalidArgument "truncated JSON: <why> at offset N" when `offset` is the end of `text`, else
// "invalid JSON: <why> at offset N".
Status SyntaxErrorAt(std::string_view text, std::string_view why, size_t offset);

// The checks nlohmann's parser does not make: a key seen twice in one object (its closing quote
// at `closing_quote`), and an object or array opening at `offset` deeper than `max_depth`.
Status DuplicateKeyError(std::string_view text, std::string_view key, size_t closing_quote);
Status TooDeepError(std::string_view text, int max_depth, size_t offset);

}  // namespace commitlab::json_io

#endif  // COMMITLAB_CORE_SRC_JSON_PARSE_ERROR_H_
