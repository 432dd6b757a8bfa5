#include "commitlab/core/json.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace commitlab {
namespace {

JsonValue MustParse(std::string_view text) {
  Result<JsonValue> v = ParseJson(text);
  EXPECT_TRUE(v.ok()) << text << " -> " << v.status().ToString();
  return v.ok() ? std::move(v).value() : JsonValue();
}

// The error message ParseJson gives for `text`, or "" when it parses.
std::string ParseError(std::string_view text) {
  Result<JsonValue> v = ParseJson(text);
  if (v.ok()) return "";
  EXPECT_EQ(v.status().code(), Code::kInvalidArgument);
  return v.status().message();
}

TEST(JsonQuoteTest, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(JsonQuote("a\"b\\c\n\t\x01"), "\"a\\\"b\\\\c\\n\\t\\u0001\"");
}

TEST(JsonParseTest, Scalars) {
  EXPECT_TRUE(MustParse("null").is_null());
  EXPECT_TRUE(MustParse(" true ").as_bool());
  EXPECT_TRUE(MustParse("false").is_bool());
  EXPECT_FALSE(MustParse("false").as_bool());
  EXPECT_EQ(MustParse("0").as_int(), 0);
  EXPECT_EQ(MustParse("-17").as_int(), -17);
  EXPECT_EQ(MustParse("\"hi\"").as_string(), "hi");
}

TEST(JsonParseTest, IntegersStayExactOverTheWholeInt64Range) {
  EXPECT_EQ(MustParse("9223372036854775807").as_int(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(MustParse("-9223372036854775808").as_int(), std::numeric_limits<int64_t>::min());
  JsonValue big = MustParse("9223372036854775808");  // one past: becomes a double
  EXPECT_EQ(big.type(), JsonValue::Type::kDouble);
  EXPECT_DOUBLE_EQ(big.as_double(), 9223372036854775808.0);
}

TEST(JsonParseTest, Doubles) {
  EXPECT_DOUBLE_EQ(MustParse("1.5").as_double(), 1.5);
  EXPECT_DOUBLE_EQ(MustParse("-2e3").as_double(), -2000);
  EXPECT_DOUBLE_EQ(MustParse("2.5E-1").as_double(), 0.25);
  EXPECT_EQ(MustParse("1.0").type(), JsonValue::Type::kDouble);
  EXPECT_EQ(MustParse("7").as_double(), 7.0);  // an int reads as a double too
}

TEST(JsonParseTest, StringEscapesAndUnicode) {
  EXPECT_EQ(MustParse(R"("a\"b\\c\/d\b\f\n\r\t")").as_string(), "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ(MustParse(R"("\u00e9\u20AC")").as_string(), "\xc3\xa9\xe2\x82\xac");
  EXPECT_EQ(MustParse(R"("\ud83d\ude00")").as_string(), "\xf0\x9f\x98\x80");  // a surrogate pair
  EXPECT_EQ(MustParse("\"caf\xc3\xa9\"").as_string(), "caf\xc3\xa9");          // raw UTF-8 passes
  EXPECT_EQ(MustParse(R"("\u0000")").as_string(), std::string(1, '\0'));
}

TEST(JsonParseTest, ObjectsKeepInsertionOrder) {
  JsonValue v = MustParse(R"({"z": 1, "a": [true, null, "x"], "m": {}})");
  ASSERT_TRUE(v.is_object());
  ASSERT_EQ(v.as_object().size(), 3u);
  EXPECT_EQ(v.as_object()[0].first, "z");
  EXPECT_EQ(v.as_object()[1].first, "a");
  EXPECT_EQ(v.as_object()[2].first, "m");
  ASSERT_NE(v.Find("a"), nullptr);
  EXPECT_EQ(v.Find("a")->as_array().size(), 3u);
  EXPECT_EQ(v.Find("missing"), nullptr);
  EXPECT_EQ(ToJson(v), R"({"z":1,"a":[true,null,"x"],"m":{}})");
}

TEST(JsonParseTest, RoundTripsThroughToJson) {
  const char* docs[] = {
      "null", "[]", "{}", "[[[]]]", R"({"a":{"b":{"c":[1,-2,3.25,"s\n\"",false]}}})",
      R"(["\u0001",1e300,-0.5,9223372036854775807])", R"({"k":"caf\u00e9","e":""})",
  };
  for (const char* doc : docs) {
    JsonValue v = MustParse(doc);
    JsonValue again = MustParse(ToJson(v));
    EXPECT_EQ(v, again) << doc << " printed as " << ToJson(v);
  }
}

TEST(JsonParseTest, DoublesStayDoublesWhenPrinted) {
  EXPECT_EQ(ToJson(JsonValue::Double(1.0)), "1.0");
  EXPECT_EQ(MustParse(ToJson(JsonValue::Double(1.0))).type(), JsonValue::Type::kDouble);
  EXPECT_EQ(ToJson(JsonValue::Double(std::numeric_limits<double>::infinity())), "null");
}

