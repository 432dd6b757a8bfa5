#include "commitlab/report/line_chart.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
  EXPECT_EQ(tags.count.at("polyline"), 2);
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

}  // namespace
}  // namespace commitlab::report
