// The syntax of one JSON string (RFC 8259, section 7), checked byte by byte with no decoding:
// json_syntax.h's part for strings, kept apart because escapes, surrogate pairs and UTF-8 are
// most of what can go wrong inside one.
#ifndef COMMITLAB_CORE_SRC_JSON_STRING_SYNTAX_H_
#define COMMITLAB_CORE_SRC_JSON_STRING_SYNTAX_H_

#include <cstddef>
#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab::json_io {

// Steps *pos past the string whose opening quote is at *pos, or says, as json_parse_error.h
// words it, where the string first breaks the grammar: a missing closing quote, a control byte,
// a bad escape, an unpaired UTF-16 surrogate, or bytes that are not UTF-8.
Status ScanString(std::string_view text, size_t* pos);

}  // namespace commitlab::json_io

#endif  // COMMITLAB_CORE_SRC_JSON_STRING_SYNTAX_H_
