// Where the timeline's parts go (sim/timeline.h): shared by the SVG (timeline_render.cc) and the
// page around it (timeline_page.cc), whose script moves and redraws what the SVG placed.
#ifndef COMMITLAB_SIM_SRC_TIMELINE_LAYOUT_H_
#define COMMITLAB_SIM_SRC_TIMELINE_LAYOUT_H_

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/sim/timeline.h"

namespace commitlab::sim {

inline constexpr double kLeft = 140;  // lane names
inline constexpr double kTop = 96;    // title, two rows of legend and the axis
inline constexpr double kPlotWidth = 1100;
inline constexpr double kLaneHeight = 34;
inline constexpr double kSpanHeight = 20;
inline constexpr double kTableHeader = 20;  // a table's name above its lanes
inline constexpr int kTicks = 10;

// The rows of the drawing: each table's name, its lanes, then its snapshots.
struct TimelineLayout {
  explicit TimelineLayout(const Timeline& t) : lane_y(t.lanes.size(), kTop), chain_y(t.tables.size(), kTop) {
    const bool headers = t.tables.size() > 1 || (!t.tables.empty() && !t.tables.front().name.empty());
    double y = kTop;
    for (size_t i = 0; i < t.tables.size(); ++i) {
      header_y.push_back(y);
      if (headers) y += kTableHeader;
      for (size_t lane : t.tables[i].lanes) {
        lane_y[lane] = y;
        y += kLaneHeight;
      }
      chain_y[i] = y + 4;
      y += kLaneHeight + 14;
    }
    show_headers = headers;
    height = y + 24;
    width = kLeft + kPlotWidth + 40;
  }
  std::vector<double> lane_y;
  std::vector<double> chain_y;
  std::vector<double> header_y;
  bool show_headers = false;
  double height = 0;
  double width = 0;
};

// An imported history's axis counts in a unit its span reads well in (ms for a run): the divisor
// of x and the unit's name.
std::pair<double, std::string_view> ClockUnit(const Timeline& t);

// Text for XML content and attributes. Control characters are not allowed in XML 1.0: a newline
// or tab becomes a character reference, any other one U+FFFD. Histories are JSON text, so UTF-8.
std::string Escape(std::string_view s);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SRC_TIMELINE_LAYOUT_H_
