#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <climits>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "json_parse.h"
#include "json_syntax.h"

namespace commitlab::json_io {
namespace {

// The checker's message for `text`, or "" when it is a document. json_syntax.h names no JSON
// library: these messages come from the text alone.
std::string SyntaxError(std::string_view text, int max_depth = kMaxDepth) {
  const Status s = CheckSyntax(text, max_depth);
  if (s.ok()) return "";
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  return s.message();
}

// The reader's (nlohmann's, with core's limits) message in the same form.
std::string ParseError(std::string_view text) {
  const Result<nlohmann::json> v = Parse(text);
  return v.ok() ? "" : v.status().message();
}

std::string Printable(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7F) {
      out += c;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", b);
      out += hex;
    }
  }
  return out;
}

// One text of every error class, and the words commitlab gives it; the reader gives the same.
TEST(JsonIoSyntaxTest, EveryErrorClassIsWordedFromTheTextAlone) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "truncated JSON: expected a value at offset 0"},
      {" \t\r\n", "truncated JSON: expected a value at offset 4"},
      {"[1,", "truncated JSON: expected a value at offset 3"},
      {"[1 2]", "invalid JSON: expected ',' or ']' at offset 3"},
      {R"({"a": 1 "b"})", "invalid JSON: expected ',' or '}' at offset 8"},
      {R"({"a": 1 "b\q"})", "invalid JSON: expected ',' or '}' at offset 8"},  // a token that is bad anyway
      {"{1}", "invalid JSON: expected '\"' or '}' at offset 1"},
      {R"({"a": 1, 2})", "invalid JSON: expected '\"' at offset 9"},
      {R"({"a" -x})", "invalid JSON: expected ':' at offset 5"},
      {"[] []", "invalid JSON: unexpected trailing data at offset 3"},
      {"nul", "truncated JSON: expected 'null' at offset 3"},
      {"[fals]", "invalid JSON: expected 'false' at offset 1"},
      {"[true false]", "invalid JSON: expected ',' or ']' at offset 6"},
      {"[+1]", "invalid JSON: expected a value at offset 1"},
      {"1.", "truncated JSON: expected a digit at offset 2"},
      {"[1.e5]", "invalid JSON: expected a digit at offset 3"},
      {"[1e]", "invalid JSON: expected a digit at offset 3"},
      {"-01", "invalid JSON: unexpected trailing data at offset 2"},
      {"[1, 1.7976931348623159e308]", "invalid JSON: number out of range at offset 4"},
      {"[1, -2e-324]", "invalid JSON: number out of range at offset 4"},
      {"[\"a\", \"b", "truncated JSON: expected '\"' at offset 8"},
      {std::string("\"a\0b\"", 5), "invalid JSON: unescaped control character 0x00 in string at offset 2"},
      {"\"\\x\"", "invalid JSON: invalid escape '\\x' at offset 1"},
      {"\"\\\x80\"", "invalid JSON: invalid escape '\\' followed by byte 0x80 at offset 1"},
      {R"("\u00G0")", "invalid JSON: expected 4 hex digits after '\\u' at offset 1"},
      {R"("\uDBFF\uDBFF")", "invalid JSON: unpaired surrogate \\udbff at offset 1"},
      {R"("\ud800\\")", "invalid JSON: unpaired surrogate \\ud800 at offset 1"},
      {R"("\ud800\)", "truncated JSON: expected a low surrogate at offset 8"},
      {R"("\ud800\udc0)", "truncated JSON: expected 4 hex digits after '\\u' at offset 12"},
      {R"("\ud800\udc0x")", "invalid JSON: expected 4 hex digits after '\\u' at offset 7"},
      // Not UTF-8: a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, cut.
      {"\"\x80\"", "invalid JSON: invalid string: ill-formed UTF-8 byte at offset 1"},
      {"\"\xc0\xaf\"", "invalid JSON: invalid string: ill-formed UTF-8 byte at offset 1"},
      {"\"\xe0\x80\xaf\"", "invalid JSON: invalid string: ill-formed UTF-8 byte at offset 2"},
      {"\"\xed\xa0\x80\"", "invalid JSON: invalid string: ill-formed UTF-8 byte at offset 2"},
      {"\"\xf4\x90\x80\x80\"", "invalid JSON: invalid string: ill-formed UTF-8 byte at offset 2"},
      {"\"\xe2\x82\"", "invalid JSON: invalid string: ill-formed UTF-8 byte at offset 3"},
      {"\"\xe2\x82", "truncated JSON: invalid string: ill-formed UTF-8 byte at offset 3"},
      {std::string(kMaxDepth, '[') + "{}", "invalid JSON: nesting deeper than 64 at offset 64"},
      // nlohmann would skip the byte order mark and stop at the NUL; the checker does neither.
      {"\xEF\xBB\xBF[]", "invalid JSON: expected a value at offset 0"},
      {std::string("[]\0", 3), "invalid JSON: unexpected trailing data at offset 2"},
  };
  for (const auto& [text, message] : cases) {
    EXPECT_EQ(SyntaxError(text), message) << Printable(text);
    EXPECT_EQ(ParseError(text), message) << Printable(text);
  }
}

TEST(JsonIoSyntaxTest, AcceptsDocuments) {
  for (const std::string_view text :
       {R"( {"s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "a": [true, false, null, -0, 0.5e-3, 12E+2], "o": {}} )",
        "\"\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"",
        "[1.7976931348623157e308, 5e-324, -9223372036854775808, 123456789012345678901234567890]"}) {
    EXPECT_EQ(SyntaxError(text), "") << Printable(text);
    EXPECT_EQ(ParseError(text), "") << Printable(text);
  }
}

