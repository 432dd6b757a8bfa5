// Drawing a Timeline (timeline.h) as SVG; the page around it is timeline_page.cc.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "commitlab/sim/text_width.h"
#include "commitlab/sim/timeline.h"
#include "timeline_layout.h"

namespace commitlab::sim {

std::pair<double, std::string_view> ClockUnit(const Timeline& t) {
  if (t.clock_origin.empty() || t.by_step || t.x_max < 10e3) return {1.0, "ms"};
  if (t.x_max < 600e3) return {1e3, "s"};
  if (t.x_max < 36000e3) return {60e3, "min"};
  if (t.x_max < 864000e3) return {3600e3, "h"};
  return {86400e3, "days"};
}

std::string Escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\n': out += "&#10;"; break;
      case '\t': out += "&#9;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\uFFFD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

namespace {

// Commit users on the chain track: Tableau 10 without the green and red of won and lost publishes.
constexpr std::string_view kUserColours[] = {"#4e79a7", "#f28e2b", "#b07aa1", "#edc948",
                                             "#76b7b2", "#ff9da7", "#9c755f", "#bab0ac"};

std::string_view SpanFill(const TimelineSpan& s) {
  if (s.kind == "publish") return s.outcome == "published" ? "#59a14f" : s.outcome == "lost" ? "#e15759" : "#f28e2b";
  if (s.kind == "read-latest") return "#4e79a7";
  if (s.kind == "read-snapshot") return "#76b7b2";
  if (s.kind == "write-manifest") return "#9c755f";
  if (s.kind == "wait") return "url(#hatch)";
  if (s.kind == "gate") return "#fff";
  if (s.outcome == "unfinished") return "#fff";
  return "#bab0ac";
}

// About how wide `text` is at 11 px: 6 px a character, 11 a wide one.
double TextWidth(std::string_view text) {
  double w = 0;
  for (size_t i = 0; i < text.size();) w += IsWide(NextCodePoint(text, &i)) ? 11 : 6;
  return w;
}

constexpr std::string_view kDefs =
    "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fff\"/><line x1=\"0\" y1=\"0\" "
    "x2=\"0\" y2=\"6\" stroke=\"#888\" stroke-width=\"2\"/></pattern>"
    "<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
    "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#e15759\"/></marker>"
    "<marker id=\"gate-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
    "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker>"
    "<marker id=\"cause-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
    "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#7a0000\"/></marker>"
    "<marker id=\"lost-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
    "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#8e44ad\"/></marker></defs>\n";

class Drawing {
 public:
  explicit Drawing(const Timeline& t)
      : t_(t), at_(t), scale_(kPlotWidth / std::max(t.x_max, 1e-9)), zh_(t.language == Language::kChinese) {}

  std::string Svg() {
    out_ = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
        "height=\"{1}\" font-family=\"sans-serif\" font-size=\"11\" data-aggregated=\"{2}\">\n",
        at_.width, at_.height, t_.aggregated ? 1 : 0);
    out_ += kDefs;
    out_ += fmt::format("<text x=\"8\" y=\"18\" font-size=\"15\" font-weight=\"bold\">{}</text>\n", Escape(t_.title));
    Legend();
    Grid();
    for (const TimelineSpan& s : t_.spans) Span(s);
    if (t_.aggregated)
      for (size_t lane = 0; lane < t_.lanes.size(); ++lane) LaneBins(lane);
    for (const TimelineMark& m : t_.marks) Mark(m);
    Arrows();
    for (const TimelineGate& g : t_.gates) Gate(g);
    for (size_t table = 0; table < t_.tables.size(); ++table) Chain(table);
    for (const TimelineCause& c : t_.causes) Cause(c);
    for (const TimelineLostUpdate& l : t_.lost_updates) LostUpdate(l);
    Names();
    Ticks();
    out_ += "</svg>\n";
    return std::move(out_);
  }

 private:
  double X(double x) const { return kLeft + x * scale_; }
  const char* T(const char* en, const char* zh) const { return zh_ ? zh : en; }

