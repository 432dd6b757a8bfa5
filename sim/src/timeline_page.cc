// The timeline's HTML page (sim/timeline.h): the SVG, a zoom that stretches time (binned lanes
// re-binned for the part in view), lane names and axis that stay in view, a stepper (slider, keys
// and buttons) with the state panel, tooltips and the clicked element's history event. One file,
// no network.
#include <fmt/format.h>

#include <string>
#include <string_view>

#include "commitlab/sim/timeline.h"
#include "timeline_layout.h"

namespace commitlab::sim {
namespace {

// The page's script. DATA (the <script type="application/json"> block) holds the words, the
// stepper's steps and, when binned, each lane's bins.
constexpr std::string_view kScript = R"js(
const svg = document.querySelector('svg.timeline');
const view = document.getElementById('view');
const tip = document.getElementById('tip');
const pane = document.getElementById('event');
const DATA = JSON.parse(document.getElementById('data').textContent);
const L = DATA.left, PLOT = DATA.plot, W0 = svg.width.baseVal.value, H = svg.height.baseVal.value;
const WORDS = DATA.words;
const NS = 'http://www.w3.org/2000/svg';
let zoomed = 1;
const X = v => L + v / Math.max(DATA.xmax, 1e-9) * PLOT * zoomed;
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
  let text = el.dataset.ev || '';
  let log = '';
  try {
    const ev = JSON.parse(text);
    if (typeof ev.message === 'string') log = 'log: ' + ev.message + '\n\n';
    text = JSON.stringify(ev, null, 2);
  } catch (err) {}
  pane.textContent = el.dataset.tip + '\n\n' + log + text;
});

// Zoom: positions right of the lane names scale, lanes keep their height, labels appear once
// they fit, snapshot labels are thinned so they never overlap.
const positions = [];
for (const n of svg.querySelectorAll('line, rect, text, circle')) {
  if (n.closest('defs, .legend, .names, .axis, .mark')) continue;
  if (n.closest('.span') && n.tagName === 'text') continue;
  for (const a of ['x', 'x1', 'x2', 'cx']) {
    const v = Number(n.getAttribute(a));
    if (n.hasAttribute(a) && v >= L) positions.push([n, a, v]);
  }
}
const paths = [...svg.querySelectorAll('.cause path, .lost-update path')].map(p => [p, p.getAttribute('d')]);
const widths = [...svg.querySelectorAll('.span rect')].map(n => [n, Number(n.dataset.w ?? n.getAttribute('width'))]);
const labels = [...svg.querySelectorAll('.span text')].map(n => [n, n.previousElementSibling, Number(n.dataset.need)]);
const marks = [...svg.querySelectorAll('.mark')].map(n => {
  const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(n.getAttribute('transform'));
  return [n, Number(m[1]), Number(m[2])];
});
const chains = [...svg.querySelectorAll('.chain')].map(c => [...c.querySelectorAll('.snapshot text')]);
function thin() {
  for (const texts of chains) {
    let until = -1e9;
    for (const t of texts) {
      const x = Number(t.getAttribute('x'));
      const show = x >= until;
      t.style.display = show ? 'inline' : 'none';
      if (show) until = x + 6 * t.textContent.length + 3;
    }
  }
}
function zoom(z) {
  const centre = (view.scrollLeft + view.clientWidth / 2) / svg.width.baseVal.value;
  const S = v => L + (v - L) * z;
  zoomed = z;
  for (const [n, a, v] of positions) n.setAttribute(a, S(v));
  for (const [n, d] of paths) n.setAttribute('d', d.replace(/(-?[\d.]+),(-?[\d.]+)/g, (m, x, y) => S(Number(x)).toFixed(1) + ',' + y));
  for (const [n, w] of widths) n.setAttribute('width', Math.max(2, w * z));
  for (const [n, x, y] of marks) n.setAttribute('transform', `translate(${S(x)},${y})`);
  for (const [n, rect, need] of labels) {
    n.setAttribute('x', Number(rect.getAttribute('x')) + 2);
    n.style.display = Number(rect.getAttribute('width')) > need ? 'inline' : 'none';
  }
  thin();
  const width = S(W0 - 40) + 40;
  svg.setAttribute('width', width);
  svg.setAttribute('viewBox', `0 0 ${width} ${H}`);
  view.scrollLeft = centre * width - view.clientWidth / 2;
  redraw();
}
document.getElementById('zoom').addEventListener('input', e => zoom(Number(e.target.value)));

