// commitlab's own JSON syntax checker, which says where and why a text is not a JSON document
// in json_parse_error.h's words. json_parse.h reads with nlohmann::json and asks this checker
// only when nlohmann refuses a text, so the messages come from the text alone, never from a
// library's exception wording, and valid documents never pay for it.
//
// The grammar is RFC 8259's, with the limits core's readers keep: one value with whitespace
// around it, strings in UTF-8, numbers within a double's range, no nesting past `max_depth`. The
// scan keeps its open containers in a vector rather than on the call stack, so no nesting can
// overflow the stack. It does not decode, so a key given twice is json_parse.h's to find.
#ifndef COMMITLAB_CORE_SRC_JSON_SYNTAX_H_
#define COMMITLAB_CORE_SRC_JSON_SYNTAX_H_

#include <string_view>

#include "commitlab/core/status.h"

namespace commitlab::json_io {

// OK when `text` is one JSON document; else InvalidArgument naming its first error: "truncated
// JSON: <why> at offset N" when the text ends too early, "invalid JSON: <why> at offset N"
// otherwise. N is where a reader checking one byte at a time finds the error: the start of a
// token that does not fit, or of a misspelt literal, a bad escape or an out-of-range number, or
// the byte where a number or a string goes wrong.
Status CheckSyntax(std::string_view text, int max_depth);

// Whether a number, spelt as JSON spells it, is too large for a double or so small that it would
// read as zero. nlohmann reads the second as 0; core's readers have always refused both.
bool NumberOutOfRange(std::string_view number);

}  // namespace commitlab::json_io

#endif  // COMMITLAB_CORE_SRC_JSON_SYNTAX_H_
