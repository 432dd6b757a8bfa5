// An import written as a history (HistorySink), and what timeline and explain make of it: the
// header names the source, each commit is a publish at its own time, each finding follows its
// commit; the same log gives the same lines.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "commitlab/sim/explain.h"
#include "commitlab/sim/import/import_sinks.h"
#include "commitlab/sim/timeline.h"
#include "import_test_util.h"

namespace commitlab::sim::import {
namespace {

using ::testing::HasSubstr;

std::vector<Json> HistoryOf(const std::string& path) {
  History h;
  HistorySink sink(&h, {{"command", "import"}, {"argv", Json::array()}, {"settings", Json::object()}});
  EXPECT_TRUE(ImportLog({.path = path, .format = {}}, &sink).ok());
  std::vector<Json> lines;
  for (const std::string& l : h.lines()) lines.push_back(Json::parse(l));
  return lines;
}

TEST(ImportHistory, EachCommitIsAPublishAtItsOwnTime) {
  const std::vector<Json> h = HistoryOf(RealTable("delta/basic-with-inserts-deletes-checkpoint"));
  ASSERT_EQ(h.size(), 1 + 14 * 3 + 1u);
  EXPECT_EQ(h.front()["command"], "import");
  EXPECT_EQ(h.front()["source"]["format"], "delta");
  EXPECT_EQ(h.front()["source"]["origin_ms"], 1691426732135);
  EXPECT_EQ(h.front()["source"]["versions"]["last"], 13);
  const Json& published = h[3 * 13 + 3];
  EXPECT_EQ(published["type"], "published");
  EXPECT_EQ(published["snapshot"], 13);
  EXPECT_EQ(published["t_us"], (1691426743015 - 1691426732135) * 1000);
  EXPECT_EQ(published["kind"], "OVERWRITE");
  EXPECT_EQ(published["commit"]["commitInfo"]["readVersion"], 12);
  EXPECT_EQ(published["commit"]["remove"].size(), 2u);
  EXPECT_THAT(published["message"].get<std::string>(), HasSubstr("Committed delta #13 to "));
  EXPECT_EQ(h.back()["type"], "footer");
  EXPECT_EQ(h.back()["latest_snapshot"], 13);
  EXPECT_EQ(h.back()["tally"]["committed"], 14);
  EXPECT_EQ(h.back()["verdicts"]["ok"], true);
}

TEST(ImportHistory, FindingsFollowTheirCommitAndFailTheVerdict) {
  const std::vector<Json> h = HistoryOf(WrittenLog("delta-app-version"));
  size_t at = 0;
  for (size_t i = 0; i < h.size(); ++i)
    if (h[i].value("type", "") == "finding") {
      at = i;
      break;
    }
  ASSERT_GT(at, 0u);
  EXPECT_EQ(h[at - 1]["type"], "published");
  EXPECT_EQ(h[at - 1]["snapshot"], h[at]["snapshot"]);
  EXPECT_EQ(h[at]["severity"], "problem");
  EXPECT_EQ(h[at]["kind"], "app_version");
  EXPECT_EQ(h.back()["verdicts"]["ok"], false);
  EXPECT_EQ(h.back()["findings"]["problems"], 2);
  EXPECT_EQ(h.back()["findings"]["kinds"]["app_version"], 2);
}

TEST(ImportHistory, TheSameLogGivesTheSameLines) {
  const std::string path = RealTable("iceberg/iceberg_v2_delete_equality_partitioned");
  EXPECT_EQ(HistoryOf(path), HistoryOf(path));
}

TEST(ImportHistory, TheTimelineIsOnTheWallClockWithFindingsMarked) {
  Result<Timeline> t = BuildTimeline(HistoryOf(WrittenLog("iceberg-fork")));
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_TRUE(t->wall_clock);
  EXPECT_FALSE(t->by_step);
  EXPECT_EQ(t->clock_origin, "1970-01-01 00:00:01.000 UTC");
  EXPECT_EQ(t->chain.size(), 4u);
  EXPECT_EQ(t->x_max, 2500.0);  // v4 at 3500 ms, 2500 ms after v1
  ASSERT_EQ(t->marks.size(), 3u);
  for (const TimelineMark& m : t->marks) EXPECT_EQ(m.kind, "finding");
  EXPECT_THAT(TimelineSvg(*t), HasSubstr("wall-clock ms since 1970-01-01 00:00:01.000 UTC"));
}

TEST(ImportHistory, ExplainSaysEachFinding) {
  Result<std::vector<Explanation>> why = ExplainHistory(HistoryOf(WrittenLog("delta-concurrent")));
  ASSERT_TRUE(why.ok()) << why.status().message();
  ASSERT_EQ(why->size(), 2u);
  EXPECT_EQ((*why)[0].kind, "note");
  EXPECT_THAT((*why)[0].lines[0], HasSubstr("a note in the log (concurrent_commit) at version 2: "));
  EXPECT_EQ((*why)[0].lines[1], "the commits that show it: version 1, version 2");
}

}  // namespace
}  // namespace commitlab::sim::import
