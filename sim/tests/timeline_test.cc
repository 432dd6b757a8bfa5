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

}  // namespace
}  // namespace commitlab::sim
