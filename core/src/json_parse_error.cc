#include "json_parse_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "json_write.h"

namespace commitlab::json_io {
namespace {

// nlohmann's parse_error text, e.g. "[json.exception.parse_error.101] parse error at line 1,
// column 9: syntax error while parsing object - unexpected string literal; expected '}'", or for a
// token the lexer rejected "... - invalid literal; last read: 'tru'" (parser.hpp,
// parser::exception_message).
struct Report {
  std::string_view context;       // "value", "object", "array", "object key", "object separator"
  std::string_view unexpected;    // the token the grammar refused: "string literal", "']'", ...
                                  // (lexer.hpp, lexer::token_type_name)
  std::string_view lexer_reason;  // set instead when the lexer failed: "invalid literal", ...
  bool wants_end = false;         // "; expected end of input": a whole document was read
};

Report Split(std::string_view what) {
  constexpr std::string_view kWhile = "while parsing ";
  constexpr std::string_view kDash = " - ";
  constexpr std::string_view kUnexpected = "unexpected ";
  Report r;
  r.wants_end = what.ends_with("; expected end of input");
  const size_t at = what.find(kWhile);
  if (at == std::string_view::npos) return r;  // "attempting to parse an empty input"
  const size_t dash = what.find(kDash, at);
  if (dash == std::string_view::npos) return r;
  r.context = what.substr(at + kWhile.size(), dash - at - kWhile.size());
  const std::string_view detail = what.substr(dash + kDash.size());
  if (detail.starts_with(kUnexpected)) {
    r.unexpected = detail.substr(kUnexpected.size(), detail.find(';') - kUnexpected.size());
  } else {
    r.lexer_reason = detail.substr(0, detail.find("; last read: '"));
  }
  return r;
}

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

// Where the string or number nlohmann read last began. Its lexer restarts `token` (the bytes it
// keeps for messages) at each string and number, escaping a control byte as "<U+001F>", which
// can only be the byte it failed at.
size_t StringOrNumberStart(std::string_view text, size_t stop, std::string_view token) {
  const size_t read = std::min(stop + 1, text.size());
  size_t length = token.size();
  if (stop < text.size() && static_cast<unsigned char>(text[stop]) < 0x20 && length >= 8) length -= 7;
  return read >= length ? read - length : stop;
}

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// Where a token the lexer accepted began; nlohmann reports its last byte. Literals and
// punctuation have a fixed length.
size_t TokenStart(std::string_view text, size_t stop, std::string_view name, std::string_view token) {
  if (name == "string literal" || name == "number literal") return StringOrNumberStart(text, stop, token);
  if (name == "true literal" || name == "null literal") return stop - 3;
  if (name == "false literal") return stop - 4;
  return stop;  // one-byte tokens and the end of the text
}

// The literal the lexer was reading when it failed at `stop` ("tru" of "trux"), as the word it
// should have been, with *start where it began; "" and `stop` when that byte begins no literal.
// Letters before it may end a whole literal ("true" of "truet"), so the longest run of letters
// that begins a word wins.
std::string_view CutLiteral(std::string_view text, size_t stop, size_t* start) {
  size_t s = stop;
  while (s > 0 && text[s - 1] >= 'a' && text[s - 1] <= 'z') --s;
  for (; s < stop; ++s) {
    const std::string_view typed = text.substr(s, stop - s);
    for (std::string_view word : {"true", "false", "null"}) {
      if (typed.size() < word.size() && word.starts_with(typed)) {
        *start = s;
        return word;
      }
    }
  }
  *start = stop;
  return {};
}

// Where a token the lexer rejected at `stop` began.
size_t FailedTokenStart(std::string_view text, size_t stop, std::string_view reason, std::string_view token) {
  if (reason.starts_with("invalid string") || reason.starts_with("invalid number"))
    return StringOrNumberStart(text, stop, token);
  size_t start = stop;
  if (reason == "invalid literal") CutLiteral(text, stop, &start);
  return start;
}

// An escaped UTF-16 surrogate without its other half. nlohmann stops after the low half it
// refused, or at the first byte that does not continue "\uD83D" with "\u"; the old reader named
// the escape that is left unpaired.
std::string SurrogateWhy(std::string_view reason, std::string_view text, size_t* offset) {
  const size_t stop = *offset;
  const auto escape_back = [&](size_t back) { return back <= stop && text.compare(stop - back, 2, "\\u") == 0; };
  size_t back = 0;  // from `stop` to the backslash of the unpaired escape
  if (reason == "invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF") {
    back = 5;  // a low half alone: nlohmann stopped at its last hex digit
  } else if (stop >= text.size()) {
    return "expected a low surrogate";  // the text ends where "\u" of the low half should be
  } else if (escape_back(5) && escape_back(11)) {
    back = 11;  // a high half followed by an escape that is not a low half
  } else {
    back = stop > 0 && text[stop - 1] == '\\' ? 7 : 6;  // a high half followed by other bytes
  }
  if (!escape_back(back) || stop - back + 6 > text.size()) return std::string(reason);
  *offset = stop - back;
  return fmt::format("unpaired surrogate \\u{}", AsciiLower(text.substr(*offset + 2, 4)));
}

// Why the lexer rejected a string. *offset is the failing byte; moves where the reader pointed.
std::string StringWhy(std::string_view reason, std::string_view text, size_t* offset) {
  const size_t stop = *offset;
  const auto byte = [&] { return stop < text.size() ? static_cast<unsigned char>(text[stop]) : 0u; };
  if (reason == "invalid string: missing closing quote") return "expected '\"'";
  if (reason.starts_with("invalid string: control character"))
    return fmt::format("unescaped control character 0x{:02x} in string", byte());
  if (reason == "invalid string: forbidden character after backslash") {
    if (stop >= text.size()) return "expected an escape character";
    *offset = stop - 1;  // the backslash
    if (byte() < 0x20 || byte() >= 0x7F) return fmt::format("invalid escape '\\' followed by byte 0x{:02x}", byte());
    return fmt::format("invalid escape '\\{}'", text[stop]);
  }
  if (reason == "invalid string: '\\u' must be followed by 4 hex digits") {
    if (const size_t escape = text.rfind("\\u", stop - 1); stop < text.size() && escape != std::string_view::npos)
      *offset = escape;
    return "expected 4 hex digits after '\\u'";
  }
  if (reason.starts_with("invalid string: surrogate")) return SurrogateWhy(reason, text, offset);
  return std::string(reason);  // bytes that are not UTF-8: nlohmann's words
}

// Why a value could not be read: the lexer failed inside it, or no value starts at *offset.
std::string ValueWhy(std::string_view reason, std::string_view text, size_t* offset) {
  if (reason.starts_with("invalid string")) return StringWhy(reason, text, offset);
  if (reason.starts_with("invalid number")) return "expected a digit";
  size_t start = *offset;
  if (reason == "invalid literal") {
    if (const std::string_view word = CutLiteral(text, *offset, &start); !word.empty()) {
      if (*offset < text.size()) *offset = start;  // a misspelt word: its start; a cut one: the end
      return fmt::format("expected '{}'", word);
    }
  }
  return "expected a value";
}

// What the grammar wanted where a token did not fit, or "" where a value (or a key) was due and
// the lexer may have failed inside it.
std::string_view GrammarWhy(const Report& r, bool first_key) {
  if (r.wants_end) return "unexpected trailing data";
  if (r.context == "object") return "expected ',' or '}'";
  if (r.context == "array") return "expected ',' or ']'";
  if (r.context == "object separator") return "expected ':'";
  if (r.context == "object key" && !r.lexer_reason.starts_with("invalid string"))
    return first_key ? "expected '\"' or '}'" : "expected '\"'";
  return "";
}

}  // namespace

Status SyntaxErrorAt(std::string_view text, std::string_view why, size_t offset) {
  const char* kind = offset >= text.size() ? "truncated JSON" : "invalid JSON";
  return Status::InvalidArgument(fmt::format("{}: {} at offset {}", kind, why, offset));
}

Status DescribeParseError(std::string_view text, size_t position, std::string_view token, std::string_view what, int id,
                          bool first_key) {
  // nlohmann counts the bytes it read, the failing one included; at the end it counts one more.
  size_t offset = std::min(position, text.size() + 1);
  offset = offset == 0 ? 0 : offset - 1;
  if (id == 406)  // out_of_range.406: a number beyond double
    return SyntaxErrorAt(text, "number out of range", StringOrNumberStart(text, offset, token));
  const Report r = Split(what);
  std::string why(GrammarWhy(r, first_key));
  if (why.empty() && !r.lexer_reason.empty()) {
    why = ValueWhy(r.lexer_reason, text, &offset);
  } else {
    // A token that does not fit: name where it starts, as a reader checking one byte would.
    offset = r.lexer_reason.empty() ? TokenStart(text, offset, r.unexpected, token)
                                    : FailedTokenStart(text, offset, r.lexer_reason, token);
    if (why.empty()) why = "expected a value";
  }
  return SyntaxErrorAt(text, why, offset);
}

Status DuplicateKeyError(std::string_view text, std::string_view key, size_t closing_quote) {
  return SyntaxErrorAt(text, fmt::format("duplicate key {}", Quote(key)), OpeningQuote(text, closing_quote));
}

Status TooDeepError(std::string_view text, int max_depth, size_t offset) {
  return SyntaxErrorAt(text, fmt::format("nesting deeper than {}", max_depth), offset);
}

}  // namespace commitlab::json_io
