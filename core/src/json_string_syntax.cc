#include "json_string_syntax.h"

#include <fmt/format.h>

#include "commitlab/core/check.h"
#include "json_parse_error.h"

namespace commitlab::json_io {
namespace {

// nlohmann's words for bytes that are not UTF-8, kept since json_io_parse_test pins them.
constexpr std::string_view kIllFormed = "invalid string: ill-formed UTF-8 byte";

// The byte at `i`, or -1 past the end of the text.
int ByteAt(std::string_view text, size_t i) { return i < text.size() ? static_cast<unsigned char>(text[i]) : -1; }

int HexValue(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A UTF-8 lead byte: how many continuation bytes follow it, and the range the first of them must
// fall in (the others are all 0x80..0xBF). The narrower ranges refuse overlong forms (after 0xE0
// and 0xF0), UTF-16 surrogates (after 0xED) and code points past U+10FFFF (after 0xF4); a byte
// that begins no character has no continuations. The Unicode Standard, Table 3-7 "Well-Formed
// UTF-8 Byte Sequences", which nlohmann's lexer.hpp (lexer::scan_string) checks the same way.
struct Utf8Lead {
  size_t continuations = 0;
  int low = 0x80;
  int high = 0xBF;
};

Utf8Lead LeadOf(int b) {
  if (b >= 0xC2 && b <= 0xDF) return {1};
  if (b == 0xE0) return {2, 0xA0};
  if (b == 0xED) return {2, 0x80, 0x9F};
  if (b >= 0xE1 && b <= 0xEF) return {2};
  if (b == 0xF0) return {3, 0x90};
  if (b >= 0xF1 && b <= 0xF3) return {3};
  if (b == 0xF4) return {3, 0x80, 0x8F};
  return {};
}

// Steps over the character at *pos, whose first byte is not ASCII, or names its first byte that
// breaks UTF-8 (the end of the text when it stops inside the character).
Status Utf8Character(std::string_view text, size_t* pos) {
  const Utf8Lead lead = LeadOf(ByteAt(text, *pos));
  if (lead.continuations == 0) return SyntaxErrorAt(text, kIllFormed, *pos);
  for (size_t i = 1; i <= lead.continuations; ++i) {
    const int b = ByteAt(text, *pos + i);
    if (b < (i == 1 ? lead.low : 0x80) || b > (i == 1 ? lead.high : 0xBF))
      return SyntaxErrorAt(text, kIllFormed, *pos + i);
  }
  *pos += 1 + lead.continuations;
  return Status::OK();
}

// The code unit of the escape "\uXXXX" whose backslash is at `escape`. A byte that is not a hex
// digit is reported at the escape, as core's reader before nlohmann did; the text ending inside
// it, at the end.
Status Hex4(std::string_view text, size_t escape, int* unit) {
  *unit = 0;
  for (size_t i = escape + 2; i < escape + 6; ++i) {
    const int digit = HexValue(ByteAt(text, i));
    if (digit < 0)
      return SyntaxErrorAt(text, "expected 4 hex digits after '\\u'", i >= text.size() ? text.size() : escape);
    *unit = *unit * 16 + digit;
  }
  return Status::OK();
}

// Steps over the escape "\uXXXX" at *pos and, after a high surrogate, over the escaped low half
// that must follow it: "\ud83d\ude00" is one character (RFC 8259, section 7).
Status UnicodeEscape(std::string_view text, size_t* pos) {
  const size_t escape = *pos;
  int unit = 0;
  COMMITLAB_RETURN_IF_ERROR(Hex4(text, escape, &unit));
  const auto unpaired = [&] { return SyntaxErrorAt(text, fmt::format("unpaired surrogate \\u{:04x}", unit), escape); };
  if (unit >= 0xDC00 && unit <= 0xDFFF) return unpaired();
  *pos = escape + 6;
  if (unit < 0xD800 || unit > 0xDBFF) return Status::OK();
  const std::string_view next = text.substr(*pos, 2);
  if (next != "\\u") {
    // Text that ends where the low half's "\u" belongs is cut short rather than wrong.
    if (std::string_view("\\u").starts_with(next)) return SyntaxErrorAt(text, "expected a low surrogate", text.size());
    return unpaired();
  }
  int low = 0;
  COMMITLAB_RETURN_IF_ERROR(Hex4(text, *pos, &low));
  if (low < 0xDC00 || low > 0xDFFF) return unpaired();
  *pos += 6;
  return Status::OK();
}

// Steps over the escape whose backslash is at *pos.
Status Escape(std::string_view text, size_t* pos) {
  const size_t escape = *pos;
  const int c = ByteAt(text, escape + 1);
  switch (c) {
    case -1: return SyntaxErrorAt(text, "expected an escape character", text.size());
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't': *pos += 2; return Status::OK();
    case 'u': return UnicodeEscape(text, pos);
    default: break;
  }
  if (c < 0x20 || c >= 0x7F)
    return SyntaxErrorAt(text, fmt::format("invalid escape '\\' followed by byte 0x{:02x}", c), escape);
  return SyntaxErrorAt(text, fmt::format("invalid escape '\\{}'", static_cast<char>(c)), escape);
}

}  // namespace

Status ScanString(std::string_view text, size_t* pos) {
  COMMITLAB_CHECK(*pos < text.size() && text[*pos] == '"', "a string is scanned from its opening quote");
  size_t i = *pos + 1;  // past the opening quote
  for (;;) {
    const int c = ByteAt(text, i);
    if (c == '"') {
      *pos = i + 1;
      return Status::OK();
    }
    if (c == -1) return SyntaxErrorAt(text, "expected '\"'", text.size());
    if (c < 0x20) return SyntaxErrorAt(text, fmt::format("unescaped control character 0x{:02x} in string", c), i);
    if (c == '\\') {
      COMMITLAB_RETURN_IF_ERROR(Escape(text, &i));
    } else if (c < 0x80) {
      ++i;
    } else {
      COMMITLAB_RETURN_IF_ERROR(Utf8Character(text, &i));
    }
  }
}

}  // namespace commitlab::json_io
