#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lab/brief_output.h"

namespace commitlab::cli {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> Filtered(const std::vector<std::string>& lines) {
  BriefFilter f;
  std::vector<std::string> out;
  for (const std::string& l : lines)
    for (std::string& o : f.Feed(l)) out.push_back(std::move(o));
  for (std::string& o : f.Flush()) out.push_back(std::move(o));
  return out;
}

TEST(BriefTest, ColumnsCountWideCharactersTwice) {
  EXPECT_EQ(DisplayColumns("abc"), 3u);
  EXPECT_EQ(DisplayColumns("第 5 讲"), 7u);
  EXPECT_EQ(DisplayColumns("data-bf08119f…-0"), 16u);
}

TEST(BriefTest, ASnapshotNarratedUnderItsLogLineIsSaidOnce) {
  EXPECT_THAT(
      Filtered(
          {"   0.000 INFO  [w] Successfully commit snapshot 4 to table t by user w with identifier 1 and kind APPEND.",
           "           snapshot 4  APPEND   user=w  identifier=1  total=3",
           "   0.001 INFO  [w] Successfully commit snapshot 5 to table t by user w."}),
      ElementsAre("           snapshot 4  APPEND   user=w  identifier=1  total=3",
                  "   0.001 INFO  [w] Successfully commit snapshot 5 to table t by user w."));
}

TEST(BriefTest, ARefusalDoesNotRepeatItsErrorLineNorAVerdictItsClaim) {
  EXPECT_THAT(Filtered({"   0.000 ERROR [c] File deletion conflicts detected! Give up committing.",
                        "         [c] refused:", "         | File deletion conflicts detected! Give up committing.",
                        "         | ...", "claim:  both land", "verdict: AGREES — both land"}),
              ElementsAre("   0.000 ERROR [c] File deletion conflicts detected! Give up committing.",
                          "         [c] refused:", "         | ...", "claim:  both land", "verdict: AGREES"));
}

TEST(BriefTest, LongIdsAreShortProseWrapsAndTheRestIsCut) {
  EXPECT_THAT(
      Filtered({"   0.000 INFO  [setup] Committed snapshot 1336129645694042326 (MergeAppend) "
                "metadata/00001-a46adeb1-4080-0f4a-4394-01c53ed0d70b.metadata.json"}),
      ElementsAre(
          "   0.000 INFO  [setup] Committed snapshot 1336… (MergeAppend) metadata/00001-a46adeb1….metadata.json"));
  const std::string claim = "claim:  " + std::string(30, 'x') + " " + std::string(30, 'y') + " " + std::string(50, 'z');
  EXPECT_THAT(Filtered({claim}), ElementsAre("claim:  " + std::string(30, 'x') + " " + std::string(30, 'y'),
                                             "        " + std::string(50, 'z')));
  const std::vector<std::string> cut = Filtered({"   0.000 WARN  [b] " + std::string(200, 'q')});
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(DisplayColumns(cut[0]), kBriefColumns);
  EXPECT_TRUE(cut[0].ends_with(" …"));
  // A log line of words is cut between two of them.
  EXPECT_THAT(Filtered({"   0.000 INFO  [job-B] Successfully commit snapshot 1 to table race_log by user job-B with "
                        "identifier 1 and kind APPEND."}),
              ElementsAre("   0.000 INFO  [job-B] Successfully commit snapshot 1 to table race_log by user job-B "
                          "with …"));
  // A file entry keeps what S2 第 5 讲 shows of it, rowCount included.
  EXPECT_THAT(Filtered({"         | {kind=ADD, partition=, bucket=0, level=5, fileName=data-c42237bc-1111-2222-3333-"
                        "444444444444-0.parquet, minKey=1, maxKey=3, rowCount=3}"}),
              ElementsAre("         | {kind=ADD, level=5, fileName=data-c42237bc…-0.parquet, rowCount=3}"));
  // Wide characters never end up split, nor past the limit.
  for (const std::string& l : Filtered({"source: " + std::string(60, 'a') + " " + [] {
         std::string s;
         for (int i = 0; i < 80; ++i) s += "讲";
         return s;
       }()}))
    EXPECT_LE(DisplayColumns(l), kBriefColumns) << l;
  // Chinese line-breaking rules: the full stop goes down with the character before it.
  std::string zh;
  for (int i = 0; i < 46; ++i) zh += "讲";
  const std::vector<std::string> wrapped = Filtered({"source: " + zh + "。后"});
  ASSERT_EQ(wrapped.size(), 2u);
  EXPECT_EQ(wrapped[1], "        讲。后");
}

}  // namespace
}  // namespace commitlab::cli
