#include "commitlab/core/spec_parse.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace commitlab {
namespace {

using ::testing::ElementsAre;

TEST(SpecParseTest, TrimBlanksDropsSpacesAndTabsAtTheEndsOnly) {
  EXPECT_EQ(TrimBlanks(" \t a b \t "), "a b");
  EXPECT_EQ(TrimBlanks("ab"), "ab");
  EXPECT_EQ(TrimBlanks(" \t "), "");
  EXPECT_EQ(TrimBlanks(""), "");
  EXPECT_EQ(TrimBlanks("\na\n"), "\na\n");  // only spaces and tabs
}

TEST(SpecParseTest, SplitOnKeepsEveryPieceIncludingEmptyOnes) {
  EXPECT_THAT(SplitOn("a,b,c", ','), ElementsAre("a", "b", "c"));
  EXPECT_THAT(SplitOn("a,,b", ','), ElementsAre("a", "", "b"));
  EXPECT_THAT(SplitOn(",a,", ','), ElementsAre("", "a", ""));
  EXPECT_THAT(SplitOn("", ','), ElementsAre(""));
  EXPECT_THAT(SplitOn("a;b,c", ';'), ElementsAre("a", "b,c"));
  EXPECT_THAT(SplitOn(" a , b ", ','), ElementsAre(" a ", " b "));  // nothing trimmed
}

TEST(SpecParseTest, SplitOnPiecesViewTheTextSoTheyKnowTheirColumn) {
  const std::string_view text = "job-A:publish.before:nth=2:error";
  std::vector<size_t> columns;
  for (std::string_view piece : SplitOn(text, ':')) columns.push_back(static_cast<size_t>(piece.data() - text.data()));
  EXPECT_THAT(columns, ElementsAre(0u, 6u, 21u, 27u));
}

TEST(SpecParseTest, CutAtFirstTellsNoSeparatorFromAnEmptyTail) {
  const Cut none = CutAtFirst("paimon", ':');
  EXPECT_EQ(none.head, "paimon");
  EXPECT_FALSE(none.tail.has_value());

  const Cut empty = CutAtFirst("paimon:", ':');
  EXPECT_EQ(empty.head, "paimon");
  ASSERT_TRUE(empty.tail.has_value());
  EXPECT_EQ(*empty.tail, "");

  const Cut first = CutAtFirst("normal:10:2", ':');
  EXPECT_EQ(first.head, "normal");
  EXPECT_EQ(first.tail, "10:2");

  const Cut leading = CutAtFirst(":x", ':');
  EXPECT_EQ(leading.head, "");
  EXPECT_EQ(leading.tail, "x");
}

// "key|value" for an item SplitKeyValue cuts, "none" for one it refuses.
std::string Pieces(std::string_view item) {
  const std::optional<KeyValue> kv = SplitKeyValue(item);
  return kv ? std::string(kv->key) + "|" + std::string(kv->value) : "none";
}

TEST(SpecParseTest, SplitKeyValueCutsAtTheFirstEquals) {
  std::vector<std::string> got;
  for (std::string_view item : {"publish=normal:10,2", "a=b=c", "=", "k=", "=v", " k = v ", "always", ""})
    got.push_back(Pieces(item));
  EXPECT_THAT(got, ElementsAre("publish|normal:10,2", "a|b=c", "|", "k|", "|v",
                               " k | v ",  // nothing trimmed
                               "none", "none"));
}

// Runs ForEachKeyValue over `list`, recording the items it hands over; `refuse`, when given, is a
// key the callback fails on.
std::pair<Status, std::vector<std::string>> Walk(std::string_view list,
                                                 std::optional<std::string_view> refuse = std::nullopt) {
  std::vector<std::string> seen;
  Status s = ForEachKeyValue(list, [&](std::string_view key, std::string_view value) {
    if (key == refuse) return Status::InvalidArgument("refused " + std::string(key));
    seen.push_back(std::string(key) + "|" + std::string(value));
    return Status::OK();
  });
  return {std::move(s), std::move(seen)};
}

TEST(SpecParseTest, ForEachKeyValueHandsOverEveryItemInOrder) {
  const auto [status, items] = Walk("base=5ms,cap=2s,x=,=y,q=a=b");
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_THAT(items, ElementsAre("base|5ms", "cap|2s", "x|", "|y", "q|a=b"));
}

TEST(SpecParseTest, ForEachKeyValueRefusesAnItemWithoutEquals) {
  for (const auto& [list, item] : std::vector<std::pair<std::string_view, std::string>>{
           {"base", "base"}, {"", ""}, {"base=1ms,", ""}, {"a=1,b c,d=2", "b c"}}) {
    const auto [status, items] = Walk(list);
    EXPECT_EQ(status.code(), Code::kInvalidArgument) << list;
    EXPECT_EQ(status.message(), "expected key=value, got \"" + item + "\"") << list;
  }
}

TEST(SpecParseTest, ForEachKeyValueRefusesARepeatedKey) {
  const auto [status, items] = Walk("cost=1,tokens=2,cost=2");
  EXPECT_EQ(status.code(), Code::kInvalidArgument);
  EXPECT_EQ(status.message(), "key cost given twice");
  EXPECT_THAT(items, ElementsAre("cost|1", "tokens|2"));

  const auto [empty_twice, unused] = Walk("=1,=2");
  EXPECT_EQ(empty_twice.message(), "key  given twice");
}

TEST(SpecParseTest, ForEachKeyValueStopsAtTheFirstFailureInOrder) {
  // The callback's failure on an earlier item wins over a malformed or repeated later one.
  const auto [refused, items] = Walk("a=1,bad=2,c,a=3", "bad");
  EXPECT_EQ(refused.message(), "refused bad");
  EXPECT_THAT(items, ElementsAre("a|1"));

  const auto [malformed, before] = Walk("a=1,c,bad=2", "bad");
  EXPECT_EQ(malformed.message(), "expected key=value, got \"c\"");
  EXPECT_THAT(before, ElementsAre("a|1"));
}

}  // namespace
}  // namespace commitlab
