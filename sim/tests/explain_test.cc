#include "commitlab/sim/explain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace commitlab::sim {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Json Header(const std::string& protocol, const std::string& retry = "paimon") {
  return {{"type", "header"},
          {"format", kHistoryFormat},
          {"version", kHistoryVersion},
          {"plan", {{"retry", retry}}},
          {"scenario", {{"text", "table name=t protocol=" + protocol + "\nwriter name=job-A\n"}}}};
}

// job-A publishes #1; job-B, who built on the empty table, loses #1 to it, waits and retries.
std::vector<Json> LostRace() {
  return {Header("paimon"),
          {{"type", "op_end"}, {"t_us", 1000}, {"writer", "job-B"}, {"op", "read-latest"}, {"saw", 0}},
          {{"type", "attempt"},
           {"t_us", 1000},
           {"writer", "job-A"},
           {"kind", "APPEND"},
           {"attempt", 1},
           {"snapshot", 1},
           {"plan", {{"base", 0}, {"add", {"a.parquet"}}, {"delete", Json::array()}}}},
          {{"type", "attempt"},
           {"t_us", 1000},
           {"writer", "job-B"},
           {"kind", "APPEND"},
           {"attempt", 1},
           {"snapshot", 1},
           {"plan", {{"base", 0}, {"add", {"b.parquet"}}, {"delete", Json::array()}}}},
          {{"type", "published"}, {"t_us", 2000}, {"writer", "job-A"}, {"kind", "APPEND"}, {"snapshot", 1}},
          {{"type", "atomic_commit_failed"},
           {"t_us", 2500},
           {"writer", "job-B"},
           {"snapshot", 1},
           {"lost_to", {{"snapshot", 1}, {"writer", "job-A"}, {"user", "job-A"}}}},
          {{"type", "retry_wait"},
           {"t_us", 2500},
           {"writer", "job-B"},
           {"attempt", 1},
           {"wait_us", 11000},
           {"base_us", 10000},
           {"jitter_us", 1000}},
          {{"type", "footer"}}};
}

TEST(ExplainTest, ALostRaceSaysWhoWonWhatTheLoserBuiltOnAndTheWaitsFormula) {
  Result<std::vector<Explanation>> x = ExplainHistory(LostRace());
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  ASSERT_EQ(x->size(), 1u);
  EXPECT_EQ((*x)[0].kind, "lost-race");
  EXPECT_EQ((*x)[0].line, 6u);
  EXPECT_THAT((*x)[0].lines,
              ElementsAre("job-B lost the race for snapshot #1 to job-A",
                          "job-B's attempt 1 built on an empty table, read at 0.001 s; job-A's APPEND publish of "
                          "snapshot #1 landed first, at 0.002 s",
                          "job-B waits 11 ms = 10 ms × 2^0 + 1 ms jitter (paimon policy, retry 1), then reads the "
                          "latest again and retries"));
}

TEST(ExplainTest, IcebergAndDeltaNameTheirOwnVersionsInTheirLecturesWords) {
  std::vector<Json> h = LostRace();
  h[0] = Header("iceberg", "iceberg");
  EXPECT_EQ((*ExplainHistory(h))[0].lines[0],
            "job-B lost the conditional swap to metadata v1: job-A swapped the pointer first");
  EXPECT_THAT((*ExplainHistory(h))[0].lines[2], HasSubstr("then reads the new metadata and applies its change again"));
  // 无锁并发写入: "输的一方在条件式替换中落败", not Paimon's 抢号.
  EXPECT_EQ((*ExplainHistory(h, Language::kChinese))[0].lines[0],
            "job-B 在条件式替换中落败：job-A 先把指针换到了元数据 v1");
  h[0] = Header("delta", "none");
  EXPECT_EQ((*ExplainHistory(h))[0].lines[0], "job-B lost version 1 of the log to job-A");
  // A wait the header's policy would not have made is told by its parts.
  EXPECT_THAT((*ExplainHistory(h))[0].lines[2], HasSubstr("waits 11 ms = 10 ms + 1 ms jitter"));
}

