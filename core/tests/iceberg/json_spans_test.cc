#include "iceberg/json_spans.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace commitlab::iceberg::internal {
namespace {

std::string_view Text(std::string_view t, Span s) { return t.substr(s.begin, s.end - s.begin); }

TEST(JsonSpansTest, MembersAndElementsAreFoundPastStringsThatHoldBracketsAndEscapedQuotes) {
  const std::string_view t = R"( {"a\"]}" : "x\"{[", "s": [ {"k":"]"} , 12 ,"q\\",[1,[2]] ], "n":-1.5e3} )";
  const size_t object = FirstValue(t);
  ASSERT_EQ(t[object], '{');
  const std::optional<size_t> s = MemberAt(t, object, "s");
  ASSERT_TRUE(s.has_value());
  const std::optional<std::vector<Span>> e = ElementsAt(t, *s);
  ASSERT_TRUE(e.has_value());
  ASSERT_EQ(e->size(), 4u);
  EXPECT_EQ(Text(t, (*e)[0]), R"({"k":"]"})");
  EXPECT_EQ(Text(t, (*e)[1]), "12");
  EXPECT_EQ(Text(t, (*e)[2]), R"("q\\")");
  EXPECT_EQ(Text(t, (*e)[3]), "[1,[2]]");
  const std::optional<size_t> n = MemberAt(t, object, "n");
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(t.substr(*n, *ValueEnd(t, *n) - *n), "-1.5e3");
  EXPECT_FALSE(MemberAt(t, object, "k").has_value());  // only the object's own members
}

TEST(JsonSpansTest, TextsItCannotFollowGiveNothing) {
  for (std::string_view t : {R"({"a":1)", R"({"a" 1, "b":2})", R"({"a":"x)", R"({"a":"x\"})"})
    EXPECT_FALSE(MemberAt(t, 0, "b").has_value()) << t;
  for (std::string_view t : {"[1 2]", "[1,2", R"(["a])", "[{]"}) EXPECT_FALSE(ElementsAt(t, 0).has_value()) << t;
  EXPECT_FALSE(MemberAt("[1]", 0, "a").has_value());
  EXPECT_FALSE(ValueEnd(R"("abc)", 0).has_value());
}

}  // namespace
}  // namespace commitlab::iceberg::internal
