// The data the timeline page's script reads (timeline_page.cc): its words in the page's language,
// the lanes and tables, the stepper's steps and, for a binned run, each lane's and chain's bins,
// sparse (only bins with something in them).
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "commitlab/sim/timeline.h"
#include "timeline_layout.h"

namespace commitlab::sim {

std::string TimelineData(const Timeline& t) {
  const bool zh = t.language == Language::kChinese;
  auto w = [zh](const char* en, const char* cn) { return std::string(zh ? cn : en); };
  const TimelineLayout at(t);
  Json d = Json::object();
  d["left"] = kLeft;
  d["plot"] = kPlotWidth;
  d["top"] = kTop;
  d["xmax"] = t.x_max;
  d["byStep"] = t.by_step;
  d["unit"] = ClockUnit(t).first;
  d["words"] = {
      {"stepline", w("step {0} of {1} · scheduler step {2} · x = {3}", "第 {0} 步，共 {1} 步 · 调度步 {2} · x = {3}")},
      {"start", w("before the first event", "第一个事件之前")},
      {"nothing", w("(nothing recorded at this step)", "（这一步没有记录事件）")},
      {"reach", w("the stepper covers the first {0} of {1} steps", "步进只覆盖前 {0} 步（共 {1} 步）")},
      {"bin", w("{0} {1}–{2}: {3} operations, {4} publishes won, {5} lost, {6} retry waits",
                "{0} {1}–{2}：{3} 次操作，{4} 次发布生效，{5} 次落败，{6} 次重试等待")},
      {"snapshots", w("snapshots {0}–{1} ({2})", "快照 {0}–{1}（{2} 个）")}};
  d["lanes"] = t.lanes;
  Json tables = Json::array(), names = Json::array();
  for (const TimelineTable& table : t.tables) {
    tables.push_back(table.lanes);
    names.push_back(table.name.empty()
                        ? w("the table", "表")
                        : fmt::format(fmt::runtime(w("table {} ({})", "表 {}（{}）")), table.name, table.protocol));
  }
  d["tables"] = std::move(tables);
  d["tableNames"] = std::move(names);
  Json steps = Json::array();
  for (const TimelineStep& s : t.steps) {
    Json writers = Json::array(), rows = Json::array();
    for (const auto& [lane, text] : s.writers) writers.push_back({lane, text});
    for (const auto& [table, text] : s.tables) rows.push_back({table, text});
    steps.push_back({s.x, s.step, s.said, std::move(writers), std::move(rows)});
  }
  d["steps"] = std::move(steps);
  d["stepsTotal"] = t.steps_total;
  if (t.aggregated) {
    Json lanes = Json::array(), chains = Json::array();
    for (const std::vector<TimelineBin>& bins : t.lane_bins) {
      Json flat = Json::array();
      for (size_t b = 0; b < bins.size(); ++b) {
        const TimelineBin& x = bins[b];
        if (x.ops + x.waits == 0 && x.busy == 0 && x.waiting == 0) continue;
        for (double v : {static_cast<double>(b), static_cast<double>(x.ops), static_cast<double>(x.won),
                         static_cast<double>(x.lost), static_cast<double>(x.waits), std::round(x.busy * 100),
                         std::round(x.waiting * 100)})
          flat.push_back(static_cast<int64_t>(v));
      }
      lanes.push_back(std::move(flat));
    }
    for (const std::vector<TimelineChainBin>& bins : t.chain_bins) {
      Json flat = Json::array();
      for (size_t b = 0; b < bins.size(); ++b) {
        if (bins[b].count == 0) continue;
        for (int64_t v : {static_cast<int64_t>(b), static_cast<int64_t>(bins[b].count), bins[b].first, bins[b].last})
          flat.push_back(v);
      }
      chains.push_back(std::move(flat));
    }
    d["bins"] = {{"n", t.bins},
                 {"lanes", std::move(lanes)},
                 {"laneY", at.lane_y},
                 {"chains", std::move(chains)},
                 {"chainY", at.chain_y}};
  }
  std::string text = d.dump(-1, ' ', false, Json::error_handler_t::replace);
  // Inside <script>: "</" would end it.
  for (size_t at_ = text.find("</"); at_ != std::string::npos; at_ = text.find("</", at_ + 3))
    text.insert(at_ + 1, "\\");
  return text;
}

}  // namespace commitlab::sim