// The part in view: lane names at the left edge, the axis at the top, its ticks for what is
// shown, and a binned run's bins merged to about 3 px each.
const names = svg.querySelector('.names'), axis = svg.querySelector('.axis'), ticks = svg.querySelector('.ticks');
function niceStep(range) {
  const raw = range / 8, p = Math.pow(10, Math.floor(Math.log10(raw)));
  return [1, 2, 5, 10].map(k => k * p).find(s => s >= raw) || raw;
}
function redraw() {
  names.setAttribute('transform', `translate(${view.scrollLeft},0)`);
  axis.setAttribute('transform', `translate(0,${view.scrollTop})`);
  axis.querySelector('.axis-band').setAttribute('x', view.scrollLeft);
  const v0 = Math.max(0, (view.scrollLeft + L - L) / (PLOT * zoomed) * DATA.xmax);
  const v1 = Math.min(DATA.xmax, (view.scrollLeft + view.clientWidth - L) / (PLOT * zoomed) * DATA.xmax);
  if (DATA.xmax > 0 && v1 > v0) {
    // The labels count in the axis's unit (an imported log's seconds to days), x in milliseconds.
    const u = DATA.unit || 1, step = niceStep((v1 - v0) / u) * u, digits = Math.max(0, -Math.floor(Math.log10(step / u)));
    ticks.replaceChildren();
    for (let v = Math.ceil(v0 / step) * step; v <= v1 + 1e-9; v += step) {
      const t = document.createElementNS(NS, 'text');
      t.setAttribute('x', X(v));
      t.setAttribute('y', DATA.top - 12);
      t.setAttribute('text-anchor', 'middle');
      t.textContent = DATA.byStep ? Math.round(v) : (v / u).toFixed(digits);
      ticks.appendChild(t);
    }
  }
  if (DATA.bins) drawBins(v0, v1);
}
function drawBins(v0, v1) {
  const B = DATA.bins, per = Math.max(1, Math.floor(B.n / (PLOT * zoomed / 3))), bx = DATA.xmax / B.n;
  const first = Math.max(0, Math.floor(v0 / bx / per) * per), last = Math.min(B.n, Math.ceil(v1 / bx) + per);
  let live = svg.querySelector('.bins-live');
  if (!live) {
    for (const old of svg.querySelectorAll('.bins, .chain .snapshots')) old.remove();
    live = document.createElementNS(NS, 'g');
    live.setAttribute('class', 'bins-live');
    svg.insertBefore(live, names);
  }
  live.replaceChildren();
  const rect = (x, y, w, h, fill, tipText) => {
    const g = document.createElementNS(NS, 'g'), r = document.createElementNS(NS, 'rect');
    g.setAttribute('class', 'el bin');
    g.dataset.tip = tipText;
    r.setAttribute('x', x); r.setAttribute('y', y); r.setAttribute('width', w); r.setAttribute('height', h);
    r.setAttribute('fill', fill);
    g.appendChild(r);
    live.appendChild(g);
    return g;
  };
  const fmtX = v => DATA.byStep ? Math.round(v) : v.toFixed(1);
  B.lanes.forEach((bins, lane) => {
    const sums = new Map();
    for (let i = 0; i < bins.length; i += 7) {
      const b = bins[i];
      if (b < first || b >= last) continue;
      const g = b - b % per, s = sums.get(g) || [0, 0, 0, 0, 0, 0];
      for (let k = 0; k < 6; ++k) s[k] += bins[i + 1 + k];
      sums.set(g, s);
    }
    for (const [g, s] of sums) {
      const busy = s[4] / 100 / per, waiting = s[5] / 100 / per;
      const h = 20 * Math.min(1, Math.max(0.15, busy, waiting)), x = X(g * bx), w = Math.max(1, X((g + per) * bx) - x);
      rect(x, B.laneY[lane] + 20 - h, w, h, waiting > busy ? 'url(#hatch)' : '#9aa5b1',
           WORDS.bin.replace('{0}', DATA.lanes[lane]).replace('{1}', fmtX(g * bx)).replace('{2}', fmtX((g + per) * bx))
             .replace('{3}', s[0]).replace('{4}', s[1]).replace('{5}', s[2]).replace('{6}', s[3]));
      if (s[2] > 0) rect(x, B.laneY[lane] - 2, w, 3, '#e15759', '');
    }
  });
  B.chains.forEach((bins, table) => {
    const sums = new Map();
    for (let i = 0; i < bins.length; i += 4) {
      const b = bins[i];
      if (b < first || b >= last) continue;
      const g = b - b % per, s = sums.get(g);
      sums.set(g, s ? [s[0] + bins[i + 1], s[1], bins[i + 3]] : [bins[i + 1], bins[i + 2], bins[i + 3]]);
    }
    let until = -1e9;
    for (const [g, s] of [...sums].sort((a, b) => a[0] - b[0])) {
      const x = X(g * bx), w = Math.max(1, X((g + per) * bx) - x);
      const el = rect(x, B.chainY[table], w, 20, '#4e79a7',
                      WORDS.snapshots.replace('{0}', s[1]).replace('{1}', s[2]).replace('{2}', s[0]));
      if (x >= until) {
        const t = document.createElementNS(NS, 'text');
        t.setAttribute('x', x + 1); t.setAttribute('y', B.chainY[table] + 30); t.setAttribute('font-size', 9);
        t.textContent = s[1];
        el.appendChild(t);
        until = x + 6 * String(s[1]).length + 6;
      }
    }
  });
}
let pending = false;
view.addEventListener('scroll', () => {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; redraw(); });
});

