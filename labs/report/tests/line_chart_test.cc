#include "commitlab/report/line_chart.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace commitlab::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Checks that every tag is closed in order (a tiny XML well-formedness check) and counts elements.
struct TagCount {
  bool balanced = true;
  std::string root = {};
  std::map<std::string, int> count = {};
};

TagCount ParseTags(const std::string& svg) {
  TagCount out;
  std::vector<std::string> open;
  for (size_t at = svg.find('<'); at != std::string::npos; at = svg.find('<', at + 1)) {
    const size_t end = svg.find('>', at);
    if (end == std::string::npos) return {.balanced = false};
    std::string tag = svg.substr(at + 1, end - at - 1);
    if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) out.balanced = false;
      if (!open.empty()) open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    const std::string name = tag.substr(0, tag.find_first_of(" /"));
    if (out.root.empty()) out.root = name;
    ++out.count[name];
    if (!self_closing) open.push_back(name);
  }
  if (!open.empty()) out.balanced = false;
  return out;
}

TEST(SvgTest, WellFormedWithOneLinePerSeriesAndEscapedText) {
  LineChart chart{.title = "calls <&> \"quotes\"",
                  .x_label = "N",
                  .y_label = "calls",
                  .series = {{"none", {{10, 50}, {20, 200}, {30, 450}}}, {"a<b", {{10, 40}, {20, 90}, {30, 140}}}}};
  const std::string svg = RenderLineChartSvg(chart);
  const TagCount tags = ParseTags(svg);
  EXPECT_TRUE(tags.balanced) << svg;
  EXPECT_EQ(tags.root, "svg");
  EXPECT_EQ(tags.count.at("svg"), 1);
  EXPECT_EQ(tags.count.at("path"), 2);  // one solid line each
  EXPECT_EQ(tags.count.count("polygon"), 0u);
  EXPECT_EQ(tags.count.at("circle"), 6);
  EXPECT_THAT(svg, HasSubstr("calls &lt;&amp;&gt; &quot;quotes&quot;"));
  EXPECT_THAT(svg, HasSubstr(">a&lt;b</text>"));
  EXPECT_THAT(svg, Not(HasSubstr("a<b")));
  EXPECT_THAT(svg, HasSubstr("xmlns=\"http://www.w3.org/2000/svg\""));
}

TEST(SvgTest, LogAxesLeaveOutNonPositivePointsAndEmptyChartsStillRender) {
  LineChart chart{.title = "t", .log_x = true, .log_y = true, .series = {{"s", {{0, 1}, {2, 10}, {4, 0}, {8, 1000}}}}};
  const std::string svg = RenderLineChartSvg(chart);
  EXPECT_TRUE(ParseTags(svg).balanced);
  EXPECT_EQ(ParseTags(svg).count.at("circle"), 2);
  EXPECT_THAT(svg, Not(HasSubstr("nan")));
  EXPECT_THAT(svg, Not(HasSubstr("inf")));

  const std::string empty = RenderLineChartSvg(LineChart{.title = "nothing"});
  EXPECT_TRUE(ParseTags(empty).balanced);
  EXPECT_THAT(empty, Not(HasSubstr("nan")));
}

// The value of attribute `name` in each element whose text starts with `prefix`.
std::vector<std::string> Attributes(const std::string& svg, const std::string& prefix, const std::string& name) {
  std::vector<std::string> out;
  for (size_t at = svg.find(prefix); at != std::string::npos; at = svg.find(prefix, at + 1)) {
    const size_t end = svg.find('>', at);
    const size_t a = svg.find(" " + name + "=\"", at);
    if (a == std::string::npos || a > end) continue;
    const size_t v = a + name.size() + 3;
    out.push_back(svg.substr(v, svg.find('"', v) - v));
  }
  return out;
}

TEST(SvgTest, HollowPointsAreDrawnHollowWithDashedLinesIntoAndOutOfThem) {
  LineChart chart{
      .title = "t",
      .series = {
          {.name = "iceberg", .points = {{10, 1}, {20, 2}, {30, 3}, {40, 4}}, .hollow = {false, false, true, false}}}};
  const std::string svg = RenderLineChartSvg(chart);
  EXPECT_TRUE(ParseTags(svg).balanced) << svg;
  EXPECT_EQ(Attributes(svg, "<circle", "fill"), std::vector<std::string>{"white"});  // only the hollow one
  const std::vector<std::string> dashes = Attributes(svg, "<path", "stroke-dasharray");
  ASSERT_EQ(dashes.size(), 1u);
  // Solid: 10 -> 20; dashed: 20 -> 30 and 30 -> 40.
  const std::vector<std::string> paths = Attributes(svg, "<path", "d");
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(std::count(paths[0].begin(), paths[0].end(), 'M'), 1);
  EXPECT_EQ(std::count(paths[1].begin(), paths[1].end(), 'M'), 2);
}

TEST(SvgTest, BandsWidenTheAxisAndAreOnePolygonPerSeries) {
  LineChart chart{.title = "t",
                  .series = {{.name = "a", .points = {{1, 10}, {2, 20}}, .band = {{5, 15}, {12, 90}}},
                             {.name = "b", .points = {{1, 11}, {2, 21}}}}};
  const std::string svg = RenderLineChartSvg(chart);
  EXPECT_TRUE(ParseTags(svg).balanced) << svg;
  EXPECT_EQ(ParseTags(svg).count.at("polygon"), 1);
  // The band's 90 is above every point: the y axis reaches it (the top tick label is 90 or more).
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"end\">100</text>"));
  EXPECT_THAT(Attributes(svg, "<polygon", "points").front(), Not(HasSubstr("nan")));
}

TEST(SvgTest, GivenXTicksAreTheOnlyXTicksAndMarkersAreLabelled) {
  LineChart chart{.title = "t",
                  .x_label = "appenders",
                  .log_x = true,
                  .series = {{"s", {{2, 1}, {8, 2}, {64, 3}}}},
                  .x_ticks = {2, 8, 64, 1000},  // 1000 is outside the data: left out
                  .markers = {{.x = 2, .label = "lecture: 2 writers"}, {.x = 5000, .label = "outside"}},
                  .notes = {"hollow: writers gave up"}};
  const std::string svg = RenderLineChartSvg(chart);
  EXPECT_TRUE(ParseTags(svg).balanced) << svg;
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"middle\">2</text>"));
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"middle\">8</text>"));
  EXPECT_THAT(svg, HasSubstr("text-anchor=\"middle\">64</text>"));
  EXPECT_THAT(svg, Not(HasSubstr(">10</text>")));  // no automatic decade tick
  EXPECT_THAT(svg, Not(HasSubstr(">1000</text>")));
  EXPECT_THAT(svg, HasSubstr(">lecture: 2 writers</text>"));
  EXPECT_THAT(svg, Not(HasSubstr("outside")));
  EXPECT_THAT(svg, HasSubstr(">hollow: writers gave up</text>"));
}

}  // namespace
}  // namespace commitlab::report