TEST(JsonBuildTest, AppendAndSet) {
  JsonValue obj;
  obj.Set("b", JsonValue::Int(1));
  obj.Set("a", JsonValue::String("x"));
  obj.Set("b", JsonValue::Int(2));  // replaces in place
  JsonValue arr;
  arr.Append(JsonValue::Bool(true));
  arr.Append(JsonValue());
  obj.Set("list", arr);
  EXPECT_EQ(ToJson(obj), R"({"b":2,"a":"x","list":[true,null]})");
  JsonValue num = JsonValue::Int(3);
  num.Append(JsonValue::Int(4));  // wrong type: ignored
  EXPECT_EQ(num, JsonValue::Int(3));
}

TEST(JsonBuildTest, WrongTypeAccessorsReturnEmptyValues) {
  JsonValue v = JsonValue::Int(5);
  EXPECT_EQ(v.as_string(), "");
  EXPECT_TRUE(v.as_array().empty());
  EXPECT_TRUE(v.as_object().empty());
  EXPECT_FALSE(v.as_bool());
  EXPECT_EQ(JsonValue::String("5").as_int(), 0);
}

TEST(JsonErrorTest, MissingSeparatorSaysWhatAndWhere) {
  EXPECT_EQ(ParseError(R"({"a": 1 "b": 2})"), "invalid JSON: expected ',' or '}' at offset 8");
  EXPECT_EQ(ParseError("[1 2]"), "invalid JSON: expected ',' or ']' at offset 3");
  EXPECT_EQ(ParseError(R"({"a" 1})"), "invalid JSON: expected ':' at offset 5");
  EXPECT_EQ(ParseError("{1: 2}"), "invalid JSON: expected '\"' or '}' at offset 1");
  EXPECT_EQ(ParseError(R"({"a": 1,})"), "invalid JSON: expected '\"' at offset 8");
  EXPECT_EQ(ParseError("[1,]"), "invalid JSON: expected a value at offset 3");
}

