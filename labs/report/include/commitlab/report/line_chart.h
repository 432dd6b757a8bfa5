// A small line-chart writer for the reports' plots: standalone SVG text, no dependency, so the
// plots exist wherever the sweep ran (gnuplot is not needed).
#ifndef COMMITLAB_REPORT_LINE_CHART_H_
#define COMMITLAB_REPORT_LINE_CHART_H_

#include <string>
#include <utility>
#include <vector>

namespace commitlab::report {

struct ChartSeries {
  std::string name = {};
  std::vector<std::pair<double, double>> points = {};  // (x, y), drawn in this order
  // Empty, or one (low, high) per point: drawn as a shaded band behind the line (p10-p90 of runs).
  std::vector<std::pair<double, double>> band = {};
  // Empty, or one flag per point: a hollow marker, and a dashed line into and out of it (a point
  // that is not what it seems, e.g. one where writers gave up).
  std::vector<bool> hollow = {};
};

// A vertical dashed line at x with a label beside it (an operating point worth finding).
struct ChartMarker {
  double x = 0;
  std::string label = {};
};

struct LineChart {
  std::string title = {};
  std::string x_label = {};
  std::string y_label = {};
  bool log_x = false;  // base-10 axes; points with x <= 0 (or y <= 0) are left out
  bool log_y = false;
  int width = 860;
  int height = 520;
  std::vector<ChartSeries> series = {};
  std::vector<double> x_ticks = {};  // ticks at these x values (e.g. the swept N); empty: automatic
  std::vector<ChartMarker> markers = {};
  std::vector<std::string> notes = {};  // lines under the legend: how to read the marks
};

// The chart as an SVG document: axes with ticks, per series (in a fixed palette) a band, a line
// and point markers, a legend with the notes under it, and the markers. Text is XML-escaped.
std::string RenderLineChartSvg(const LineChart& chart);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_LINE_CHART_H_
