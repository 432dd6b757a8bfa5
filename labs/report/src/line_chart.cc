#include "commitlab/report/line_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string_view>

namespace commitlab::report {
namespace {

// Distinct on white and for the common colour-vision deficiencies (Okabe-Ito), then two greys.
constexpr std::array<std::string_view, 10> kPalette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                                       "#56B4E9", "#000000", "#F0E442", "#777777", "#AAAAAA"};
constexpr int kLeft = 80, kRight = 200, kTop = 48, kBottom = 62;

std::string Escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string TickLabel(double v) {
  const double a = std::fabs(v);
  if (a >= 1e6) return fmt::format("{:g}M", v / 1e6);
  if (a >= 1e4) return fmt::format("{:g}k", v / 1e3);
  return fmt::format("{:g}", v);
}

// One axis: the data range mapped onto [0, 1], and where its ticks go.
struct Axis {
  bool log = false;
  double lo = 0, hi = 1;  // in log10 units for a log axis
  std::vector<double> ticks;

  double Fraction(double v) const {
    const double t = log ? std::log10(v) : v;
    return hi > lo ? (t - lo) / (hi - lo) : 0.5;
  }
};

Axis MakeAxis(double min, double max, bool log) {
  Axis a;
  a.log = log;
  if (!(min <= max)) min = max = log ? 1 : 0;  // no data
  if (log) {
    a.lo = std::floor(std::log10(min));
    a.hi = std::max(a.lo + 1, std::ceil(std::log10(max)));
    const bool fine = a.hi - a.lo <= 2;  // few decades: also 2 and 5 times each power
    for (double e = a.lo; e <= a.hi; ++e) {
      for (const double m : {1.0, 2.0, 5.0}) {
        const double v = m * std::pow(10.0, e);
        if ((m == 1.0 || fine) && std::log10(v) <= a.hi + 1e-9) a.ticks.push_back(v);
      }
    }
    return a;
  }
  a.lo = std::min(0.0, min);
  const double span = std::max(max - a.lo, 1e-9);
  const double raw = span / 6;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag * 10;
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  }
  a.hi = std::ceil(max / step) * step;
  if (a.hi <= a.lo) a.hi = a.lo + step;
  for (double v = a.lo; v <= a.hi + step / 2; v += step) a.ticks.push_back(std::fabs(v) < step / 1e6 ? 0 : v);
  return a;
}

// Where the chart's data goes on the page: the two axes over the plot area, and which points
// a log axis can show.
struct Frame {
  const LineChart& chart;
  Axis xa, ya;
  double pw = 0, ph = 0;  // the plot area's width and height

  bool usable(double x, double y) const {
    return std::isfinite(x) && std::isfinite(y) && (!chart.log_x || x > 0) && (!chart.log_y || y > 0);
  }
  double px(double x) const { return kLeft + xa.Fraction(x) * pw; }
  double py(double y) const { return kTop + (1 - ya.Fraction(y)) * ph; }
  bool inside_x(double x) const {
    const double f = (chart.log_x && x <= 0) ? -1 : xa.Fraction(x);
    return std::isfinite(x) && f >= -1e-9 && f <= 1 + 1e-9;
  }
};

// The axes spanning every usable point and band edge.
Frame MakeFrame(const LineChart& chart) {
  const double inf = std::numeric_limits<double>::infinity();
  Frame fr{.chart = chart, .xa = {}, .ya = {}};
  double x_min = inf, x_max = -inf, y_min = inf, y_max = -inf;
  auto extend = [&](double x, double y) {
    if (!fr.usable(x, y)) return;
    x_min = std::min(x_min, x), x_max = std::max(x_max, x);
    y_min = std::min(y_min, y), y_max = std::max(y_max, y);
  };
  for (const ChartSeries& s : chart.series) {
    for (size_t i = 0; i < s.points.size(); ++i) {
      const auto [x, y] = s.points[i];
      extend(x, y);
      if (i < s.band.size() && fr.usable(x, y)) extend(x, s.band[i].first), extend(x, s.band[i].second);
    }
  }
  fr.xa = MakeAxis(x_min, x_max, chart.log_x);
  if (chart.log_x && !chart.x_ticks.empty() && x_min < x_max) {
    // Ticks at the data's own x values: the axis spans the data (plus a margin), not whole decades.
    const double lo = std::log10(x_min), hi = std::log10(x_max), margin = (hi - lo) * 0.06;
    fr.xa.lo = lo - margin, fr.xa.hi = hi + margin;
  }
  fr.ya = MakeAxis(y_min, y_max, chart.log_y);
  fr.pw = chart.width - kLeft - kRight, fr.ph = chart.height - kTop - kBottom;
  return fr;
}

// The grid, the plot's frame, the tick labels and the axis labels.
std::string Axes(const Frame& fr, const std::vector<double>& x_ticks) {
  const LineChart& chart = fr.chart;
  const double pw = fr.pw, ph = fr.ph;
  std::string out = "<g stroke=\"#dddddd\" stroke-width=\"1\">\n";
  for (const double t : x_ticks)
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>\n", fr.px(t), kTop, kTop + ph);
  for (const double t : fr.ya.ticks)
    out +=
        fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\"/>\n", kLeft, fr.py(t), kLeft + pw);
  out += "</g>\n";

  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" stroke=\"black\"/>\n",
                     kLeft, kTop, pw, ph);
  out += "<g font-size=\"11\">\n";
  // Dense ticks keep their grid lines but label only those at least kMinLabelGap apart.
  constexpr double kMinLabelGap = 26;
  double last_label = -std::numeric_limits<double>::infinity();
  for (const double t : x_ticks) {
    if (fr.px(t) - last_label < kMinLabelGap) continue;
    last_label = fr.px(t);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", fr.px(t), kTop + ph + 16,
                       TickLabel(t));
  }
  for (const double t : fr.ya.ticks)
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, fr.py(t) + 4,
                       TickLabel(t));
  out += "</g>\n";
  out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", kLeft + pw / 2,
                     chart.height - 18, Escape(chart.x_label));
  out += fmt::format(
      "<text x=\"18\" y=\"{0:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 18 {0:.1f})\">{1}</text>\n",
      kTop + ph / 2, Escape(chart.y_label));
  return out;
}