  // One row of swatches under the title: what each colour and shape means.
  void Legend() {
    struct Item {
      const char* en;
      const char* zh;
      std::string shape;  // drawn at (0, 0), 14 wide
    };
    auto box = [](std::string_view fill, std::string_view extra = "") {
      return fmt::format(
          "<rect x=\"0\" y=\"-9\" width=\"14\" height=\"10\" fill=\"{}\" stroke=\"#555\" stroke-width=\"0.5\"{}/>",
          fill, extra);
    };
    const std::vector<Item> items = {
        {"read latest", "读最新快照", box("#4e79a7")},
        {"write data", "写数据", box("#bab0ac")},
        {"manifest", "写 manifest", box("#9c755f")},
        {"publish won", "发布生效", box("#59a14f")},
        {"publish lost", "发布落败", box("#e15759")},
        {"retry wait", "重试等待", box("url(#hatch)")},
        {"held at order", "停在 order", box("#fff", " stroke-dasharray=\"3 2\"")},
        {"refused", "被拒绝", "<path d=\"M7,-11 l6,6 l-6,6 l-6,-6 z\" fill=\"#b00\" stroke=\"#000\"/>"},
        {"crash", "崩溃", "<path d=\"M2,-9 l10,10 m0,-10 l-10,10\" stroke=\"#000\" stroke-width=\"2\"/>"},
        {"fault", "注入故障", "<path d=\"M7,-11 l6,10 h-12 z\" fill=\"#f28e2b\" stroke=\"#000\"/>"},
        {"lost race (winner to loser)", "竞争落败（赢家 → 输家）",
         "<line x1=\"0\" y1=\"-4\" x2=\"14\" y2=\"-4\" stroke=\"#e15759\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>"},
        {"cause of a refusal", "拒绝的起因",
         "<line x1=\"0\" y1=\"-4\" x2=\"14\" y2=\"-4\" stroke=\"#7a0000\" stroke-dasharray=\"3 2\" "
         "marker-end=\"url(#cause-arrow)\"/>"},
        {"lost update", "丢失更新",
         "<line x1=\"0\" y1=\"-4\" x2=\"14\" y2=\"-4\" stroke=\"#8e44ad\" stroke-width=\"2\" "
         "marker-end=\"url(#lost-arrow)\"/>"},
        {"snapshot (colour: commit user)", "快照（颜色：提交用户）", box("#f28e2b")},
    };
    out_ += "<g class=\"legend\">";
    double x = 8, y = 40;
    for (const Item& item : items) {
      const std::string label = zh_ ? item.zh : item.en;
      const double w = 18 + TextWidth(label) + 14;
      if (x + w > at_.width - 8) {
        x = 8;
        y += 16;
      }
      out_ += fmt::format("<g transform=\"translate({:.0f},{:.0f})\">{}<text x=\"18\" y=\"0\">{}</text></g>", x, y,
                          item.shape, Escape(label));
      x += w;
    }
    out_ += "</g>\n";
  }

  // Vertical grid lines and each lane's line; the tick labels are drawn last (Ticks) so the page
  // can keep them in view.
  void Grid() {
    out_ += "<g class=\"grid\">";
    for (int i = 0; i <= kTicks; ++i) {
      const double x = X(t_.x_max * i / kTicks);
      out_ += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#f0f0f0\"/>", x, kTop - 6,
                          at_.height - 20);
    }
    for (size_t i = 0; i < t_.lanes.size(); ++i) {
      const double y = at_.lane_y[i] + kSpanHeight / 2;
      out_ += fmt::format("<line class=\"lane-line\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>", kLeft,
                          y, kLeft + kPlotWidth, y);
    }
    out_ += "</g>\n";
  }

  // The lane and table names on a white band the page keeps at the left edge as it scrolls.
  void Names() {
    out_ += fmt::format(
        "<g class=\"names\"><rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff\" "
        "fill-opacity=\"0.92\"/>",
        kTop - 4, kLeft - 4, at_.height - kTop);
    for (size_t i = 0; i < t_.lanes.size(); ++i) {
      out_ += fmt::format("<g class=\"lane\"><text x=\"8\" y=\"{}\">{}</text></g>", at_.lane_y[i] + kSpanHeight / 2 + 4,
                          Escape(t_.lanes[i]));
    }
    for (size_t i = 0; i < t_.tables.size(); ++i) {
      const TimelineTable& table = t_.tables[i];
      if (at_.show_headers) {
        out_ += fmt::format(
            "<text class=\"table-name\" x=\"4\" y=\"{}\" font-weight=\"bold\">{}</text>", at_.header_y[i] + 13,
            Escape(fmt::format(fmt::runtime(T("table {} ({})", "表 {}（{}）")), table.name, table.protocol)));
      }
      out_ += fmt::format("<text x=\"8\" y=\"{}\">{}</text>", at_.chain_y[i] + kSpanHeight / 2 + 4,
                          Escape(T("snapshots", "快照")));
    }
    out_ += "</g>\n";
  }

