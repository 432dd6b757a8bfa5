// The labs' text helpers: first lines, UUIDs cut short, a refusal as S2 第 5 讲 quotes it, a
// table's chain, and the Delta conflict matrix laid out from a run.
#include "lab/lab_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace commitlab::cli {
namespace {

using ::testing::ElementsAre;

TEST(LabTextTest, FirstLinesStopsAtTheCountOrTheEnd) {
  EXPECT_THAT(FirstLines("a\nb\nc", 2), ElementsAre("a", "b"));
  EXPECT_THAT(FirstLines("a", 3), ElementsAre("a"));
  EXPECT_THAT(FirstLines("a\n", 3), ElementsAre("a", ""));
}

TEST(LabTextTest, AbbreviateUuidsCutsEveryUuidAndNothingElse) {
  EXPECT_EQ(AbbreviateUuids("metadata/00002-cb41eecb-51a9-6e38-3834-e6ccbeef326c.metadata.json"),
            "metadata/00002-cb41eecb….metadata.json");
  EXPECT_EQ(
      AbbreviateUuids("data-1c2b3a4d-aaaa-bbbb-cccc-111122223333-0 and data-1c2b3a4d-aaaa-bbbb-cccc-111122223333-1"),
      "data-1c2b3a4d…-0 and data-1c2b3a4d…-1");
  EXPECT_EQ(AbbreviateUuids("not-a-uuid-cb41eecb-51a9"), "not-a-uuid-cb41eecb-51a9");
}

TEST(LabTextTest, ARefusalKeepsItsHeadlineAndWhatFollowsTheBaseUser) {
  EXPECT_THAT(RefusalLines("File deletion conflicts detected! Give up committing.\n\nDon't panic!\nadvice\n\n"
                           "Base commit user is: a; Current commit user is: b\n\nBase entries are:\nx\n\nCaused by: y"),
              ElementsAre("File deletion conflicts detected! Give up committing.", "...",
                          "Base commit user is: a; Current commit user is: b", "Base entries are:", "x",
                          "Caused by: y"));
  EXPECT_THAT(RefusalLines("ValidationException: Found conflicting files"),
              ElementsAre("ValidationException: Found conflicting files"));
}

TEST(LabTextTest, ChainLinesShowEachSnapshotAndTheCounters) {
  scenarios::TableReport t{.name = "c", .protocol = Protocol::kIceberg};
  t.chain.push_back(Snapshot{.id = 1, .parent_id = 0, .commit_user = "setup", .total_records = 2});
  t.chain.push_back(Snapshot{.id = 2, .parent_id = 1, .commit_user = "worker-a", .total_records = 2});
  t.operations = {"append", "overwrite"};
  t.counters = {{"hits", 15}};
  EXPECT_THAT(ChainLines(t),
              ElementsAre("snapshot 1  append     user=setup  parent=0  total=2",
                          "snapshot 2  overwrite  user=worker-a  parent=1  total=2", "counter hits = 15"));
  t.protocol = Protocol::kDelta;
  EXPECT_EQ(ChainLines(t)[0].substr(0, 9), "version 1");
}

TEST(LabTextTest, TheMatrixIsLaidOutFromTheLosersOutcomes) {
  scenarios::RunReport r;
  const char* ops[] = {"insert", "update", "delete", "merge", "optimize"};
  for (const char* level : {"ser", "ws"}) {
    for (const char* w : ops) {
      for (const char* l : ops) {
        scenarios::WriterReport loser{.name = std::string(level) + "-" + w + "-" + l + "-l"};
        if (std::string(w) == "delete" && std::string(l) != "insert") {
          loser.outcome = scenarios::Outcome::kRefused;
          loser.error = "ConcurrentDeleteReadException: This transaction attempted to read ...";
        }
        r.writers.push_back(loser);
      }
    }
  }
  std::optional<std::vector<std::string>> lines = ConflictMatrixLines(r);
  ASSERT_TRUE(lines.has_value());
  EXPECT_EQ((*lines)[0], "Serializable (table level)");
  EXPECT_EQ((*lines)[1], "  winner \\ loser    INSERT        UPDATE        DELETE        MERGE         OPTIMIZE");
  EXPECT_EQ((*lines)[4], "  DELETE            commits       DeleteRead    DeleteRead    DeleteRead    DeleteRead");
  EXPECT_EQ((*lines)[9], "  UPDATE            cannot        cannot");
  EXPECT_EQ((*lines)[10], "  DELETE            cannot        can           can");  // DELETE first refused the other
  EXPECT_EQ((*lines)[13], "");
  EXPECT_EQ((*lines)[14], "WriteSerializable (table level)");
  r.writers.pop_back();
  EXPECT_FALSE(ConflictMatrixLines(r).has_value());
}

}  // namespace
}  // namespace commitlab::cli
