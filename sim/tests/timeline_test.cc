#include "commitlab/sim/timeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace commitlab::sim {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Two writers race for snapshot 1: job-A publishes it, job-B loses, waits and takes snapshot 2.
std::vector<Json> Race() {
  std::vector<Json> h;
  h.push_back({{"type", "header"},
               {"format", kHistoryFormat},
               {"version", kHistoryVersion},
               {"scenario", {{"file", "r.scn"}, {"text", "# c\ntitle \"Two <jobs> race\"\n"}}}});
  auto ev = [&](Json e) { h.push_back(std::move(e)); };
  ev({{"type", "op_start"}, {"t_us", 0}, {"step", 1}, {"writer", "job-A"}, {"op", "read-latest"}});
  ev({{"type", "op_start"}, {"t_us", 0}, {"step", 2}, {"writer", "job-B"}, {"op", "read-latest"}});
  ev({{"type", "op_end"}, {"t_us", 1000}, {"step", 3}, {"writer", "job-A"}, {"op", "read-latest"}, {"saw", 0}});
  ev({{"type", "op_end"}, {"t_us", 1000}, {"step", 4}, {"writer", "job-B"}, {"op", "read-latest"}, {"saw", 0}});
  ev({{"type", "op_start"}, {"t_us", 1000}, {"step", 5}, {"writer", "job-A"}, {"op", "publish"}});
  ev({{"type", "op_start"}, {"t_us", 1000}, {"step", 6}, {"writer", "job-B"}, {"op", "publish"}});
  ev({{"type", "op_end"},
      {"t_us", 2000},
      {"step", 7},
      {"writer", "job-A"},
      {"op", "publish"},
      {"snapshot", 1},
      {"outcome", "published"}});
  ev({{"type", "published"}, {"t_us", 2000}, {"step", 7}, {"writer", "job-A"}, {"user", "job-A"}, {"snapshot", 1}});
  ev({{"type", "op_end"},
      {"t_us", 2500},
      {"step", 8},
      {"writer", "job-B"},
      {"op", "publish"},
      {"snapshot", 1},
      {"outcome", "lost"}});
  ev({{"type", "atomic_commit_failed"},
      {"t_us", 2500},
      {"step", 8},
      {"writer", "job-B"},
      {"lost_to", {{"snapshot", 1}, {"writer", "job-A"}, {"user", "job-A"}}}});
  ev({{"type", "retry_wait"},
      {"t_us", 2500},
      {"step", 9},
      {"writer", "job-B"},
      {"wait_us", 11000},
      {"base_us", 10000},
      {"jitter_us", 1000}});
  ev({{"type", "op_start"}, {"t_us", 13500}, {"step", 10}, {"writer", "job-B"}, {"op", "publish"}});
  ev({{"type", "op_end"},
      {"t_us", 14000},
      {"step", 11},
      {"writer", "job-B"},
      {"op", "publish"},
      {"snapshot", 2},
      {"outcome", "published"}});
  ev({{"type", "published"}, {"t_us", 14000}, {"step", 11}, {"writer", "job-B"}, {"user", "job-B"}, {"snapshot", 2}});
  ev({{"type", "conflict"},
      {"t_us", 14000},
      {"step", 12},
      {"writer", "job-A"},
      {"message", "File deletion conflicts detected! Give up committing.\n\nDon't panic!"}});
  h.push_back({{"type", "footer"}});
  return h;
}

TEST(TimelineTest, LanesSpansTheLostRaceAndTheChain) {
  Result<Timeline> t = BuildTimeline(Race());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->title, "Two <jobs> race");
  EXPECT_FALSE(t->by_step);  // the run took virtual time
  EXPECT_EQ(t->lanes, (std::vector<std::string>{"job-A", "job-B"}));
  ASSERT_EQ(t->spans.size(), 6u);  // 2 reads, 3 publishes, 1 wait
  ASSERT_EQ(t->arrows.size(), 1u);
  const TimelineArrow& a = t->arrows[0];
  EXPECT_EQ(t->spans[a.winner].lane, 0u);
  EXPECT_EQ(t->spans[a.winner].outcome, "published");
  EXPECT_EQ(t->spans[a.loser].outcome, "lost");
  EXPECT_EQ(a.label, "#1 taken by job-A");
  EXPECT_THAT(a.event, HasSubstr("\"lost_to\""));
  const TimelineSpan& wait = t->spans[4];
  EXPECT_EQ(wait.kind, "wait");
  EXPECT_DOUBLE_EQ(wait.x1 - wait.x0, 11.0);
  EXPECT_EQ(wait.tip, "job-B waits 11 ms = 10 ms + 1 ms jitter");
  ASSERT_EQ(t->chain.size(), 2u);
  EXPECT_EQ(t->chain[1].user, "job-B");
  ASSERT_EQ(t->marks.size(), 1u);
  EXPECT_EQ(t->marks[0].tip, "job-A: File deletion conflicts detected! Give up committing.");
  EXPECT_DOUBLE_EQ(t->x_max, 14.0);
}

