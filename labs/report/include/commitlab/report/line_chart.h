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
};

// The chart as an SVG document: axes with ticks, one polyline (with point markers) per series in
// a fixed palette, and a legend. Text is XML-escaped.
std::string RenderLineChartSvg(const LineChart& chart);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_LINE_CHART_H_
