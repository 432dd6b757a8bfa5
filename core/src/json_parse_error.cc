#include "json_parse_error.h"

#include <fmt/format.h>

#include <algorithm>

#include "commitlab/core/check.h"
#include "json_write.h"

namespace commitlab::json_io {
namespace {

// The opening quote of the string whose closing quote is at `close`: the nearest '"' before it
// not escaped by an odd run of backslashes.
size_t OpeningQuote(std::string_view text, size_t close) {
  for (size_t i = std::min(close, text.size()); i-- > 0;) {
    if (text[i] != '"') continue;
    size_t slashes = 0;
    while (slashes < i && text[i - 1 - slashes] == '\\') ++slashes;
    if (slashes % 2 == 0) return i;
  }
  return close;
}

}  // namespace

Status SyntaxErrorAt(std::string_view text, std::string_view why, size_t offset) {
  COMMITLAB_CHECK(offset <= text.size(), "an error is named at a byte of the text or at its end");
  const char* kind = offset >= text.size() ? "truncated JSON" : "invalid JSON";
  return Status::InvalidArgument(fmt::format("{}: {} at offset {}", kind, why, offset));
}

Status DuplicateKeyError(std::string_view text, std::string_view key, size_t closing_quote) {
  return SyntaxErrorAt(text, fmt::format("duplicate key {}", Quote(key)), OpeningQuote(text, closing_quote));
}

Status TooDeepError(std::string_view text, int max_depth, size_t offset) {
  return SyntaxErrorAt(text, fmt::format("nesting deeper than {}", max_depth), offset);
}

}  // namespace commitlab::json_io