TEST(TimelineTest, ARunWithoutVirtualTimeIsDrawnByScheduleSteps) {
  std::vector<Json> h = Race();
  for (Json& e : h)
    if (e.contains("t_us")) e["t_us"] = 0;
  Result<Timeline> t = BuildTimeline(h);
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->by_step);
  EXPECT_DOUBLE_EQ(t->x_max, 12.0);
  EXPECT_TRUE(BuildTimeline(Race(), TimelineAxis::kStep)->by_step);
}

TEST(TimelineTest, TheSvgEscapesTextAndCarriesEveryEvent) {
  const std::string svg = TimelineSvg(*BuildTimeline(Race()));
  EXPECT_THAT(svg, HasSubstr("Two &lt;jobs&gt; race"));
  EXPECT_THAT(svg, Not(HasSubstr("<jobs>")));
  EXPECT_THAT(svg, HasSubstr("<title>#1 taken by job-A</title>"));
  EXPECT_THAT(svg, HasSubstr("class=\"el span publish lost\""));
  EXPECT_THAT(svg, HasSubstr("fill=\"url(#hatch)\""));
  EXPECT_THAT(svg, HasSubstr("&quot;outcome&quot;:&quot;lost&quot;"));  // the event, for the page's pane
  size_t elements = 0;
  for (size_t at = svg.find("class=\"el "); at != std::string::npos; at = svg.find("class=\"el ", at + 1)) ++elements;
  EXPECT_EQ(elements, 6u + 1u + 1u + 2u);  // spans, marks, arrows, snapshots
}

TEST(TimelineTest, TheHtmlPageNeedsNoNetwork) {
  const std::string html = TimelineHtml(*BuildTimeline(Race()));
  EXPECT_THAT(html, HasSubstr("<svg"));
  EXPECT_THAT(html, Not(HasSubstr("src=\"http")));
  EXPECT_THAT(html, Not(HasSubstr("href=\"http")));
  EXPECT_THAT(html, HasSubstr("2 writer(s), 6 span(s), 1 lost race(s) (1 with the winner drawn), 2 snapshot(s)"));
}

TEST(TimelineTest, AWriterHeldAtAnOrderLineWaitsInADashedSpanWithAnArrowFromTheOtherWriter) {
  std::vector<Json> h = Race();
  h.insert(h.begin() + 1, Json({{"type", "gate_wait"},
                                {"t_us", 0},
                                {"step", 0},
                                {"writer", "job-B"},
                                {"order", "job-A.read -> job-B.read"},
                                {"line", 9}}));
  h.insert(h.begin() + 4, Json({{"type", "gate_open"},
                                {"t_us", 1000},
                                {"step", 3},
                                {"writer", "job-B"},
                                {"order", "job-A.read -> job-B.read"},
                                {"line", 9}}));
  // An edge from a point no writer is named by (here a misspelt one) has no arrow, but the wait still shows.
  h.insert(h.begin() + 5, Json({{"type", "gate_wait"},
                                {"t_us", 1000},
                                {"step", 3},
                                {"writer", "job-A"},
                                {"order", "nobody.read -> job-A.publish"},
                                {"line", 10}}));
  h.insert(h.begin() + 6, Json({{"type", "gate_open"},
                                {"t_us", 1000},
                                {"step", 3},
                                {"writer", "job-A"},
                                {"order", "nobody.read -> job-A.publish"},
                                {"line", 10}}));
  Result<Timeline> t = BuildTimeline(h);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->gates.size(), 1u);
  EXPECT_EQ(t->lanes[t->gates[0].from_lane], "job-A");
  EXPECT_EQ(t->lanes[t->gates[0].to_lane], "job-B");
  EXPECT_EQ(t->gates[0].label, "order job-A.read -> job-B.read (line 9)");
  size_t held = 0;
  for (const TimelineSpan& s : t->spans) {
    if (s.kind != "gate") continue;
    ++held;
    EXPECT_EQ(s.tip, "job-B waits: order job-A.read -> job-B.read (line 9)");
    EXPECT_EQ(s.x1 - s.x0, 1.0);  // 1 ms held; job-A's gate opened at once and draws no span
  }
  EXPECT_EQ(held, 1u);
  EXPECT_THAT(TimelineSvg(*t), HasSubstr("class=\"el order\""));
}

