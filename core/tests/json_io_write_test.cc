#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>

#include "json_write.h"

namespace commitlab::json_io {
namespace {

using nlohmann::ordered_json;

TEST(JsonIoWriteTest, QuoteEscapes) {
  EXPECT_EQ(Quote("a\"b\\c/d\n\r\t\x01\x1f\x7f\xc3\xa9"), "\"a\\\"b\\\\c/d\\n\\r\\t\\u0001\\u001f\x7f\xc3\xa9\"");
  // nlohmann's short forms, as Jackson writes them.
  EXPECT_EQ(Quote("\b\f"), "\"\\b\\f\"");
  // Not UTF-8: U+FFFD, which the reader takes back, instead of bytes it would refuse.
  EXPECT_EQ(Quote("a\xff"), "\"a\xef\xbf\xbd\"");
}

TEST(JsonIoWriteTest, CompactKeepsMemberOrderAndInt64) {
  const ordered_json v = {{"z", std::numeric_limits<int64_t>::min()},
                          {"a", {true, nullptr, "x"}},
                          {"m", ordered_json::object()},
                          {"u", std::numeric_limits<int64_t>::max()}};
  EXPECT_EQ(Compact(v), R"({"z":-9223372036854775808,"a":[true,null,"x"],"m":{},"u":9223372036854775807})");
}

TEST(JsonIoWriteTest, JacksonPretty) {
  EXPECT_EQ(JacksonPretty({{"id", 3}, {"user", "u"}}), "{\n  \"id\" : 3,\n  \"user\" : \"u\"\n}");
  EXPECT_EQ(JacksonPretty(ordered_json::object()), "{ }");
}

TEST(JsonIoWriteTest, SpacedLine) {
  EXPECT_EQ(SpacedLine({{"kind", "ADD"}, {"bucket", -1}}), R"({"kind": "ADD", "bucket": -1})");
  EXPECT_EQ(SpacedLine(ordered_json::object()), "{}");
}

}  // namespace
}  // namespace commitlab::json_io