TEST(ExplainTest, AnInjectedLossHasNoWinner) {
  std::vector<Json> h = LostRace();
  h[5]["lost_to"] = {{"snapshot", 1}, {"writer", nullptr}, {"user", ""}, {"injected", true}};
  EXPECT_EQ((*ExplainHistory(h))[0].lines[0],
            "job-B's publish of snapshot #1 was refused by an injected `lost` fault: nobody took it");
}

// S2 第 5 讲, scenario 2 (docs/lectures.md#s2-5-conflict): compact-job-1's COMPACT removed the L0
// files; compact-job-2's own empty APPEND is the latest snapshot when its COMPACT is refused.
std::vector<Json> FileDeletion() {
  auto attempt = [](std::string w, int64_t snapshot, std::string kind, int64_t base, Json add, Json del) {
    return Json{{"type", "attempt"},
                {"t_us", 0},
                {"writer", w},
                {"kind", kind},
                {"attempt", 1},
                {"snapshot", snapshot},
                {"plan", {{"base", base}, {"add", add}, {"delete", del}}}};
  };
  auto published = [](std::string w, int64_t snapshot, std::string kind) {
    return Json{{"type", "published"}, {"t_us", 0}, {"writer", w}, {"kind", kind}, {"snapshot", snapshot}};
  };
  return {Header("paimon"),
          attempt("writer", 1, "APPEND", 0, {"l0-a", "l0-b"}, Json::array()),
          published("writer", 1, "APPEND"),
          attempt("compact-job-1", 2, "COMPACT", 1, {"l5-x"}, {"l0-a", "l0-b"}),
          published("compact-job-1", 2, "COMPACT"),
          attempt("compact-job-2", 3, "APPEND", 2, Json::array(), Json::array()),
          published("compact-job-2", 3, "APPEND"),
          attempt("compact-job-2", 4, "COMPACT", 3, {"l5-y"}, {"l0-a", "l0-b"}),
          {{"type", "conflict"},
           {"t_us", 0},
           {"writer", "compact-job-2"},
           {"kind", "COMPACT"},
           {"snapshot", 4},
           {"cause", {{"kind", "file-deletion"}, {"files", {"l0-a"}}}},
           {"culprit",
            {{"snapshot", 2},
             {"writer", "compact-job-1"},
             {"user", "compact-job-1"},
             {"change", "removed"},
             {"file", "l0-a"}}},
           {"message",
            "File deletion conflicts detected! Give up committing.\n\nBase commit user is: compact-job-2; "
            "Current commit user is: compact-job-2."}},
          {{"type", "footer"}}};
}

TEST(ExplainTest, AFileDeletionConflictIsTheLecturesMergeTableNamingWhoRemovedTheFile) {
  Result<std::vector<Explanation>> x = ExplainHistory(FileDeletion());
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  ASSERT_EQ(x->size(), 1u);
  const std::vector<std::string>& lines = (*x)[0].lines;
  EXPECT_EQ(lines[0],
            "compact-job-2's COMPACT commit was refused: File deletion conflicts detected! Give up committing.");
  EXPECT_EQ(lines[1], "its attempt 1 built on snapshot #3");
  EXPECT_THAT(lines, ::testing::Contains("  l0-a  no: removed by #2 (compact-job-1)  DELETE  left over: conflict"));
  EXPECT_THAT(lines, ::testing::Contains("  l0-b  no: removed by #2 (compact-job-1)  DELETE  left over"));
  EXPECT_THAT(lines, ::testing::Contains(::testing::StartsWith("  l5-y  no  ")));
  EXPECT_THAT(lines, ::testing::Contains("the log's \"Base commit user\" (compact-job-2) is the latest snapshot's "
                                         "author, not who removed the file"));
}