// Its open containers are a vector, not the call stack: no depth overflows it.
TEST(JsonIoSyntaxTest, DeepNestingNeedsNoStack) {
  constexpr size_t kDeep = 1'000'000;
  EXPECT_EQ(SyntaxError(std::string(kDeep, '['), INT_MAX), "truncated JSON: expected a value at offset 1000000");
  EXPECT_EQ(SyntaxError(std::string(kDeep, '[') + std::string(kDeep, ']'), INT_MAX), "");
  EXPECT_EQ(SyntaxError(std::string(kDeep, '{'), INT_MAX), "invalid JSON: expected '\"' or '}' at offset 1");
  EXPECT_EQ(SyntaxError(std::string(kDeep, '[')), "invalid JSON: nesting deeper than 64 at offset 64");
}

// Where nlohmann and the checker could judge a text differently, whole families of texts: the
// reader (nlohmann, with core's limits) accepts exactly what the checker accepts and refuses the
// rest in the checker's words. None of these texts repeats a key, which only the reader checks.
class Agreement {
 public:
  void Judge(std::string_view text) {
    const std::string parsed = ParseError(text);
    const std::string checked = SyntaxError(text);
    (parsed.empty() ? accepted_ : refused_)++;
    if (parsed != checked && ++disagreements_ <= 5)
      ADD_FAILURE() << Printable(text) << ": the reader says \"" << parsed << "\", the checker \"" << checked << "\"";
  }
  // The family held both documents and errors, so agreeing said something.
  void ExpectBoth(int at_least) const {
    EXPECT_GE(accepted_, at_least);
    EXPECT_GE(refused_, at_least);
    EXPECT_EQ(disagreements_, 0);
  }

 private:
  int accepted_ = 0;
  int refused_ = 0;
  int disagreements_ = 0;
};

// Calls `f` with every text of 1 to `max_length` bytes drawn from `alphabet`.
void ForEachText(std::string_view alphabet, size_t max_length, const std::function<void(const std::string&)>& f) {
  std::vector<std::string> level = {""};
  for (size_t length = 1; length <= max_length; ++length) {
    std::vector<std::string> longer;
    for (const std::string& prefix : level) {
      for (const char c : alphabet) {
        longer.push_back(prefix + c);
        f(longer.back());
      }
    }
    level = std::move(longer);
  }
}

TEST(JsonIoSyntaxTest, AgreesWithNlohmannOnShortTexts) {
  Agreement a;
  // JSON's structural bytes, the starts of each token, whitespace, a NUL, and bytes that are not UTF-8.
  ForEachText(std::string_view("[]{},:\"\\01-.eE+tux \0\xff\xc3", 22), 3, [&](const std::string& t) {
    a.Judge(t);
    a.Judge("[" + t + "]");
    a.Judge("{\"k\":" + t + "}");
    a.Judge("[1," + t);
  });
  a.ExpectBoth(200);
}

TEST(JsonIoSyntaxTest, AgreesWithNlohmannOnNumbers) {
  Agreement a;
  ForEachText("-019.eE+", 5, [&](const std::string& t) { a.Judge(t); });
  // Either side of the largest double, of the smallest, and of uint64; an integer too long for a double.
  for (const std::string& n : std::vector<std::string>{
           "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "2e-324",
           "2.4703282292062328e-324", "2.4703282292062327e-324", "1e-310", "0e999999999999", "-1e400",
           "18446744073709551615", "18446744073709551616", "1" + std::string(400, '0')}) {
    a.Judge(n);
  }
  a.ExpectBoth(200);
}

// Every pair of bytes in a string, and every lead byte of a longer character with the bytes either
// side of each range the Unicode Standard's Table 3-7 allows after it.
TEST(JsonIoSyntaxTest, AgreesWithNlohmannOnUtf8) {
  Agreement a;
  for (int b1 = 0; b1 < 256; ++b1) {
    for (int b2 = 0; b2 < 256; ++b2) {
      const std::string s = {'"', static_cast<char>(b1), static_cast<char>(b2)};
      a.Judge(s);
      a.Judge(s + '"');
    }
  }
  const int second[] = {0x00, 0x22, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff};
  const int other[] = {0x22, 0x7f, 0x80, 0xbf, 0xc0};
  for (int lead = 0xe0; lead < 0x100; ++lead) {
    for (const int b2 : second) {
      for (const int b3 : other) {
        for (const int b4 : other) {
          const std::string s = {
              '[', '"', static_cast<char>(lead), static_cast<char>(b2), static_cast<char>(b3), static_cast<char>(b4)};
          a.Judge(s);
          a.Judge(s + "\"]");
        }
      }
    }
  }
  a.ExpectBoth(200);
}

// Escapes: "\u" and four bytes among hex digits and what breaks them, alone, after a high
// surrogate and as a key.
TEST(JsonIoSyntaxTest, AgreesWithNlohmannOnEscapes) {
  Agreement a;
  ForEachText("0afDd8c\"\\ug", 4, [&](const std::string& t) {
    if (t.size() != 4) return;
    a.Judge("\"\\u" + t + "\"");
    a.Judge("\"\\ud83d\\u" + t + "\"");
    a.Judge("{\"\\u" + t + "\":1}");
    a.Judge("\"\\" + t);
  });
  a.ExpectBoth(200);
}

}  // namespace
}  // namespace commitlab::json_io