// The vertical dashed lines at the chart's markers that fall inside the x axis.
std::string Markers(const Frame& fr) {
  std::string out;
  for (const ChartMarker& m : fr.chart.markers) {
    if (!fr.inside_x(m.x)) continue;
    out += fmt::format(
        "<g class=\"marker\"><line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#444444\" "
        "stroke-dasharray=\"2,3\"/>\n<text x=\"{3:.1f}\" y=\"{4}\" font-size=\"11\" fill=\"#444444\">{5}</text></g>\n",
        fr.px(m.x), kTop, kTop + fr.ph, fr.px(m.x) + 4, kTop + 12, Escape(m.label));
  }
  return out;
}

// Every series' band, drawn before any line so that no line hides under another series' band.
std::string Bands(const Frame& fr) {
  std::string out;
  for (size_t i = 0; i < fr.chart.series.size(); ++i) {
    const ChartSeries& s = fr.chart.series[i];
    std::string upper, lower;
    for (size_t k = 0; k < s.points.size() && k < s.band.size(); ++k) {
      const double x = s.points[k].first;
      const auto [lo, hi] = s.band[k];
      if (!fr.usable(x, lo) || !fr.usable(x, hi)) continue;
      upper += fmt::format("{}{:.1f},{:.1f}", upper.empty() ? "" : " ", fr.px(x), fr.py(hi));
      lower = fmt::format("{:.1f},{:.1f} ", fr.px(x), fr.py(lo)) + lower;
    }
    if (upper.empty()) continue;
    out += fmt::format("<polygon class=\"band\" fill=\"{}\" fill-opacity=\"0.14\" stroke=\"none\" points=\"{} {}\"/>\n",
                       kPalette[i % kPalette.size()], upper, lower);
  }
  return out;
}

// Series i: its line (dashed into and out of a hollow point), its point markers and its legend
// entry.
std::string Series(const Frame& fr, size_t i) {
  const ChartSeries& s = fr.chart.series[i];
  const std::string_view color = kPalette[i % kPalette.size()];
  auto hollow = [&](size_t k) { return k < s.hollow.size() && s.hollow[k]; };
  std::string out, solid, dashed, markers;
  bool have_prev = false;
  size_t prev = 0;
  for (size_t k = 0; k < s.points.size(); ++k) {
    const auto [x, y] = s.points[k];
    if (!fr.usable(x, y)) continue;
    if (have_prev) {
      std::string& path = hollow(prev) || hollow(k) ? dashed : solid;
      path += fmt::format("M{:.1f},{:.1f}L{:.1f},{:.1f}", fr.px(s.points[prev].first), fr.py(s.points[prev].second),
                          fr.px(x), fr.py(y));
    }
    have_prev = true;
    prev = k;
    markers += hollow(k)
                   ? fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"white\"/>\n", fr.px(x), fr.py(y))
                   : fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\"/>\n", fr.px(x), fr.py(y));
  }
  out += fmt::format("<g class=\"series\" fill=\"{0}\" stroke=\"{0}\">\n<title>{1}</title>\n", color, Escape(s.name));
  if (!solid.empty()) out += fmt::format("<path fill=\"none\" stroke-width=\"2\" d=\"{}\"/>\n", solid);
  if (!dashed.empty())
    out += fmt::format("<path fill=\"none\" stroke-width=\"2\" stroke-dasharray=\"5,4\" d=\"{}\"/>\n", dashed);
  out += markers + "</g>\n";
  const double ly = kTop + 10 + 20.0 * static_cast<double>(i);
  out += fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"{3}\" stroke-width=\"3\"/>\n",
      kLeft + fr.pw + 14, ly, kLeft + fr.pw + 38, color);
  out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", kLeft + fr.pw + 44, ly + 4, Escape(s.name));
  return out;
}

}  // namespace

std::string RenderLineChartSvg(const LineChart& chart) {
  const Frame fr = MakeFrame(chart);
  std::vector<double> x_ticks;
  for (const double t : chart.x_ticks.empty() ? fr.xa.ticks : chart.x_ticks)
    if (fr.inside_x(t)) x_ticks.push_back(t);

  std::string out = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n"
      "<text x=\"{2}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">{3}</text>\n",
      chart.width, chart.height, kLeft + fr.pw / 2, Escape(chart.title));
  out += Axes(fr, x_ticks);
  out += Markers(fr);
  out += Bands(fr);
  for (size_t i = 0; i < chart.series.size(); ++i) out += Series(fr, i);
  const double notes_top = kTop + 10 + 20.0 * static_cast<double>(chart.series.size()) + 8;
  for (size_t i = 0; i < chart.notes.size(); ++i)
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"10\" fill=\"#444444\">{}</text>\n",
                       kLeft + fr.pw + 14, notes_top + 14.0 * static_cast<double>(i), Escape(chart.notes[i]));
  out += "</svg>\n";
  return out;
}

}  // namespace commitlab::report
