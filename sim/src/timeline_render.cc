// Drawing a Timeline (timeline.h) as SVG, and the HTML page around it.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "commitlab/sim/timeline.h"

namespace commitlab::sim {
namespace {

constexpr double kLeft = 140;  // lane names
constexpr double kTop = 56;    // title and axis
constexpr double kPlotWidth = 1100;
constexpr double kLaneHeight = 34;
constexpr double kSpanHeight = 20;
constexpr int kTicks = 10;
// Commit users on the chain track: Tableau 10 without the green and red of won and lost publishes.
constexpr std::string_view kUserColours[] = {"#4e79a7", "#f28e2b", "#b07aa1", "#edc948",
                                             "#76b7b2", "#ff9da7", "#9c755f", "#bab0ac"};

// Text for XML content and attributes. Control characters are not allowed in XML 1.0: a newline
// or tab becomes a character reference, any other one U+FFFD. Histories are JSON text, so UTF-8.
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

class Drawing {
 public:
  explicit Drawing(const Timeline& t) : t_(t), scale_(kPlotWidth / std::max(t.x_max, 1e-9)) {}

  std::string Svg() {
    const double chain_y = kTop + static_cast<double>(t_.lanes.size()) * kLaneHeight + 8;
    const double height = chain_y + kLaneHeight + 24;
    const double width = kLeft + kPlotWidth + 40;
    out_ = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
        "height=\"{1}\" font-family=\"sans-serif\" font-size=\"11\">\n",
        width, height);
    out_ +=
        "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fff\"/><line x1=\"0\" y1=\"0\" "
        "x2=\"0\" y2=\"6\" stroke=\"#888\" stroke-width=\"2\"/></pattern>"
        "<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
        "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#e15759\"/></marker>"
        "<marker id=\"gate-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
        "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n";
    out_ += fmt::format("<text x=\"8\" y=\"18\" font-size=\"15\" font-weight=\"bold\">{}</text>\n", Escape(t_.title));
    Axis(height);
    for (size_t i = 0; i < t_.lanes.size(); ++i) {
      const double y = LaneY(i);
      out_ += fmt::format(
          "<g class=\"lane\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>"
          "<text x=\"8\" y=\"{}\">{}</text></g>\n",
          kLeft, y + kSpanHeight / 2, kLeft + kPlotWidth, y + kSpanHeight / 2, y + kSpanHeight / 2 + 4,
          Escape(t_.lanes[i]));
    }
    for (const TimelineSpan& s : t_.spans) Span(s);
    for (const TimelineMark& m : t_.marks) Mark(m);
    for (const TimelineArrow& a : t_.arrows) Arrow(a);
    for (const TimelineGate& g : t_.gates) Gate(g);
    Chain(chain_y);
    out_ += "</svg>\n";
    return std::move(out_);
  }

 private:
  double X(double x) const { return kLeft + x * scale_; }
  static double LaneY(size_t lane) { return kTop + static_cast<double>(lane) * kLaneHeight; }

  // An imported history's axis counts in a unit its span reads well in.
  std::pair<double, std::string_view> ClockUnit() const {
    if (t_.clock_origin.empty() || t_.by_step || t_.x_max < 10e3) return {1.0, "ms"};
    if (t_.x_max < 600e3) return {1e3, "s"};
    if (t_.x_max < 36000e3) return {60e3, "min"};
    if (t_.x_max < 864000e3) return {3600e3, "h"};
    return {86400e3, "days"};
  }

  void Axis(double height) {
    const auto [unit, unit_name] = ClockUnit();
    out_ += "<g class=\"axis\" fill=\"#666\">";
    for (int i = 0; i <= kTicks; ++i) {
      const double v = t_.x_max * i / kTicks / unit;
      out_ += fmt::format(
          "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#f0f0f0\"/>"
          "<text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4:.{5}f}</text>",
          X(v * unit), kTop - 6, height - 20, kTop - 12, v, t_.by_step ? 0 : 1);
    }
    const std::string label = t_.by_step ? "scheduler steps"
                              : !t_.clock_origin.empty()
                                  ? fmt::format("wall-clock {} since {}", unit_name, t_.clock_origin)
                              : t_.wall_clock ? "wall time (ms)"
                                              : "virtual time (ms)";
    out_ += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text></g>\n", kLeft + kPlotWidth, height - 6,
                        Escape(label));
  }