TEST(ExplainTest, AFileStillInTheBaseCancelsItsDelete) {
  std::vector<Json> h = FileDeletion();
  h[7]["plan"]["delete"] = {"l5-x"};  // compact-job-1's output, live at the base
  const std::vector<std::string> lines = (*ExplainHistory(h))[0].lines;
  EXPECT_THAT(lines, ::testing::Contains("  l5-x  yes       DELETE  cancels the base's ADD"));
}

TEST(ExplainTest, AnLsmConflictGivesBothFilesLevelsAndKeyRanges) {
  std::vector<Json> h = FileDeletion();
  h[8]["cause"] = {{"kind", "lsm"}, {"files", {"l5-x", "l5-y"}}};
  h[8]["culprit"] = {
      {"snapshot", 2}, {"writer", "compact-job-1"}, {"user", "compact-job-1"}, {"change", "added"}, {"file", "l5-x"}};
  h[8]["message"] =
      "LSM conflicts detected! Give up committing. Conflict files are:\n"
      "{}, bucket 0, level 5, file l5-x, minKey 1, maxKey 4\n"
      "{}, bucket 0, level 5, file l5-y, minKey 2, maxKey 3\n";
  const std::vector<std::string> lines = (*ExplainHistory(h))[0].lines;
  EXPECT_THAT(lines, ::testing::Contains("  l5-x  level 5  keys 1..4  added by snapshot #2 (compact-job-1)"));
  EXPECT_THAT(lines, ::testing::Contains("  l5-y  level 5  keys 2..3  this commit's output"));
  EXPECT_THAT(lines, ::testing::Contains("l5-x was added by snapshot #2 (COMPACT by compact-job-1)"));
}

TEST(ExplainTest, AGiveUpAfterLongMaxMillisSaysTheTimeoutWasUnset) {
  std::vector<Json> h = {Header("paimon", "paimon:retries=1"),
                         {{"type", "gave_up"},
                          {"t_us", 0},
                          {"writer", "w4"},
                          {"message",
                           "Commit failed after 9223372036854775807 millis with 1 retries, there maybe exist "
                           "commit conflicts between multiple jobs."}},
                         {{"type", "footer"}}};
  const std::vector<std::string> lines = (*ExplainHistory(h))[0].lines;
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1],
            "9223372036854775807 millis is Long.MAX_VALUE: commit.timeout is unset, so commit.max-retries (1) "
            "alone ended the commit (FileStoreCommitImpl.tryCommit)");
}

// 无锁并发写入's counter (docs/lectures.md#lock-free-counter): both read 10; worker-a commits 15;
// worker-b re-commits its stale 15.
TEST(ExplainTest, ALostUpdateNamesTheStaleReadAndTheCommitItOverwrote) {
  auto commit = [](std::string w, int64_t version, int64_t read_at) {
    return std::vector<Json>{
        {{"type", "published"}, {"t_us", 0}, {"writer", w}, {"kind", "OVERWRITE"}, {"snapshot", version}},
        {{"type", "step_end"},
         {"t_us", 0},
         {"writer", w},
         {"status", "ok"},
         {"counter", {{"action", "commit"}, {"key", "hits"}, {"read", 10}, {"read_at", read_at}, {"value", 15}}}}};
  };
  std::vector<Json> h = {Header("iceberg", "iceberg")};
  for (const Json& e : commit("worker-a", 2, 1)) h.push_back(e);
  for (const Json& e : commit("worker-b", 3, 1)) h.push_back(e);
  h.push_back({{"type", "footer"},
               {"verdicts",
                {{"violations",
                  {{{"kind", "lost_update"},
                    {"message",
                     "lost update: counter hits is 15, but 2 acknowledged "
                     "increments of 5 from 10 make 20 (1 increment lost)"}}}}}}});
  Result<std::vector<Explanation>> x = ExplainHistory(h);
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  ASSERT_EQ(x->size(), 1u);
  EXPECT_THAT((*x)[0].lines,
              ElementsAre("lost update: counter hits is 15, but 2 acknowledged increments of 5 from 10 make 20 (1 "
                          "increment lost)",
                          "worker-a read hits = 10 at metadata v1 and committed 15 as metadata v2",
                          "worker-b read hits = 10 at metadata v1 and committed 15 as metadata v3: its read was stale, "
                          "metadata v2 (worker-a's 15) landed after it, and worker-b's 15 overwrote that unseen"));
}