TEST(TimelineTest, AWaitIsLabelledWithThePolicysFormula) {
  std::vector<Json> h = Race();
  h[0]["plan"] = {{"retry", "paimon"}};
  h[11]["attempt"] = 1;  // the retry_wait after job-B's first loss
  Result<Timeline> t = BuildTimeline(h);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->spans[4].tip, "job-B waits 11 ms = 10 ms × 2^0 + 1 ms jitter");
}

TEST(TimelineTest, AWinnerRecordedAfterTheLoserStillGetsItsArrow) {
  std::vector<Json> h = Race();
  // job-A's publish op_end (and its published event) after job-B's loss, at the same instant.
  std::swap(h[7], h[9]);
  std::swap(h[8], h[10]);
  Result<Timeline> t = BuildTimeline(h);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->lost_races, 1u);
  ASSERT_EQ(t->arrows.size(), 1u);
  EXPECT_EQ(t->spans[t->arrows[0].winner].outcome, "published");
}

TEST(TimelineTest, AnOperationThatNeverEndedIsDrawnUnfinishedAndAMissingFooterWarned) {
  std::vector<Json> h = Race();
  h.pop_back();  // the footer
  h.push_back({{"type", "op_start"}, {"t_us", 14000}, {"step", 13}, {"writer", "job-A"}, {"op", "publish"}});
  Result<Timeline> t = BuildTimeline(h);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->spans.size(), 7u);
  EXPECT_EQ(t->spans.back().outcome, "unfinished");
  EXPECT_EQ(t->spans.back().tip, "job-A publish: never ended");
  ASSERT_EQ(t->warnings.size(), 1u);
}

TEST(TimelineTest, MembersOfTheWrongTypeAreRefusedNotACrash) {
  std::vector<Json> h = Race();
  h[3]["t_us"] = "late";
  EXPECT_EQ(BuildTimeline(h).status().code(), Code::kInvalidArgument);
  h = Race();
  h[1]["op"] = 7;  // an op_start
  EXPECT_EQ(BuildTimeline(h).status().code(), Code::kInvalidArgument);
  h = Race();
  h[3].erase("type");
  EXPECT_EQ(BuildTimeline(h).status().message(), "line 4: an event without a type");
  h = Race();
  h[3]["type"] = 12;  // looked at before the lines are checked, to choose the axis
  EXPECT_EQ(BuildTimeline(h).status().message(), "line 4: an event without a type");
  h = Race();
  h[0]["scenario"]["text"] = 5;
  EXPECT_TRUE(BuildTimeline(h).ok());  // no title then: the default one
}

TEST(TimelineTest, ControlCharactersNeverReachTheSvg) {
  std::vector<Json> h = Race();
  for (Json& e : h)
    if (e.contains("writer") && e["writer"] == "job-B")
      e["writer"] =
          "job\x01"
          "B";
  h[15]["message"] = "two\tparts";
  const std::string svg = TimelineSvg(*BuildTimeline(h));
  EXPECT_THAT(svg, Not(HasSubstr("\x01")));
  EXPECT_THAT(svg, HasSubstr("job\uFFFDB"));
}

