// The labs' text helpers: first lines, UUIDs cut short, a refusal as S2 第 5 讲 quotes it, a
// table's chain, and the Delta conflict matrix laid out from a run.
#include "lab/lab_text.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "commitlab/sim/fill.h"
#include "commitlab/sim/std_regex.h"
#include "commitlab/sim/text_width.h"
#include "commitlab/sim/violation_words.h"
#include "lab/class_mode.h"
#include "lab/lecture_notes.h"

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

// A note's conclusion is computed from the numbers it cites: other numbers, other words.
TEST(LectureNoteTest, TheJitterNotesConclusionFollowsItsNumbers) {
  using ::testing::HasSubstr;
  const JitterRuns same{.seeds = 20, .jitter = 0.2, .with = 9, .without = 9, .fixed_with = 8, .fixed_without = 8.5};
  EXPECT_THAT(JitterNote(same, false), HasSubstr("were 9 with jitter and 9 without; with every storage latency fixed "
                                                 "at its mean, 8 and 8.5: at two writers the jitter changes nothing, "
                                                 "whether the storage latency varies or is fixed"));
  const JitterRuns helps{.seeds = 20, .jitter = 0.2, .with = 4, .without = 12, .fixed_with = 4, .fixed_without = 12};
  EXPECT_THAT(JitterNote(helps, false), HasSubstr("here the jitter does stagger them, 8 fewer lost races."));
  const JitterRuns fixed_only{
      .seeds = 20, .jitter = 0.2, .with = 9, .without = 9, .fixed_with = 3, .fixed_without = 11};
  EXPECT_THAT(JitterNote(fixed_only, false), HasSubstr("matters only once it is fixed"));
  const JitterRuns none{.seeds = 20, .jitter = 0, .with = 9, .without = 9};
  EXPECT_THAT(JitterNote(none, false),
              HasSubstr("this run's retry policy has no jitter, so there is nothing to compare"));
  EXPECT_THAT(JitterNote(helps, true), HasSubstr("这里抖动确实把它们错开了，少了 8 次。"));
}

TEST(LectureNoteTest, TheTableLockNoteSaysWhichIsFasterByTheNumbers) {
  using ::testing::HasSubstr;
  LockRuns r{.seeds = 20,
             .commits = 60,
             .occ_ms = 600,
             .occ_lost = 20,
             .occ_wait_ms = 300,
             .lock_ms = 400,
             .lock_wait_ms = 150};
  EXPECT_THAT(TableLockNote(r, false), HasSubstr("60 commits in 400 ms (150/s), 150 ms spent waiting for the lock; "
                                                 "optimistic: 20 lost races, 600 ms (100/s), 300 ms of retry waits: "
                                                 "with two writers and commits of a few ms the lock is 50 % faster"));
  r.lock_ms = 900;
  EXPECT_THAT(TableLockNote(r, false), HasSubstr("optimistic commits are 50 % faster"));
  r.lock_ms = 610;
  EXPECT_THAT(TableLockNote(r, false), HasSubstr("the two are within 5 % of each other"));
}

TEST(ClassModeTest, WrapBreaksEnglishAtSpacesAndChineseAnywhereUnderItsLabel) {
  EXPECT_THAT(Wrap("claim: ", "aaaa bbbb cccc", 16), ElementsAre("claim: aaaa bbbb", "       cccc"));
  EXPECT_THAT(Wrap("claim: ", "aaaa bbbb cccc", 15), ElementsAre("claim: aaaa", "       bbbb", "       cccc"));
  EXPECT_THAT(Wrap("断言：", "一二三四五六七八", 14), ElementsAre("断言：一二三四", "      五六七八"));
  EXPECT_THAT(Wrap("", "short", 100), ElementsAre("short"));
}

// Chinese line-breaking rules: a closing mark never starts a line (the character before it goes
// down too, or the name before it whole), an opening one never ends a line.
TEST(ClassModeTest, WrapKeepsChinesePunctuationWithItsCharacter) {
  EXPECT_THAT(Wrap("断言：", "一二三四。五六", 14), ElementsAre("断言：一二三", "      四。五六"));
  EXPECT_THAT(Wrap("断言：", "一二 abc）五六", 15), ElementsAre("断言：一二", "      abc）五六"));
  EXPECT_THAT(Wrap("断言：", "一二三（四五", 14), ElementsAre("断言：一二三", "      （四五"));
}

TEST(ClassScreenTest, ALongScreenGivesUpTheWhyAndTheRunNeverTheVerdictOrTheReplay) {
  const scenarios::RunReport report;
  ClassRun run;
  run.file = "paimon_conflict.scn";
  for (int i = 0; i < 52; ++i) run.claim += fmt::format("a long claim, part {} of it, said at length ", i);
  run.replay = "commitlab run scenarios/paimon_conflict.scn --seed 1";
  run.report = &report;
  run.why.push_back({.line = 1, .writer = "w", .kind = "conflict", .lines = std::vector<std::string>(12, "why")});
  run.notes = std::vector<std::string>(6, "a note");
  const ClassScreen screen = MakeClassScreen(run, *FindLabWords("en"));
  EXPECT_LE(screen.ask.size() + screen.answer.size(), kClassLines - 2);
  ASSERT_GE(screen.answer.size(), 2U);
  EXPECT_THAT(screen.answer[screen.answer.size() - 2], ::testing::StartsWith("verdict: "));
  EXPECT_EQ(screen.answer.back(), "again: " + run.replay);
}

TEST(ChineseTextTest, TidyChineseKeepsAnIndentAndDropsSpacesInsideALine) {
  EXPECT_EQ(sim::TidyChinese("\n  （被选中的写入方）\n  第 1 步"), "\n  （被选中的写入方）\n  第 1 步");
  EXPECT_EQ(sim::TidyChinese("  （缩进）"), "  （缩进）");
  EXPECT_EQ(sim::TidyChinese("写入方 （a） 提交 ， 然后"), "写入方（a）提交，然后");
}

TEST(ChineseTextTest, FillTakesGroupsUpToNinetyNineAndLeavesAMissingOneEmpty) {
  const std::string text = "a b c d e f g h i j k";
  std::smatch m;
  ASSERT_TRUE(std::regex_match(text, m, std::regex(R"((\w) (\w) (\w) (\w) (\w) (\w) (\w) (\w) (\w) (\w) (\w))")));
  EXPECT_EQ(sim::Fill("{1}…{10}{11}[{12}]{x}", m), "a…jk[]{x}");
}

TEST(ChineseTextTest, AViolationIsToldInChineseWithItsKindFirst) {
  EXPECT_EQ(sim::ViolationSentence("lost", "acknowledged commit of job-A identifier 3 kind APPEND is not in the table",
                                   sim::Language::kChinese),
            "丢失的提交：已确认的提交（job-A，identifier 3，APPEND）不在表里");
}

TEST(ClassWrapTest, ATermStaysWholeAndNoLineEndsInASpace) {
  EXPECT_THAT(Wrap("", "一二三元数据", 10), ElementsAre("一二三", "元数据"));
  EXPECT_THAT(Wrap("", "一二三四 五六", 10), ElementsAre("一二三四", "五六"));
  EXPECT_THAT(Wrap("", "一二三四，五六", 8), ElementsAre("一二三", "四，五六"));
}

}  // namespace
}  // namespace commitlab::cli
