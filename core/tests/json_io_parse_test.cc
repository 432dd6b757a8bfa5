#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "json_fields.h"
#include "json_parse.h"

namespace commitlab::json_io {
namespace {

nlohmann::json MustParse(std::string_view text) {
  Result<nlohmann::json> v = Parse(text);
  EXPECT_TRUE(v.ok()) << text << " -> " << v.status().ToString();
  return v.ok() ? std::move(v).value() : nlohmann::json();
}

// The message Parse gives for `text`, or "" when it parses.
std::string ParseError(std::string_view text) {
  Result<nlohmann::json> v = Parse(text);
  if (v.ok()) return "";
  EXPECT_EQ(v.status().code(), Code::kInvalidArgument);
  return v.status().message();
}

TEST(JsonIoParseTest, IntegersStayExactOverTheWholeInt64Range) {
  EXPECT_EQ(MustParse("9223372036854775807").get<int64_t>(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(MustParse("-9223372036854775808").get<int64_t>(), std::numeric_limits<int64_t>::min());
  const nlohmann::json big = MustParse("9223372036854775808");  // one past: a double, as before
  EXPECT_TRUE(big.is_number_float());
  EXPECT_EQ(TypeName(big), "number");
  EXPECT_EQ(TypeName(MustParse("7")), "integer");
}

TEST(JsonIoParseTest, ValuesAndEscapes) {
  const nlohmann::json v =
      MustParse(R"( {"s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "a": [true, null, 1.5], "o": {}} )");
  EXPECT_EQ(v.at("s"), "a\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(v.at("a"), nlohmann::json::parse("[true, null, 1.5]"));
  EXPECT_TRUE(v.at("o").is_object());
}

// The words and offsets of core's earlier hand-written reader, which the messages keep.
TEST(JsonIoParseTest, ErrorsSayWhyAndWhere) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"  \n", "truncated JSON: expected a value at offset 3"},
      {R"({"a": 1)", "truncated JSON: expected ',' or '}' at offset 7"},
      {R"({"a": 1 "b": 2})", "invalid JSON: expected ',' or '}' at offset 8"},
      {"[1 2]", "invalid JSON: expected ',' or ']' at offset 3"},
      {"[1,]", "invalid JSON: expected a value at offset 3"},
      {"{,}", "invalid JSON: expected '\"' or '}' at offset 1"},
      {R"({"a": 1,})", "invalid JSON: expected '\"' at offset 8"},
      {R"({"a" 1})", "invalid JSON: expected ':' at offset 5"},
      {R"({"a":1} x)", "invalid JSON: unexpected trailing data at offset 8"},
      {R"({} "tail")", "invalid JSON: unexpected trailing data at offset 3"},
      {"tru", "truncated JSON: expected 'true' at offset 3"},
      {"[trux]", "invalid JSON: expected 'true' at offset 1"},
      {"[truet]", "invalid JSON: expected ',' or ']' at offset 5"},
      {"-", "truncated JSON: expected a digit at offset 1"},
      {"1e+", "truncated JSON: expected a digit at offset 3"},
      {"[-x]", "invalid JSON: expected a digit at offset 2"},
      {"[01]", "invalid JSON: expected ',' or ']' at offset 2"},
      {"1e400", "invalid JSON: number out of range at offset 0"},
      {"[1e-400]", "invalid JSON: number out of range at offset 1"},  // nlohmann alone would read 0
      {"1e-400", "invalid JSON: number out of range at offset 0"},
      {"\"abc", "truncated JSON: expected '\"' at offset 4"},
      {"\"a\x01\"", "invalid JSON: unescaped control character 0x01 in string at offset 2"},
      {R"({"k": "\q"})", "invalid JSON: invalid escape '\\q' at offset 7"},
      {"\"\\\x01\"", "invalid JSON: invalid escape '\\' followed by byte 0x01 at offset 1"},
      {"\"\\", "truncated JSON: expected an escape character at offset 2"},
      {R"("\u12x")", "invalid JSON: expected 4 hex digits after '\\u' at offset 1"},
      {R"("\u12)", "truncated JSON: expected 4 hex digits after '\\u' at offset 5"},
      {R"("\uDC00")", "invalid JSON: unpaired surrogate \\udc00 at offset 1"},
      {R"("\ud800x")", "invalid JSON: unpaired surrogate \\ud800 at offset 1"},
      {R"("\ud800\u0041")", "invalid JSON: unpaired surrogate \\ud800 at offset 1"},
      {R"("\ud800)", "truncated JSON: expected a low surrogate at offset 7"},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(ParseError(text), message) << text;
}

// nlohmann accepts these; the reader it replaced did not, and core's files keep that.
TEST(JsonIoParseTest, RejectsWhatNlohmannWouldAccept) {
  EXPECT_EQ(ParseError(R"({"id": 1, "id": 2})"), "invalid JSON: duplicate key \"id\" at offset 10");
  EXPECT_EQ(ParseError(R"({"a\u0022b": 1, "a\"b": 2})"), "invalid JSON: duplicate key \"a\\\"b\" at offset 16");
  EXPECT_EQ(ParseError(std::string(kMaxDepth + 1, '[') + std::string(kMaxDepth + 1, ']')),
            "invalid JSON: nesting deeper than 64 at offset 64");
  EXPECT_EQ(MustParse(std::string(kMaxDepth, '[') + std::string(kMaxDepth, ']')).size(), 1u);
  // nlohmann's lexer ends the input at a NUL byte and skips a byte order mark.
  EXPECT_EQ(ParseError(std::string("{\"a\": 1}\0", 9)), "invalid JSON: unexpected trailing data at offset 8");
  EXPECT_EQ(ParseError(std::string("\0", 1)), "invalid JSON: expected a value at offset 0");
  EXPECT_EQ(ParseError("\xEF\xBB\xBF{}"), "invalid JSON: expected a value at offset 0");
}

// The one change from the old reader: strings must be UTF-8, as Jackson requires of its input too.
TEST(JsonIoParseTest, RejectsBytesThatAreNotUtf8) {
  EXPECT_EQ(ParseError("\"\xff\""), "invalid JSON: invalid string: ill-formed UTF-8 byte at offset 1");
}

TEST(JsonIoFieldsTest, SayWhatIsWrong) {
  const nlohmann::json v = MustParse(R"({"i": 3, "d": 0.5, "s": "x", "n": null, "big": 9223372036854775808})");
  EXPECT_EQ(*GetInt(v, "i"), 3);
  EXPECT_EQ(*GetString(v, "s"), "x");
  EXPECT_EQ(GetInt(v, "nope").status().message(), "field \"nope\" is missing");
  EXPECT_EQ(GetInt(v, "s").status().message(), "field \"s\" must be an integer, got string");
  EXPECT_EQ(GetInt(v, "d").status().message(), "field \"d\" must be an integer, got number");
  EXPECT_EQ(GetInt(v, "big").status().message(), "field \"big\" must be an integer, got number");
  EXPECT_EQ(GetString(v, "n").status().message(), "field \"n\" must be a string, got null");
  EXPECT_EQ(GetInt(MustParse("[]"), "i").status().message(), "expected an object, got array");
  EXPECT_EQ(GetInt(v, "nope").status().code(), Code::kInvalidArgument);
}

}  // namespace
}  // namespace commitlab::json_io
