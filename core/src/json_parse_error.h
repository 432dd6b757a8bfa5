// Parse errors in the words core's decoders used before they read JSON with nlohmann::json:
// "truncated JSON: expected ',' or '}' at offset 57" when the text ended too early, "invalid
// JSON: <why> at offset N" otherwise. Tests and callers match on these texts. The rewording reads
// nlohmann 3.11's exception texts; json_io_parse_test pins the result.
#ifndef COMMITLAB_CORE_SRC_JSON_PARSE_ERROR_H_
#define COMMITLAB_CORE_SRC_JSON_PARSE_ERROR_H_

#include <cstddef>
#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab::json_io {

// InvalidArgument "truncated JSON: <why> at offset N" when `offset` is the end of `text`, else
// "invalid JSON: <why> at offset N".
Status SyntaxErrorAt(std::string_view text, std::string_view why, size_t offset);

// Rewords the error nlohmann's SAX parser reported for `text`: `position` (bytes read),
// `last_token` (the bytes it shows as "last read"), and the exception's `what` and `id`.
// `first_key`: the parser stood where an object's first key belongs.
// The offset is the start of the token the grammar did not allow, or the byte the lexer failed
// at; where the old reader pointed elsewhere for a lexer failure (a bad escape, a misspelt
// literal) the offset follows it.
Status DescribeParseError(std::string_view text, size_t position, std::string_view last_token, std::string_view what,
                          int id, bool first_key);

// The checks nlohmann's parser does not make: a key seen twice in one object (its closing quote
// at `closing_quote`), and an object or array opening at `offset` deeper than `max_depth`.
Status DuplicateKeyError(std::string_view text, std::string_view key, size_t closing_quote);
Status TooDeepError(std::string_view text, int max_depth, size_t offset);

}  // namespace commitlab::json_io

#endif  // COMMITLAB_CORE_SRC_JSON_PARSE_ERROR_H_
