// The history's lines: the header, events with the four common members first, the footer, the
// engine events' plan / retry / cause members, what a failed stream says, and the comparison
// replay uses.
#include "commitlab/sim/history.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "commitlab/sim/history_diff.h"

namespace commitlab::sim {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(HistoryTest, LinesHaveTheirTypeFirstAndTheCommonMembersInOrder) {
  std::ostringstream out;
  History h(&out);
  h.Header({{"command", "run"}, {"settings", {{"seed", 7}}}});
  int64_t step = 41;
  h.set_step_source([&step] { return ++step; });
  h.Record("op_start", 1500, "job-A", {{"op", "publish"}});
  h.set_step_source({});
  h.Record("published", 2500, "job-B", {{"snapshot", 3}});
  h.Footer({{"schedule", nullptr}});
  EXPECT_EQ(out.str(),
            R"({"type":"header","format":"commitlab-history","version":1,"command":"run","settings":{"seed":7}})"
            "\n"
            R"({"type":"op_start","t_us":1500,"step":42,"writer":"job-A","op":"publish"})"
            "\n"
            R"({"type":"published","t_us":2500,"step":null,"writer":"job-B","snapshot":3})"
            "\n"
            R"({"type":"footer","schedule":null})"
            "\n");
  EXPECT_TRUE(h.status().ok());
}

// Event lines reach the stream in pieces; Flush, the footer and the end of the history write
// what is pending, so that nothing recorded is left out.
TEST(HistoryTest, FlushAndTheEndOfTheHistoryWriteEveryLine) {
  const std::string line = R"({"type":"fault","t_us":0,"step":null,"writer":"w","point":"publish.after"})"
                           "\n";
  std::ostringstream out;
  {
    History h(&out);
    h.Record("fault", 0, "w", {{"point", "publish.after"}});
    h.Flush();
    EXPECT_EQ(out.str(), line);
    h.Record("fault", 0, "w", {{"point", "publish.after"}});
  }
  EXPECT_EQ(out.str(), line + line);
  std::ostringstream many;
  {
    History h(&many);
    for (int i = 0; i < 1000; ++i) h.Record("fault", 0, "w", {{"point", "publish.after"}});
  }
  EXPECT_EQ(many.str().size(), 1000 * line.size());
}

TEST(HistoryTest, BufferModeKeepsTheLines) {
  History h;
  h.Record("fault", 0, "w", {{"point", "publish.after"}});
  EXPECT_THAT(h.lines(), ElementsAre(R"({"type":"fault","t_us":0,"step":null,"writer":"w","point":"publish.after"})"));
}

TEST(HistoryTest, AFailedStreamIsReportedNotHidden) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  History h(&out);
  h.Footer({});
  EXPECT_FALSE(h.status().ok());
}

TEST(HistoryTest, InvalidUtf8IsReplacedNotThrown) {
  History h;
  h.Record("error", 0, "w", {{"message", std::string("bad \xff byte")}});
  ASSERT_EQ(h.lines().size(), 1u);
  EXPECT_TRUE(ParseHistoryLine(h.lines()[0], 1).ok());
}

TEST(EventFieldsTest, AnAttemptCarriesItsPlan) {
  const std::vector<FileChange> changes = {{ChangeKind::kDelete, {.name = "f0"}}, {ChangeKind::kAdd, {.name = "f1"}}};
  Event e{.type = EventType::kAttempt,
          .user = "job-A",
          .identifier = 3,
          .attempt = 2,
          .snapshot_id = 6,
          .message = "Try to commit",
          .base_snapshot = 5,
          .changes = &changes};
  const Json f = EventFields(e);
  EXPECT_EQ(f["plan"], Json({{"base", 5}, {"add", {"f1"}}, {"delete", {"f0"}}}));
  EXPECT_EQ(f["snapshot"], 6);
  EXPECT_EQ(f.items().begin().key(), "level");
  EXPECT_EQ(f["message"], "Try to commit");
}