TEST(TimelineTest, ABrokenHistoryIsRefusedWithItsLine) {
  std::vector<Json> h = Race();
  h.erase(h.begin());
  EXPECT_EQ(BuildTimeline(h).status().message(), "line 1: not a commitlab history (no header)");
  // A JSON Lines file of another program, or of a later format version, is refused by name.
  std::vector<Json> other = {Json{{"type", "header"}, {"format", "otel-trace"}, {"version", 1}}, Json{{"type", "x"}}};
  EXPECT_EQ(BuildTimeline(other).status().message(),
            "line 1: not a commitlab history (its header's format is \"otel-trace\", expected \"commitlab-history\")");
  std::vector<Json> later = {Json{{"type", "header"}, {"format", "commitlab-history"}, {"version", 99}},
                             Json{{"type", "x"}}};
  EXPECT_EQ(BuildTimeline(later).status().message(),
            "line 1: history format version 99 is not one this build reads (1)");
  h = Race();
  h.erase(h.begin() + 1);  // job-A's first op_start
  EXPECT_EQ(BuildTimeline(h).status().message(), "line 3: an op_end without its op_start");
  h = Race();
  h[2].erase("writer");
  EXPECT_EQ(BuildTimeline(h).status().message(), "line 3: an event without a writer");
}

// Two Paimon tables (two writers each): lanes grouped by table, one snapshots row per table.
std::vector<Json> TwoTables() {
  std::vector<Json> h;
  h.push_back(
      {{"type", "header"},
       {"format", kHistoryFormat},
       {"version", kHistoryVersion},
       {"scenario",
        {{"file", "t.scn"},
         {"text",
          "title \"Two tables\"\ntitle.zh \"两张表\"\ntable name=a protocol=paimon\ntable name=b protocol=paimon\n"
          "writer name=a1 table=a\nwriter name=b1 table=b\nwriter name=a2 table=a\n"}}}});
  int64_t step = 0;
  auto publish = [&](const std::string& w, int64_t id) {
    h.push_back({{"type", "op_start"}, {"t_us", 0}, {"step", ++step}, {"writer", w}, {"op", "publish"}});
    h.push_back({{"type", "op_end"},
                 {"t_us", 0},
                 {"step", ++step},
                 {"writer", w},
                 {"op", "publish"},
                 {"snapshot", id},
                 {"outcome", "published"}});
  };
  publish("b1", 1);  // b1 appears first, but table a's writers come first
  publish("a1", 1);
  publish("a2", 2);
  h.push_back({{"type", "footer"}});
  return h;
}

TEST(TimelineTest, LanesAreGroupedByTableEachWithItsOwnSnapshots) {
  Result<Timeline> t = BuildTimeline(TwoTables());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->lanes, (std::vector<std::string>{"a1", "a2", "b1"}));
  ASSERT_EQ(t->tables.size(), 2u);
  EXPECT_EQ(t->tables[0].lanes, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(t->tables[1].lanes, (std::vector<size_t>{2}));
  ASSERT_EQ(t->chain.size(), 3u);
  EXPECT_EQ(t->chain[0].table, 1u);  // b's snapshot 1
  EXPECT_EQ(t->chain[1].table, 0u);
  const std::string svg = TimelineSvg(*t);
  EXPECT_THAT(svg, HasSubstr("table a (paimon)"));
  EXPECT_THAT(svg, HasSubstr("data-table=\"1\""));
  Result<Timeline> zh = BuildTimeline(TwoTables(), TimelineOptions{.language = Language::kChinese});
  EXPECT_EQ(zh->title, "两张表");
  EXPECT_THAT(TimelineSvg(*zh), HasSubstr("表 a（paimon）"));
}

TEST(TimelineTest, TheStepperShowsEachTablesLatestSnapshotAsTheStoreHasIt) {
  Result<Timeline> t = BuildTimeline(Race());
  ASSERT_TRUE(t.ok());
  // steps[0] is every row before the first event; then one step per scheduler step, and the footer.
  ASSERT_EQ(t->steps.size(), 1u + 12u + 1u);
  EXPECT_EQ(t->steps_total, t->steps.size() - 1);
  EXPECT_EQ(t->steps[0].writers.size(), 2u);
  EXPECT_EQ(t->steps[0].tables.size(), 1u);
  EXPECT_THAT(t->steps[0].tables[0].second, HasSubstr("no snapshot yet"));
  // Step 7: job-A's publish of snapshot 1 took effect; the table says so at once.
  const TimelineStep& seven = t->steps[7];
  EXPECT_EQ(seven.step, 7);
  ASSERT_EQ(seven.tables.size(), 1u);
  EXPECT_THAT(seven.tables[0].second, HasSubstr("latest snapshot #1"));
  EXPECT_THAT(seven.said, ::testing::Contains(HasSubstr("job-A's publish took effect")));
  // Step 8: job-B lost snapshot 1, and its row says to whom.
  const TimelineStep& eight = t->steps[8];
  ASSERT_EQ(eight.writers.size(), 1u);
  EXPECT_EQ(eight.writers[0].first, 1u);
  EXPECT_THAT(eight.said, ::testing::Contains("job-B lost the race for snapshot #1 to job-A"));
  // Step 9: the wait, and what job-B waits for.
  EXPECT_THAT(t->steps[9].writers[0].second, HasSubstr("its retry wait, until 13.5 ms"));
  // The page carries them.
  EXPECT_THAT(TimelineHtml(*t), HasSubstr("job-B lost the race for snapshot #1 to job-A"));
}