// The stepper: the state after step k (steps[0] is before the first event), the elements after
// it dimmed and a cursor at its place on the axis.
const steps = DATA.steps, slider = document.getElementById('step');
const rows = document.getElementById('rows'), stepline = document.getElementById('stepline');
const said = document.getElementById('said');
const writerCells = [], tableCells = [];
for (const [t, lanes] of DATA.tables.entries()) {
  const tr = rows.insertRow();
  tr.className = 'table';
  tr.insertCell().textContent = DATA.tableNames[t];
  tableCells[t] = tr.insertCell();
  for (const lane of lanes) {
    const w = rows.insertRow();
    w.className = 'writer';
    w.insertCell().textContent = DATA.lanes[lane];
    writerCells[lane] = w.insertCell();
  }
}
const cursor = document.createElementNS(NS, 'line');
cursor.setAttribute('class', 'cursor');
cursor.setAttribute('stroke', '#000');
cursor.setAttribute('stroke-width', '1');
cursor.setAttribute('y1', DATA.top - 6);
cursor.setAttribute('y2', H - 20);
svg.insertBefore(cursor, names);
const timed = [...svg.querySelectorAll('.el[data-x]')].map(n => [n, Number(n.dataset.x)]);
let shown = -1;
function show(k) {
  k = Math.max(0, Math.min(steps.length - 1, k));
  const writers = [], tables = [];
  for (let i = 0; i <= k; ++i) {
    for (const [lane, text] of steps[i][3]) writers[lane] = [text, i];
    for (const [t, text] of steps[i][4]) tables[t] = [text, i];
  }
  writers.forEach(([text, i], lane) => { writerCells[lane].textContent = text; writerCells[lane].parentElement.classList.toggle('changed', i === k && k > 0); });
  tables.forEach(([text, i], t) => { tableCells[t].textContent = text; tableCells[t].parentElement.classList.toggle('changed', i === k && k > 0); });
  const s = steps[k];
  stepline.textContent = WORDS.stepline.replace('{0}', k).replace('{1}', steps.length - 1)
    .replace('{2}', s[1] < 0 ? '–' : s[1]).replace('{3}', DATA.byStep ? s[0] : s[0].toFixed(3));
  said.replaceChildren(...(s[2].length ? s[2] : [k === 0 ? WORDS.start : WORDS.nothing]).map(line => {
    const li = document.createElement('li');
    li.textContent = line;
    return li;
  }));
  const last = k === steps.length - 1 && DATA.stepsTotal === steps.length - 1;
  for (const [n, x] of timed) n.classList.toggle('later', !last && (k === 0 || x > s[0]));
  cursor.setAttribute('x1', X(s[0]));
  cursor.setAttribute('x2', X(s[0]));
  cursor.style.display = last ? 'none' : 'inline';
  slider.value = k;
  shown = k;
}
slider.max = steps.length - 1;
slider.addEventListener('input', () => show(Number(slider.value)));
document.getElementById('prev').addEventListener('click', () => show(shown - 1));
document.getElementById('next').addEventListener('click', () => show(shown + 1));
document.addEventListener('keydown', e => {
  if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
  const go = {ArrowRight: shown + 1, n: shown + 1, ArrowLeft: shown - 1, p: shown - 1, Home: 0, End: steps.length - 1}[e.key];
  if (go === undefined) return;
  e.preventDefault();
  show(go);
});
if (DATA.stepsTotal > steps.length - 1) document.getElementById('reach').textContent =
    WORDS.reach.replace('{0}', steps.length - 1).replace('{1}', DATA.stepsTotal);