  // The axis's labels on a white band the page keeps at the top as it scrolls, and redraws for
  // the part in view once zoomed.
  void Ticks() {
    const auto [unit, unit_name] = ClockUnit(t_);
    out_ += fmt::format(
        "<g class=\"axis\" fill=\"#666\"><rect class=\"axis-band\" x=\"0\" y=\"{}\" width=\"{}\" "
        "height=\"16\" fill=\"#fff\" fill-opacity=\"0.92\"/><g class=\"ticks\">",
        kTop - 24, at_.width);
    for (int i = 0; i <= kTicks; ++i) {
      const double v = t_.x_max * i / kTicks;
      out_ += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{:.{}f}</text>", X(v), kTop - 12,
                          v / unit, t_.by_step ? 0 : 1);
    }
    out_ += fmt::format("</g><text class=\"axis-name\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text></g>\n",
                        kLeft + kPlotWidth, at_.height - 6, Escape(AxisName(unit_name)));
  }

  std::string AxisName(std::string_view unit_name) const {
    if (t_.by_step) return T("scheduler steps", "调度步");
    if (!t_.clock_origin.empty())
      return zh_ ? fmt::format("自 {} 起的墙钟时间（{}）", t_.clock_origin, unit_name)
                 : fmt::format("wall-clock {} since {}", unit_name, t_.clock_origin);
    return t_.wall_clock ? T("wall time (ms)", "墙钟时间（ms）") : T("virtual time (ms)", "虚拟时间（ms）");
  }

  void Span(const TimelineSpan& s) {
    const double x0 = X(s.x0);
    const double raw = X(s.x1) - x0;
    const double w = std::max(2.0, raw);
    const double y = at_.lane_y[s.lane];
    const bool gate = s.kind == "gate";
    out_ += fmt::format(
        "<g class=\"el span {}{}\" data-ev=\"{}\" data-x=\"{}\"><title>{}</title>"
        "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\"{} height=\"{}\" fill=\"{}\" stroke=\"#555\" "
        "stroke-width=\"{}\"{}/>",
        Escape(s.kind), s.outcome.empty() ? "" : " " + Escape(s.outcome), Escape(s.event), s.x0, Escape(s.tip), x0, y,
        w, raw < 2 ? fmt::format(" data-w=\"{:.2f}\"", raw) : "", kSpanHeight, SpanFill(s), gate ? 1 : 0.5,
        gate ? " stroke-dasharray=\"4 3\"" : "");
    // The label only where it fits; the page shows more as it zooms in.
    const double need = TextWidth(s.label) + 4;
    const bool dark_text = s.kind == "wait" || gate || s.outcome == "unfinished";
    out_ += fmt::format("<text x=\"{:.1f}\" y=\"{}\" fill=\"{}\" data-need=\"{}\"{}>{}</text></g>\n", x0 + 2, y + 14,
                        dark_text ? "#222" : "#fff", need, w > need ? "" : " display=\"none\"", Escape(s.label));
  }

  // A binned lane at this zoom: bins merged into groups about 3 px wide.
  void LaneBins(size_t lane) {
    const size_t per = std::max<size_t>(1, t_.bins / static_cast<size_t>(kPlotWidth / 3));
    const double bin_x = t_.x_max / static_cast<double>(t_.bins);
    out_ += "<g class=\"bins\">";
    for (size_t g = 0; g < t_.bins; g += per) {
      TimelineBin sum;
      for (size_t b = g; b < std::min(t_.bins, g + per); ++b) {
        const TimelineBin& one = t_.lane_bins[lane][b];
        sum.ops += one.ops, sum.won += one.won, sum.lost += one.lost, sum.waits += one.waits;
        sum.busy += one.busy / static_cast<double>(per), sum.waiting += one.waiting / static_cast<double>(per);
      }
      if (sum.ops + sum.waits == 0 && sum.busy + sum.waiting == 0) continue;
      const double x0 = X(static_cast<double>(g) * bin_x);
      const double w = std::max(1.0, X(static_cast<double>(std::min(t_.bins, g + per)) * bin_x) - x0);
      const double h = kSpanHeight * std::clamp(std::max(sum.busy, sum.waiting), 0.15, 1.0);
      const double y = at_.lane_y[lane] + kSpanHeight - h;
      out_ += fmt::format(
          "<g class=\"el bin\"><title>{}</title><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
          "fill=\"{}\"/>{}</g>",
          Escape(BinTip(lane, static_cast<double>(g) * bin_x, static_cast<double>(g + per) * bin_x, sum)), x0, y, w, h,
          sum.waiting > sum.busy ? "url(#hatch)" : "#9aa5b1",
          sum.lost > 0 ? fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"3\" fill=\"#e15759\"/>", x0,
                                     at_.lane_y[lane] - 2, w)
                       : "");
    }
    out_ += "</g>\n";
  }

  std::string BinTip(size_t lane, double x0, double x1, const TimelineBin& b) const {
    return fmt::format(
        fmt::runtime(T("{0} {1:.{7}f}–{2:.{7}f}: {3} operations, {4} publishes won, {5} lost, {6} retry waits",
                       "{0} {1:.{7}f}–{2:.{7}f}：{3} 次操作，{4} 次发布生效，{5} 次落败，{6} 次重试等待")),
        t_.lanes[lane], x0, x1, b.ops, b.won, b.lost, b.waits, t_.by_step ? 0 : 1);
  }

  // Shapes drawn around (0, 0) and moved into place, so the page can move them as it zooms.
  void Mark(const TimelineMark& m) {
    std::string shape;
    if (m.kind == "crashed") {
      shape = "<path d=\"M-5,-5 l10,10 m0,-10 l-10,10\" stroke=\"#000\" stroke-width=\"2\"/>";
    } else if (m.kind == "finding" || m.kind == "note") {
      // An imported log's finding: a problem red, a note blue, ringed so it stands out from a commit.
      shape = fmt::format("<circle r=\"6\" fill=\"{}\" stroke=\"#000\"/>", m.kind == "finding" ? "#b00" : "#4e79a7");
    } else if (m.kind == "fault") {
      shape = "<path d=\"M0,-7 l6,10 h-12 z\" fill=\"#f28e2b\" stroke=\"#000\"/>";
    } else {
      const std::string_view fill = m.kind == "idempotent_match"  ? "#59a14f"
                                    : m.kind == "unknown_outcome" ? "#f28e2b"
                                                                  : "#b00";
      shape = fmt::format("<path d=\"M0,-7 l7,7 l-7,7 l-7,-7 z\" fill=\"{}\" stroke=\"#000\"/>", fill);
    }
    out_ += fmt::format(
        "<g class=\"el mark {}\" data-ev=\"{}\" data-x=\"{}\" transform=\"translate({:.1f},{})\"><title>{}</title>{}"
        "</g>\n",
        Escape(m.kind), Escape(m.event), m.x, X(m.x), at_.lane_y[m.lane] + kSpanHeight / 2, Escape(m.tip), shape);
  }

  void Gate(const TimelineGate& g) {
    const double x = X(g.x);
    const bool down = at_.lane_y[g.from_lane] < at_.lane_y[g.to_lane];
    const double y1 = at_.lane_y[g.from_lane] + (down ? kSpanHeight : 0);
    const double y2 = at_.lane_y[g.to_lane] + (down ? 0 : kSpanHeight);
    out_ += fmt::format(
        "<g class=\"el order\" data-ev=\"{}\" data-x=\"{}\"><title>{}</title>"
        "<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#555\" stroke-width=\"1.2\" "
        "stroke-dasharray=\"4 3\" marker-end=\"url(#gate-arrow)\"/></g>\n",
        Escape(g.event), g.x, Escape(g.label), x, y1, x, y2);
  }

  // Lost races, bundled by the publish that won them: one arrow for one loser; for several, one
  // comb from the winner with a tooth at each loser, so that eight writers stay readable.
  void Arrows() {
    std::map<size_t, std::vector<const TimelineArrow*>> by_winner;
    for (const TimelineArrow& a : t_.arrows) by_winner[a.winner].push_back(&a);
    for (auto& [winner, arrows] : by_winner) {
      std::sort(arrows.begin(), arrows.end(), [this](const TimelineArrow* a, const TimelineArrow* b) {
        return t_.spans[a->loser].lane < t_.spans[b->loser].lane;
      });
      if (arrows.size() == 1) {
        Arrow(*arrows.front());
      } else {
        Bundle(winner, arrows);
      }
    }
  }

  void Arrow(const TimelineArrow& a) {
    const TimelineSpan& w = t_.spans[a.winner];
    const TimelineSpan& l = t_.spans[a.loser];
    const double x1 = X(w.x1);
    const double y1 = at_.lane_y[w.lane] + kSpanHeight / 2;
    const double x2 = std::max(X(l.x1), X(l.x0) + 2);
    const double y2 = at_.lane_y[l.lane] + (at_.lane_y[w.lane] < at_.lane_y[l.lane] ? 0 : kSpanHeight);
    // The label is the tooltip: in a dense race labels would cover each other.
    out_ += fmt::format(
        "<g class=\"el arrow\" data-n=\"1\" data-ev=\"{}\" data-x=\"{}\"><title>{}</title>"
        "<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#e15759\" stroke-width=\"1.5\" "
        "marker-end=\"url(#arrow)\"/></g>\n",
        Escape(a.event), w.x1, Escape(a.label), x1, y1, x2, y2);
  }

  void Bundle(size_t winner, const std::vector<const TimelineArrow*>& arrows) {
    const TimelineSpan& w = t_.spans[winner];
    const double x = X(w.x1);
    const double wy = at_.lane_y[w.lane] + kSpanHeight / 2;
    double top = wy, bottom = wy;
    std::string teeth, losers;
    for (const TimelineArrow* a : arrows) {
      const TimelineSpan& l = t_.spans[a->loser];
      const double ly = at_.lane_y[l.lane] + kSpanHeight / 2;
      top = std::min(top, ly);
      bottom = std::max(bottom, ly);
      teeth += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e15759\" "
          "stroke-width=\"1.2\" marker-end=\"url(#arrow)\"/>",
          x, ly, std::max(X(l.x1), x + 6), ly);
      losers += (losers.empty() ? "" : ", ") + t_.lanes[l.lane];
    }
    const std::string tip = fmt::format(fmt::runtime(T("{0}: {1} lost it ({2})", "{0}：{1} 个写入方落败（{2}）")),
                                        arrows.front()->label, arrows.size(), losers);
    out_ += fmt::format(
        "<g class=\"el arrow bundle\" data-n=\"{}\" data-ev=\"{}\" data-x=\"{}\"><title>{}</title>"
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e15759\" stroke-width=\"2\"/>{}</g>\n",
        arrows.size(), Escape(arrows.front()->event), w.x1, Escape(tip), x, top, x, bottom, teeth);
  }

  void Chain(size_t table) {
    const double y = at_.chain_y[table];
    out_ += fmt::format("<g class=\"chain\" data-table=\"{}\">", table);
    if (t_.aggregated) {
      ChainBins(table, y);
    } else {
      std::map<std::string, size_t> colour;
      double shown_until = -1e9;  // labels thinned: one only where the last one ended
      for (const TimelineSnapshot& s : t_.chain) {
        if (s.table != table) continue;
        const size_t c = colour.emplace(s.user, colour.size()).first->second;
        const double x = X(s.x);
        const std::string label = fmt::format("{}", s.id);
        const bool show = x >= shown_until;
        if (show) shown_until = x + TextWidth(label) + 3;
        out_ += fmt::format(
            "<g class=\"el snapshot\" data-ev=\"{}\" data-x=\"{}\" data-id=\"{}\"><title>{}</title>"
            "<rect x=\"{:.1f}\" y=\"{}\" width=\"14\" height=\"{}\" fill=\"{}\"/>"
            "<text x=\"{:.1f}\" y=\"{}\" font-size=\"9\"{}>{}</text></g>",
            Escape(s.event), s.x, s.id,
            Escape(fmt::format(fmt::runtime(T("snapshot {} by {}", "快照 {}，由 {} 提交")), s.id, s.user)), x, y,
            kSpanHeight, kUserColours[c % std::size(kUserColours)], x + 1, y + kSpanHeight + 10,
            show ? "" : " display=\"none\"", label);
      }
    }
    out_ += "</g>\n";
  }

  void ChainBins(size_t table, double y) {
    const size_t per = std::max<size_t>(1, t_.bins / static_cast<size_t>(kPlotWidth / 3));
    const double bin_x = t_.x_max / static_cast<double>(t_.bins);
    double shown_until = -1e9;
    for (size_t g = 0; g < t_.bins; g += per) {
      TimelineChainBin sum;
      for (size_t b = g; b < std::min(t_.bins, g + per); ++b) {
        const TimelineChainBin& one = t_.chain_bins[table][b];
        if (one.count == 0) continue;
        if (sum.count == 0) sum.first = one.first;
        sum.count += one.count;
        sum.last = one.last;
      }
      if (sum.count == 0) continue;
      const double x = X(static_cast<double>(g) * bin_x);
      const double w = std::max(1.0, X(static_cast<double>(std::min(t_.bins, g + per)) * bin_x) - x);
      const std::string label = fmt::format("{}", sum.first);
      const bool show = x >= shown_until;
      if (show) shown_until = x + TextWidth(label) + 6;
      out_ += fmt::format(
          "<g class=\"el snapshots\"><title>{}</title><rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" "
          "fill=\"#4e79a7\"/><text x=\"{:.1f}\" y=\"{}\" font-size=\"9\"{}>{}</text></g>",
          Escape(fmt::format(fmt::runtime(T("snapshots {}–{} ({})", "快照 {}–{}（{} 个）")), sum.first, sum.last,
                             sum.count)),
          x, y, w, kSpanHeight, x + 1, y + kSpanHeight + 10, show ? "" : " display=\"none\"", label);
    }
  }

  // From the snapshot that caused a refusal to the refusal's mark.
  void Cause(const TimelineCause& c) {
    const TimelineSnapshot& s = t_.chain[c.snapshot];
    const TimelineMark& m = t_.marks[c.mark];
    const double x1 = X(s.x) + 7;
    const double y1 = at_.chain_y[s.table];
    const double x2 = X(m.x);
    const double y2 = at_.lane_y[m.lane] + kSpanHeight / 2 + 8;
    const std::string d = fmt::format("M{:.1f},{:.1f} C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}", x1, y1, x1,
                                      (y1 + y2) / 2, x2, (y1 + y2) / 2, x2, y2);
    // The dashed line is hard to point at (a dash's gap is not the line): an unseen wider one
    // under it takes the pointer.
    out_ += fmt::format(
        "<g class=\"el cause\" data-x=\"{}\" data-ev=\"{}\"><title>{}</title>"
        "<path d=\"{}\" fill=\"none\" stroke=\"#000\" stroke-opacity=\"0\" stroke-width=\"8\"/>"
        "<path d=\"{}\" fill=\"none\" stroke=\"#7a0000\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\" "
        "marker-end=\"url(#cause-arrow)\"/></g>\n",
        m.x, Escape(m.event), Escape(c.label), d, d);
  }

  // The stale read (a ring on the writer's lane, linked to the snapshot it never saw) and the
  // overwrite (an arrow from its commit to the commit it overwrote).
  void LostUpdate(const TimelineLostUpdate& l) {
    const TimelineSnapshot& mine = t_.chain[l.overwrite];
    const TimelineSnapshot& theirs = t_.chain[l.overwritten];
    const double rx = X(l.read_x);
    const double ry = at_.lane_y[l.lane] + kSpanHeight / 2;
    const double y = at_.chain_y[mine.table] + kSpanHeight + 14;
    const double x1 = X(mine.x) + 7;
    const double x2 = X(theirs.x) + 7;
    out_ += fmt::format(
        "<g class=\"el lost-update\" data-x=\"{}\" data-ev=\"{}\"><title>{}</title>"
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"none\" stroke=\"#8e44ad\" stroke-width=\"2\"/>"
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#8e44ad\" stroke-dasharray=\"2 3\"/>"
        "<path d=\"M{:.1f},{:.1f} C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\" fill=\"none\" stroke=\"#8e44ad\" "
        "stroke-width=\"2\" marker-end=\"url(#lost-arrow)\"/></g>\n",
        mine.x, Escape(l.event), Escape(l.label + "\n" + l.read_tip), rx, ry, rx, ry + 6, x2, at_.chain_y[theirs.table],
        x1, y, x1, y + 12, x2, y + 12, x2, y);
  }

  const Timeline& t_;
  const TimelineLayout at_;
  const double scale_;
  const bool zh_;
  std::string out_;
};

}  // namespace

std::string TimelineSvg(const Timeline& t) { return Drawing(t).Svg(); }

}  // namespace commitlab::sim