TEST(ExplainTest, SnapshotIdsOfAnotherTableDoNotNameTheWrongWriter) {
  std::vector<Json> h = FileDeletion();
  h[0]["scenario"]["text"] =
      "table name=t protocol=paimon\ntable name=other protocol=paimon\nwriter name=writer\n"
      "writer name=compact-job-1\nwriter name=compact-job-2\nwriter name=bystander table=other\n";
  // The other table's snapshot 2, published after compact-job-1's snapshot 2 of t.
  h.insert(h.begin() + 5, Json({{"type", "attempt"},
                                {"t_us", 0},
                                {"writer", "bystander"},
                                {"kind", "APPEND"},
                                {"attempt", 1},
                                {"snapshot", 2},
                                {"plan", {{"base", 1}, {"add", {"x"}}, {"delete", {"l0-a"}}}}}));
  h.insert(h.begin() + 6,
           Json({{"type", "published"}, {"t_us", 0}, {"writer", "bystander"}, {"kind", "APPEND"}, {"snapshot", 2}}));
  const std::vector<std::string> lines = (*ExplainHistory(h))[0].lines;
  EXPECT_THAT(lines, ::testing::Contains(::testing::HasSubstr("l0-b  no: removed by #2 (compact-job-1)")));
}

TEST(ExplainTest, AnAddOfAFileTheBaseHasIsTheConflictingRow) {
  std::vector<Json> h = FileDeletion();
  h[7]["plan"]["add"] = {"l5-x"};  // compact-job-1's output, live in the base: checkAppendFiles
  h[7]["plan"]["delete"] = Json::array();
  h[8]["culprit"] = {
      {"snapshot", 2}, {"writer", "compact-job-1"}, {"user", "compact-job-1"}, {"change", "added"}, {"file", "l5-x"}};
  const std::vector<std::string> lines = (*ExplainHistory(h))[0].lines;
  EXPECT_THAT(lines, ::testing::Contains("  l5-x  yes: added by #2 (compact-job-1)  ADD     added twice: conflict"));
  EXPECT_THAT(lines, ::testing::Contains("l5-x was added by snapshot #2 (COMPACT by compact-job-1)"));
  EXPECT_THAT(lines, ::testing::Contains(::testing::HasSubstr("not retried: the file is already in the table")));
}

TEST(ExplainTest, ALostUpdateListsOnlyItsOwnCounter) {
  std::vector<Json> h = {Header("iceberg", "iceberg")};
  for (const char* key : {"hits", "misses"}) {
    h.push_back({{"type", "published"}, {"t_us", 0}, {"writer", "w"}, {"kind", "OVERWRITE"}, {"snapshot", 2}});
    h.push_back({{"type", "step_end"},
                 {"t_us", 0},
                 {"writer", "w"},
                 {"status", "ok"},
                 {"counter", {{"action", "commit"}, {"key", key}, {"read", 1}, {"read_at", 1}, {"value", 2}}}});
  }
  h.push_back(
      {{"type", "footer"},
       {"verdicts",
        {{"violations", {{{"kind", "lost_update"}, {"message", "lost update: counter misses is 2, but ..."}}}}}}});
  const std::vector<std::string> lines = (*ExplainHistory(h))[0].lines;
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_THAT(lines[1], HasSubstr("read misses = 1"));
}

TEST(ExplainTest, ChineseWordsKeepNamesAndNumbers) {
  Result<std::vector<Explanation>> x = ExplainHistory(LostRace(), Language::kChinese);
  ASSERT_TRUE(x.ok());
  // Typeset Chinese: no space between two Chinese words ("抢 快照"), one where a name or number begins.
  EXPECT_EQ((*x)[0].lines[0], "job-B 抢快照 #1 失败，被 job-A 抢到");
  EXPECT_EQ((*x)[0].lines[2],
            "job-B 等待 11 ms = 10 ms × 2^0 + 1 ms 抖动（paimon 策略，第 1 次重试），然后重读最新快照并重试");
  EXPECT_THAT(ExplanationText(*x, SIZE_MAX, Language::kChinese), ::testing::StartsWith("原因：job-B 抢"));
}