thin();
redraw();
show(steps.length - 1);
)js";

}  // namespace

// The page's data (DATA): words, lanes and tables, the stepper's steps, a binned run's bins.
std::string TimelineData(const Timeline& t);

std::string TimelineHtml(const Timeline& t) {
  const bool zh = t.language == Language::kChinese;
  auto w = [zh](const char* en, const char* cn) { return zh ? cn : en; };
  std::string page = fmt::format(
      "<!doctype html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"><title>{}</title>\n"
      "<style>body{{font-family:sans-serif;margin:12px}}"
      "#view{{overflow:auto;max-height:72vh;border:1px solid #ddd}}"
      "#event{{white-space:pre-wrap;font-size:12px;background:#f7f7f7;padding:8px;min-height:3em}}"
      "#tip{{display:none;position:fixed;pointer-events:none;background:#222;color:#fff;font-size:12px;"
      "padding:4px 6px;border-radius:3px;max-width:60ch;white-space:pre-wrap}}"
      ".el{{cursor:pointer}}.el:hover rect,.el:hover path{{stroke:#000;stroke-width:2}}"
      ".el:hover line{{stroke-width:3}}.el.later{{opacity:0.15}}"
      "#controls{{display:flex;gap:14px;align-items:center;flex-wrap:wrap;margin-bottom:6px}}"
      "#state{{font-size:13px;margin:8px 0}}#stepline{{font-weight:bold}}#said{{margin:4px 0;padding-left:20px}}"
      "#rows td{{padding:1px 10px 1px 0}}#rows tr.table td:first-child{{font-weight:bold}}"
      "#rows tr.writer td:first-child{{padding-left:14px}}#rows tr.changed{{background:#fff3bf}}"
      "#step{{width:360px}}</style></head>\n<body>\n<div id=\"controls\">"
      "<label>{} <input id=\"zoom\" type=\"range\" min=\"1\" max=\"40\" value=\"1\"></label>"
      "<span><button id=\"prev\" title=\"{}\">◀</button> <label>{} <input id=\"step\" type=\"range\" min=\"0\" "
      "value=\"0\"></label> <button id=\"next\" title=\"{}\">▶</button></span><span id=\"reach\"></span></div>\n"
      "<div id=\"summary\">{}</div>\n<div id=\"view\">\n",
      zh ? "zh" : "en", Escape(t.title), w("zoom (time)", "缩放（时间）"), w("previous step (←, p)", "上一步（←、p）"),
      w("step", "步进"), w("next step (→, n)", "下一步（→、n）"),
      Escape(fmt::format(
          fmt::runtime(
              w("{} writer(s), {} span(s), {} lost race(s) ({} with the winner drawn), {} snapshot(s); hover "
                "for a summary, click for the history event, ← → to step",
                "{} 个写入方，{} 个区间，{} 次竞争落败（其中 {} 次画出了赢家），{} 个快照；悬停看摘要，点击看历史"
                "事件，← → 逐步查看")),
          t.lanes.size(), t.spans_total, t.lost_races, t.arrows.size(), t.chain.size())));
  page += TimelineSvg(t);
  page +=
      "</div>\n<div id=\"state\"><div id=\"stepline\"></div><ul id=\"said\"></ul><table id=\"rows\"></table></div>\n";
  page += "<div id=\"tip\"></div>\n<pre id=\"event\">";
  page += w("(click an element)", "（点击一个元素）");
  page += "</pre>\n<script type=\"application/json\" id=\"data\">";
  page += TimelineData(t);
  page += "</script>\n<script>";
  page += kScript;
  page += "</script></body></html>\n";
  return page;
}

}  // namespace commitlab::sim