TEST(TimelineTest, TheStepperStopsAtItsLimitAndSaysSo) {
  Result<Timeline> t = BuildTimeline(Race(), TimelineOptions{.max_steps = 3});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->steps.size(), 4u);
  EXPECT_EQ(t->steps_total, 13u);
}

TEST(TimelineTest, ARefusalIsLinkedToTheSnapshotThatCausedIt) {
  std::vector<Json> h = Race();
  h[15]["culprit"] = {{"snapshot", 2},
                      {"writer", "job-B"},
                      {"user", "job-B"},
                      {"change", "removed"},
                      {"file", "data-bf08119f-05cd-56d6-2f47-184b86186fa4-0.parquet"}};
  Result<Timeline> t = BuildTimeline(h);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->causes.size(), 1u);
  EXPECT_EQ(t->chain[t->causes[0].snapshot].id, 2);
  EXPECT_EQ(t->causes[0].mark, 0u);
  EXPECT_EQ(t->causes[0].label, "caused by #2: job-B removed data-bf08119f…-0.parquet");
  EXPECT_THAT(TimelineSvg(*t), HasSubstr("class=\"el cause\""));
}

// worker-b read the counter at v1, worker-a committed v2, worker-b's stale 15 landed as v3.
std::vector<Json> LostUpdate() {
  std::vector<Json> h;
  h.push_back({{"type", "header"},
               {"format", kHistoryFormat},
               {"version", kHistoryVersion},
               {"scenario", {{"file", "c.scn"}, {"text", "title \"c\"\ntable name=c protocol=iceberg\n"}}}});
  int64_t step = 0;
  auto counter = [&](const std::string& w, const char* action, int64_t value) {
    h.push_back({{"type", "step_end"},
                 {"t_us", 0},
                 {"step", ++step},
                 {"writer", w},
                 {"status", "ok"},
                 {"counter", {{"action", action}, {"key", "hits"}, {"read", 10}, {"read_at", 1}, {"value", value}}}});
  };
  auto publish = [&](const std::string& w, int64_t id) {
    h.push_back({{"type", "op_start"}, {"t_us", 0}, {"step", ++step}, {"writer", w}, {"op", "publish"}});
    h.push_back({{"type", "op_end"},
                 {"t_us", 0},
                 {"step", ++step},
                 {"writer", w},
                 {"op", "publish"},
                 {"snapshot", id},
                 {"outcome", "published"}});
  };
  counter("worker-b", "read", 10);
  counter("worker-a", "read", 10);
  publish("worker-a", 2);
  counter("worker-a", "commit", 15);
  publish("worker-b", 3);
  counter("worker-b", "commit", 15);
  h.push_back({{"type", "footer"},
               {"verdicts", {{"violations", {{{"kind", "lost_update"}, {"message", "lost update: ..."}}}}}}});
  return h;
}

TEST(TimelineTest, ALostUpdateIsDrawnAsTheStaleReadAndTheOverwrite) {
  Result<Timeline> t = BuildTimeline(LostUpdate());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->lost_updates.size(), 1u);
  const TimelineLostUpdate& l = t->lost_updates[0];
  EXPECT_EQ(t->lanes[l.lane], "worker-b");
  EXPECT_EQ(t->chain[l.overwrite].id, 3);
  EXPECT_EQ(t->chain[l.overwritten].id, 2);
  EXPECT_EQ(l.label, "lost update: worker-b's 15 (v3) overwrote worker-a's 15 (v2) unseen; it read v1");
  EXPECT_THAT(TimelineSvg(*t), HasSubstr("class=\"el lost-update\""));
  // Without the checker's finding nothing is drawn: the same commits after a re-read are no loss.
  std::vector<Json> h = LostUpdate();
  h.back().erase("verdicts");
  EXPECT_TRUE(BuildTimeline(h)->lost_updates.empty());
}