TEST(ExplainTest, AnyOtherViolationIsTheCheckersFinding) {
  std::vector<Json> h = LostRace();
  h.back() = {{"type", "footer"},
              {"verdicts",
               {{"violations",
                 {{{"kind", "lost"},
                   {"message",
                    "acknowledged commit of job-A (told snapshot 1) is not in the "
                    "table"},
                   {"expected", true}}}}}}};
  Result<std::vector<Explanation>> x = ExplainHistory(h);
  ASSERT_EQ(x->size(), 2u);
  EXPECT_EQ((*x)[1].kind, "violation");
  EXPECT_EQ((*x)[1].lines[0],
            "the checker (lost): acknowledged commit of job-A (told snapshot 1) is not in the "
            "table (expected by the scenario)");
}

TEST(ExplainTest, InChineseTheCheckersFindingsAreChineseToo) {
  std::vector<Json> h = LostRace();
  h.back() = {
      {"type", "footer"},
      {"verdicts",
       {{"violations",
         {{{"kind", "lost"},
           {"message", "acknowledged commit of job-A identifier 1 kind APPEND (told snapshot 1) is not in the table"},
           {"expected", true}},
          {{"kind", "lost_update"},
           {"message",
            "lost update: counter hits is 15, but 2 acknowledged increments of 5 from 10 make 20 (1 increment "
            "lost)"}}}}}}};
  Result<std::vector<Explanation>> x = ExplainHistory(h, Language::kChinese);
  ASSERT_EQ(x->size(), 3u);
  EXPECT_EQ(
      (*x)[1].lines[0],
      "检查器发现丢失的提交：已确认的提交（job-A，identifier 1，APPEND）不在表里（它被告知成为快照 1）（场景预期之中）");
  EXPECT_EQ((*x)[2].lines[0],
            "丢失更新：计数器 hits 是 15，但从 10 起 2 次已确认的增加（每次 5）应得 20（丢了 1 次增加）");
}

TEST(ExplainTest, TheTextCapsEachKindAndSaysHowManyMore) {
  std::vector<Json> h = LostRace();
  h.insert(h.end() - 1, h[5]);
  h.insert(h.end() - 1, h[5]);
  Result<std::vector<Explanation>> x = ExplainHistory(h);
  ASSERT_EQ(x->size(), 3u);
  const std::string text = ExplanationText(*x, 1);
  EXPECT_THAT(text, HasSubstr("why: job-B lost the race for snapshot #1 to job-A\n     job-B's attempt 1"));
  EXPECT_THAT(text, HasSubstr("why: … and 2 more lost-race explanation(s) like these\n"));
}

TEST(ExplainTest, ABrokenHistoryIsRefusedWithItsLine) {
  std::vector<Json> h = LostRace();
  h.erase(h.begin());
  EXPECT_EQ(ExplainHistory(h).status().message(), "line 1: not a commitlab history (no header)");
  std::vector<Json> other = {Json{{"type", "header"}, {"version", 1}}, Json{{"type", "x"}}};
  EXPECT_EQ(ExplainHistory(other).status().message(),
            "line 1: not a commitlab history (its header's format is missing, expected \"commitlab-history\")");
  h = LostRace();
  h[3].erase("type");
  EXPECT_EQ(ExplainHistory(h).status().message(), "line 4: an event without a type");
  h = LostRace();
  h[2]["plan"] = "not a plan";
  EXPECT_TRUE(ExplainHistory(h).ok());  // members of the wrong type are left out, not a crash
  h[5]["lost_to"] = 7;
  EXPECT_TRUE(ExplainHistory(h).ok());
}

}  // namespace
}  // namespace commitlab::sim