  void Span(const TimelineSpan& s) {
    const double x0 = X(s.x0);
    const double raw = X(s.x1) - x0;
    const double w = std::max(2.0, raw);
    const double y = LaneY(s.lane);
    const bool gate = s.kind == "gate";
    out_ += fmt::format(
        "<g class=\"el span {}{}\" data-ev=\"{}\"><title>{}</title>"
        "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\"{} height=\"{}\" fill=\"{}\" stroke=\"#555\" "
        "stroke-width=\"{}\"{}/>",
        Escape(s.kind), s.outcome.empty() ? "" : " " + Escape(s.outcome), Escape(s.event), Escape(s.tip), x0, y, w,
        raw < 2 ? fmt::format(" data-w=\"{:.2f}\"", raw) : "", kSpanHeight, SpanFill(s), gate ? 1 : 0.5,
        gate ? " stroke-dasharray=\"4 3\"" : "");
    // The label only where it fits (about 6 px a character); the page shows more as it zooms in.
    const double need = 6.0 * static_cast<double>(s.label.size()) + 4;
    const bool dark_text = s.kind == "wait" || gate || s.outcome == "unfinished";
    out_ += fmt::format("<text x=\"{:.1f}\" y=\"{}\" fill=\"{}\" data-need=\"{}\"{}>{}</text></g>\n", x0 + 2, y + 14,
                        dark_text ? "#222" : "#fff", need, w > need ? "" : " display=\"none\"", Escape(s.label));
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
        "<g class=\"el mark {}\" data-ev=\"{}\" transform=\"translate({:.1f},{})\"><title>{}</title>{}</g>\n",
        Escape(m.kind), Escape(m.event), X(m.x), LaneY(m.lane) + kSpanHeight / 2, Escape(m.tip), shape);
  }

  void Gate(const TimelineGate& g) {
    const double x = X(g.x);
    const bool down = g.from_lane < g.to_lane;
    const double y1 = LaneY(g.from_lane) + (down ? kSpanHeight : 0);
    const double y2 = LaneY(g.to_lane) + (down ? 0 : kSpanHeight);
    out_ += fmt::format(
        "<g class=\"el order\" data-ev=\"{}\"><title>{}</title>"
        "<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#555\" stroke-width=\"1.2\" "
        "stroke-dasharray=\"4 3\" marker-end=\"url(#gate-arrow)\"/></g>\n",
        Escape(g.event), Escape(g.label), x, y1, x, y2);
  }

  void Arrow(const TimelineArrow& a) {
    const TimelineSpan& w = t_.spans[a.winner];
    const TimelineSpan& l = t_.spans[a.loser];
    const double x1 = X(w.x1);
    const double y1 = LaneY(w.lane) + kSpanHeight / 2;
    const double x2 = std::max(X(l.x1), X(l.x0) + 2);
    const double y2 = LaneY(l.lane) + (w.lane < l.lane ? 0 : kSpanHeight);
    // The label is the tooltip: in a dense race labels would cover each other.
    out_ += fmt::format(
        "<g class=\"el arrow\" data-ev=\"{}\"><title>{}</title>"
        "<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#e15759\" stroke-width=\"1.5\" "
        "marker-end=\"url(#arrow)\"/></g>\n",
        Escape(a.event), Escape(a.label), x1, y1, x2, y2);
  }

  void Chain(double y) {
    out_ += fmt::format("<g class=\"chain\"><text x=\"8\" y=\"{}\">snapshots</text>", y + kSpanHeight / 2 + 4);
    std::map<std::string, size_t> colour;
    for (const TimelineSnapshot& s : t_.chain) {
      const size_t c = colour.emplace(s.user, colour.size()).first->second;
      const double x = X(s.x);
      out_ += fmt::format(
          "<g class=\"el snapshot\" data-ev=\"{}\"><title>snapshot {} by {}</title>"
          "<rect x=\"{:.1f}\" y=\"{}\" width=\"14\" height=\"{}\" fill=\"{}\"/>"
          "<text x=\"{:.1f}\" y=\"{}\" font-size=\"9\">{}</text></g>",
          Escape(s.event), s.id, Escape(s.user), x, y, kSpanHeight, kUserColours[c % std::size(kUserColours)], x + 1,
          y + kSpanHeight + 10, s.id);
    }
    out_ += "</g>\n";
  }

  const Timeline& t_;
  const double scale_;
  std::string out_;
};

}  // namespace

std::string TimelineSvg(const Timeline& t) { return Drawing(t).Svg(); }

namespace {

// The page's script: a tooltip that follows the pointer (the SVG's <title> text, moved into
// data-tip so the browser's own slow tooltip does not double it), the clicked element's history
// event in the pane, and a zoom that stretches time only: positions right of the lane names and
// span widths scale, lanes keep their height, and span labels appear once they fit.
constexpr std::string_view kPageScript = R"js(
const svg = document.querySelector('svg.timeline');
const view = document.getElementById('view');
const tip = document.getElementById('tip');
const pane = document.getElementById('event');
const L = )js";