TEST(TimelineTest, PastTheDetailLimitTheLanesAreBinned) {
  Result<Timeline> t = BuildTimeline(Race(), TimelineOptions{.detail_spans_per_lane = 2, .bins = 100});
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->aggregated);
  EXPECT_TRUE(t->spans.empty());
  EXPECT_EQ(t->spans_total, 6u);
  EXPECT_EQ(t->bins, 100u);
  uint32_t ops = 0, won = 0, lost = 0, waits = 0;
  for (const std::vector<TimelineBin>& lane : t->lane_bins) {
    for (const TimelineBin& b : lane) {
      ops += b.ops, won += b.won, lost += b.lost, waits += b.waits;
      EXPECT_LE(b.busy, 1.0);
    }
  }
  EXPECT_EQ(ops, 5u);  // 2 reads, 3 publishes
  EXPECT_EQ(won, 2u);
  EXPECT_EQ(lost, 1u);
  EXPECT_EQ(waits, 1u);
  uint32_t snapshots = 0;
  for (const TimelineChainBin& b : t->chain_bins[0]) snapshots += b.count;
  EXPECT_EQ(snapshots, 2u);
  EXPECT_THAT(TimelineSvg(*t), HasSubstr("class=\"el bin\""));
  EXPECT_THAT(TimelineHtml(*t), HasSubstr("\"bins\":{\"n\":100"));
}

TEST(TimelineTest, SeveralLosersOfOnePublishAreOneBundledArrow) {
  std::vector<Json> h = Race();
  // job-C also lost snapshot 1 to job-A.
  h.insert(h.begin() + 10,
           Json({{"type", "op_start"}, {"t_us", 1000}, {"step", 8}, {"writer", "job-C"}, {"op", "publish"}}));
  h.insert(h.begin() + 11, Json({{"type", "op_end"},
                                 {"t_us", 2600},
                                 {"step", 8},
                                 {"writer", "job-C"},
                                 {"op", "publish"},
                                 {"snapshot", 1},
                                 {"outcome", "lost"}}));
  h.insert(h.begin() + 12, Json({{"type", "atomic_commit_failed"},
                                 {"t_us", 2600},
                                 {"step", 8},
                                 {"writer", "job-C"},
                                 {"lost_to", {{"snapshot", 1}, {"writer", "job-A"}, {"user", "job-A"}}}}));
  Result<Timeline> t = BuildTimeline(h);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->arrows.size(), 2u);
  const std::string svg = TimelineSvg(*t);
  EXPECT_THAT(svg, HasSubstr("class=\"el arrow bundle\" data-n=\"2\""));
  EXPECT_THAT(svg, HasSubstr("#1 taken by job-A: 2 lost it (job-B, job-C)"));
}

TEST(TimelineTest, InChineseTheTipsAndThePageAreChinese) {
  Result<Timeline> t = BuildTimeline(Race(), TimelineOptions{.language = Language::kChinese});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->arrows[0].label, "#1 被 job-A 抢到");
  EXPECT_EQ(t->spans[4].tip, "job-B 等待 11 ms = 10 ms + 1 ms 抖动");
  const std::string html = TimelineHtml(*t);
  EXPECT_THAT(html, HasSubstr("<html lang=\"zh\">"));
  EXPECT_THAT(html, HasSubstr("job-B 抢快照 #1 失败，被 job-A 抢到"));
  EXPECT_THAT(html, HasSubstr("虚拟时间（ms）"));
}

TEST(TimelineTest, AScriptEndInTheDataCannotEndThePagesScript) {
  std::vector<Json> h = Race();
  h[15]["message"] = "</script><script>alert(1)</script>";
  const std::string html = TimelineHtml(*BuildTimeline(h));
  const size_t data = html.find("id=\"data\">");
  ASSERT_NE(data, std::string::npos);
  EXPECT_EQ(html.find("</script>", data), html.find("</script>\n<script>", data));
}

}  // namespace
}  // namespace commitlab::sim