TEST(JsonErrorTest, TruncatedInputSaysTruncated) {
  EXPECT_EQ(ParseError(""), "truncated JSON: expected a value at offset 0");
  EXPECT_EQ(ParseError("   "), "truncated JSON: expected a value at offset 3");
  EXPECT_EQ(ParseError(R"({"a": 1)"), "truncated JSON: expected ',' or '}' at offset 7");
  EXPECT_EQ(ParseError(R"({"a": )"), "truncated JSON: expected a value at offset 6");
  EXPECT_EQ(ParseError("[1, 2"), "truncated JSON: expected ',' or ']' at offset 5");
  EXPECT_EQ(ParseError(R"("abc)"), "truncated JSON: expected '\"' at offset 4");
  EXPECT_EQ(ParseError("tru"), "truncated JSON: expected 'true' at offset 3");
  EXPECT_EQ(ParseError("-"), "truncated JSON: expected a digit at offset 1");
  EXPECT_EQ(ParseError("1."), "truncated JSON: expected a digit at offset 2");
  EXPECT_EQ(ParseError(R"("\)"), "truncated JSON: expected an escape character at offset 2");
  EXPECT_EQ(ParseError(R"("\u12)"), "truncated JSON: expected 4 hex digits after '\\u' at offset 5");
  EXPECT_EQ(ParseError(R"("\ud83d)"), "truncated JSON: expected a low surrogate at offset 7");
}

TEST(JsonErrorTest, RejectsTrailingGarbage) {
  EXPECT_EQ(ParseError("{} x"), "invalid JSON: unexpected trailing data at offset 3");
  EXPECT_EQ(ParseError("1 2"), "invalid JSON: unexpected trailing data at offset 2");
  EXPECT_EQ(ParseError("01"), "invalid JSON: unexpected trailing data at offset 1");
  EXPECT_EQ(ParseError(std::string_view("{}\0", 3)), "invalid JSON: unexpected trailing data at offset 2");
}

TEST(JsonErrorTest, RejectsBadLiteralsAndNumbers) {
  EXPECT_EQ(ParseError("nul!"), "invalid JSON: expected 'null' at offset 0");
  EXPECT_EQ(ParseError("hello"), "invalid JSON: expected a value at offset 0");
  EXPECT_EQ(ParseError("+1"), "invalid JSON: expected a value at offset 0");
  EXPECT_EQ(ParseError("-x"), "invalid JSON: expected a digit at offset 1");
  EXPECT_EQ(ParseError("1.e5"), "invalid JSON: expected a digit at offset 2");
  EXPECT_EQ(ParseError("[1e999]"), "invalid JSON: number out of range at offset 1");
  EXPECT_EQ(ParseError("\x01"), "invalid JSON: expected a value at offset 0");
}

TEST(JsonErrorTest, DepthIsCappedAt64) {
  const std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_EQ(ParseError(ok), "");
  const std::string deep = std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']');
  EXPECT_EQ(ParseError(deep), "invalid JSON: nesting deeper than 64 at offset 64");
  // A hostile document far deeper than the stack could take is refused just as fast.
  EXPECT_EQ(ParseError(std::string(1'000'000, '{')), "invalid JSON: expected '\"' or '}' at offset 1");
  EXPECT_EQ(ParseError(std::string(1'000'000, '[')), "invalid JSON: nesting deeper than 64 at offset 64");
}

TEST(JsonErrorTest, RejectsInvalidEscapes) {
  EXPECT_EQ(ParseError(R"("a\qb")"), "invalid JSON: invalid escape '\\q' at offset 2");
  EXPECT_EQ(ParseError(R"("\x41")"), "invalid JSON: invalid escape '\\x' at offset 1");
  EXPECT_EQ(ParseError("\"\\\x01\""), "invalid JSON: invalid escape '\\' followed by byte 0x01 at offset 1");
  EXPECT_EQ(ParseError(R"("\u12G4")"), "invalid JSON: expected 4 hex digits after '\\u' at offset 1");
  EXPECT_EQ(ParseError(R"("\ude00")"), "invalid JSON: unpaired surrogate \\ude00 at offset 1");
  EXPECT_EQ(ParseError(R"("\ud83dx")"), "invalid JSON: unpaired surrogate \\ud83d at offset 1");
  EXPECT_EQ(ParseError(R"("\ud83d\u0041")"), "invalid JSON: unpaired surrogate \\ud83d at offset 1");
}

TEST(JsonErrorTest, RejectsRawControlCharactersInStrings) {
  EXPECT_EQ(ParseError("\"a\nb\""), "invalid JSON: unescaped control character 0x0a in string at offset 2");
  EXPECT_EQ(ParseError(std::string_view("\"a\0b\"", 5)),
            "invalid JSON: unescaped control character 0x00 in string at offset 2");
}

TEST(JsonErrorTest, RejectsDuplicateKeys) {
  EXPECT_EQ(ParseError(R"({"id": 1, "id": 2})"), "invalid JSON: duplicate key \"id\" at offset 10");
}

TEST(JsonErrorTest, ManyDistinctKeysParseQuickly) {
  std::string doc = "{";
  for (int i = 0; i < 50000; ++i) doc += fmt::format("{}\"k{}\":{}", i ? "," : "", i, i);
  doc += "}";
  JsonValue v = MustParse(doc);
  EXPECT_EQ(v.as_object().size(), 50000u);
  ASSERT_NE(v.Find("k49999"), nullptr);
  EXPECT_EQ(v.Find("k49999")->as_int(), 49999);
}

TEST(JsonFieldTest, GettersReturnValues) {
  JsonValue v = MustParse(R"({"i": 3, "d": 0.5, "b": true, "s": "x", "a": [1], "o": {"k": 1}})");
  EXPECT_EQ(*GetInt(v, "i"), 3);
  EXPECT_DOUBLE_EQ(*GetNumber(v, "d"), 0.5);
  EXPECT_DOUBLE_EQ(*GetNumber(v, "i"), 3.0);
  EXPECT_TRUE(*GetBool(v, "b"));
  EXPECT_EQ(*GetString(v, "s"), "x");
  EXPECT_EQ((*GetArray(v, "a"))->size(), 1u);
  EXPECT_EQ(*GetInt(**GetObject(v, "o"), "k"), 1);
}

TEST(JsonFieldTest, GettersSayWhatIsWrong) {
  JsonValue v = MustParse(R"({"i": 3, "d": 0.5, "s": "x", "n": null})");
  EXPECT_EQ(GetInt(v, "nope").status().message(), "field \"nope\" is missing");
  EXPECT_EQ(GetInt(v, "s").status().message(), "field \"s\" must be an integer, got string");
  EXPECT_EQ(GetInt(v, "d").status().message(), "field \"d\" must be an integer, got number");
  EXPECT_EQ(GetString(v, "n").status().message(), "field \"n\" must be a string, got null");
  EXPECT_EQ(GetBool(v, "i").status().message(), "field \"i\" must be a boolean, got integer");
  EXPECT_EQ(GetNumber(v, "s").status().message(), "field \"s\" must be a number, got string");
  EXPECT_EQ(GetArray(v, "i").status().message(), "field \"i\" must be an array, got integer");
  EXPECT_EQ(GetObject(v, "i").status().message(), "field \"i\" must be an object, got integer");
  EXPECT_EQ(GetInt(JsonValue::EmptyArray(), "i").status().message(), "expected an object, got array");
  EXPECT_EQ(GetInt(v, "nope").status().code(), Code::kInvalidArgument);
}

}  // namespace
}  // namespace commitlab