constexpr std::string_view kPageScriptRest = R"js(;
const W = svg.width.baseVal.value, H = svg.height.baseVal.value;
for (const el of svg.querySelectorAll('.el')) {
  const title = el.querySelector(':scope > title');
  el.dataset.tip = title ? title.textContent : '';
  if (title) title.remove();
}
function place(e) {
  tip.style.left = Math.min(e.clientX + 14, window.innerWidth - tip.offsetWidth - 4) + 'px';
  tip.style.top = (e.clientY + 16) + 'px';
}
svg.addEventListener('mouseover', e => {
  const el = e.target.closest('.el');
  if (!el) return;
  tip.textContent = el.dataset.tip;
  tip.style.display = 'block';
  place(e);
});
svg.addEventListener('mousemove', e => { if (tip.style.display === 'block') place(e); });
svg.addEventListener('mouseout', e => {
  const el = e.target.closest('.el');
  if (el && !el.contains(e.relatedTarget)) tip.style.display = 'none';
});
svg.addEventListener('click', e => {
  const el = e.target.closest('.el');
  if (!el) return;
  let text = el.dataset.ev;
  let log = '';
  try {
    const ev = JSON.parse(text);
    if (typeof ev.message === 'string') log = 'log: ' + ev.message + '\n\n';
    text = JSON.stringify(ev, null, 2);
  } catch (err) {}
  pane.textContent = el.dataset.tip + '\n\n' + log + text;
});
const positions = [];
for (const n of svg.querySelectorAll('line, rect, text')) {
  // A span's label follows its rect (x + 2), not the scale: see zoom().
  if (n.closest('defs') || n.closest('.span') && n.tagName === 'text') continue;
  for (const a of ['x', 'x1', 'x2']) {
    const v = Number(n.getAttribute(a));
    if (n.hasAttribute(a) && v >= L) positions.push([n, a, v]);
  }
}
const widths = [...svg.querySelectorAll('.span rect')].map(n => [n, Number(n.dataset.w ?? n.getAttribute('width'))]);
const labels = [...svg.querySelectorAll('.span text')].map(n => [n, n.previousElementSibling, Number(n.dataset.need)]);
const marks = [...svg.querySelectorAll('.mark')].map(n => {
  const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(n.getAttribute('transform'));
  return [n, Number(m[1]), Number(m[2])];
});
function zoom(z) {
  const centre = (view.scrollLeft + view.clientWidth / 2) / svg.width.baseVal.value;
  const X = v => L + (v - L) * z;
  for (const [n, a, v] of positions) n.setAttribute(a, X(v));
  for (const [n, w] of widths) n.setAttribute('width', Math.max(2, w * z));
  for (const [n, x, y] of marks) n.setAttribute('transform', `translate(${X(x)},${y})`);
  for (const [n, rect, need] of labels) {
    n.setAttribute('x', Number(rect.getAttribute('x')) + 2);
    n.style.display = Number(rect.getAttribute('width')) > need ? 'inline' : 'none';
  }
  const width = X(W - 40) + 40;
  svg.setAttribute('width', width);
  svg.setAttribute('viewBox', `0 0 ${width} ${H}`);
  view.scrollLeft = centre * width - view.clientWidth / 2;
}
document.getElementById('zoom').addEventListener('input', e => zoom(Number(e.target.value)));
)js";

}  // namespace

std::string TimelineHtml(const Timeline& t) {
  std::string page = fmt::format(
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n"
      "<style>body{{font-family:sans-serif;margin:12px}}#view{{overflow-x:auto;border:1px solid #ddd}}"
      "#event{{white-space:pre-wrap;font-size:12px;background:#f7f7f7;padding:8px;min-height:3em}}"
      "#tip{{display:none;position:fixed;pointer-events:none;background:#222;color:#fff;font-size:12px;"
      "padding:4px 6px;border-radius:3px;max-width:60ch}}"
      ".el{{cursor:pointer}}.el:hover rect,.el:hover path{{stroke:#000;stroke-width:2}}"
      ".el:hover line{{stroke-width:3}}</style></head>\n"
      "<body><label>zoom (time) <input id=\"zoom\" type=\"range\" min=\"1\" max=\"40\" value=\"1\"></label> "
      "<span id=\"summary\">{} writer(s), {} span(s), {} lost race(s) ({} with the winner drawn), {} snapshot(s); "
      "hover for a summary, click for the history event</span>\n<div id=\"view\">\n",
      Escape(t.title), t.lanes.size(), t.spans.size(), t.lost_races, t.arrows.size(), t.chain.size());
  page += TimelineSvg(t);
  page += "</div>\n<div id=\"tip\"></div>\n<pre id=\"event\">(click an element)</pre>\n<script>";
  page += kPageScript;
  page += fmt::format("{}", kLeft);
  page += kPageScriptRest;
  page += "</script></body></html>\n";
  return page;
}

}  // namespace commitlab::sim