TEST(EventFieldsTest, ARetryWaitCarriesThePolicysInputs) {
  Event e{
      .type = EventType::kRetryWait, .wait_micros = 11'000, .wait_base_micros = 10'000, .wait_jitter_micros = 1'000};
  const Json f = EventFields(e);
  EXPECT_EQ(f["wait_us"], 11'000);
  EXPECT_EQ(f["base_us"], 10'000);
  EXPECT_EQ(f["jitter_us"], 1'000);
}

TEST(EventFieldsTest, AConflictCarriesItsCause) {
  const EventCause cause{.kind = CauseKind::kValidation, .files = {"data/a.parquet"}, .snapshot = 2, .by = "writer-1"};
  const Json f = EventFields({.type = EventType::kConflict, .cause = &cause});
  EXPECT_EQ(f["cause"],
            Json({{"kind", "validation"}, {"files", {"data/a.parquet"}}, {"snapshot", 2}, {"by", "writer-1"}}));
  EXPECT_FALSE(EventFields({.type = EventType::kConflict}).contains("cause"));
}

TEST(Sha256Test, KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 56 bytes: the padding needs a second block.
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000, 'a')), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST(HistoryDiffTest, ComparesValuesNotText) {
  const std::vector<Json> a = {Json::parse(R"({"type":"x","t_us":1,"n":1.0})"), Json::parse(R"({"type":"y"})")};
  const std::vector<Json> b = {Json::parse(R"({"t_us":1,"type":"x","n":1.0})"), Json::parse(R"({"type":"y"})")};
  EXPECT_FALSE(FirstDifference(a, b).has_value());
}

TEST(HistoryDiffTest, NamesTheFirstDifferenceAndAShorterSide) {
  const std::vector<Json> a = {Json::parse(R"({"type":"x"})"), Json::parse(R"({"type":"published","snapshot":5})")};
  const std::vector<Json> b = {Json::parse(R"({"type":"x"})"), Json::parse(R"({"type":"published","snapshot":6})")};
  std::optional<HistoryDifference> d = FirstDifference(a, b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->index, 1u);
  EXPECT_EQ(DescribeChangedMembers(*d->recorded, *d->replayed), "snapshot: 5 -> 6");
  std::optional<HistoryDifference> shorter = FirstDifference(a, {a[0]});
  ASSERT_TRUE(shorter.has_value());
  EXPECT_EQ(shorter->index, 1u);
  EXPECT_FALSE(shorter->replayed.has_value());
}

// A replay must notice a change in any line, whatever its type: a comparison that skipped one kind
// of event would let a replay that departs there pass as identical.
TEST(HistoryDiffTest, AChangeInALineOfEveryTypeIsFound) {
  const std::vector<std::string> types = {"attempt",
                                          "published",
                                          "atomic_commit_failed",
                                          "unknown_outcome",
                                          "idempotent_match",
                                          "conflict",
                                          "retry_wait",
                                          "gave_up",
                                          "crashed",
                                          "filtered",
                                          "error",
                                          "op_start",
                                          "op_end",
                                          "step_start",
                                          "step_end",
                                          "gate_wait",
                                          "gate_open",
                                          "fault",
                                          "footer"};
  for (const std::string& type : types) {
    std::vector<Json> a = {Json{{"type", "op_start"}, {"step", 1}}, Json{{"type", type}, {"step", 2}, {"writer", "w"}},
                           Json{{"type", "op_end"}, {"step", 3}}};
    std::vector<Json> b = a;
    b[1]["writer"] = "v";
    std::optional<HistoryDifference> d = FirstDifference(a, b);
    ASSERT_TRUE(d.has_value()) << type;
    EXPECT_EQ(d->index, 1u) << type;
    b = a;
    b.erase(b.begin() + 1);  // the line left out altogether
    d = FirstDifference(a, b);
    ASSERT_TRUE(d.has_value()) << type;
    EXPECT_EQ(d->index, 1u) << type;
  }
}

TEST(HistoryDiffTest, DescribesALineForAPerson) {
  const Json line =
      Json::parse(R"({"type":"atomic_commit_failed","t_us":31000,"step":412,"writer":"job-B","attempt":2,"snapshot":5,)"
                  R"("lost_to":{"snapshot":5,"user":"job-A","writer":"job-A"}})");
  EXPECT_EQ(DescribeHistoryLine(line),
            "step 412  t=0.031000s  job-B  atomic_commit_failed  attempt 2  snapshot 5  (lost to job-A)");
}

}  // namespace
}  // namespace commitlab::sim
