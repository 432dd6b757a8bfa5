#include "timeline_steps.h"

#include "commitlab/sim/history_fields.h"

namespace commitlab::sim {

// A table row of the page names at most this many live files.
constexpr size_t kPageFiles = 8;

StepRecorder::StepRecorder(const Json& header, Language language, const std::map<std::string, size_t>& lanes,
                           size_t max_steps, Timeline* out)
    : state_(header, language), lanes_(lanes), max_steps_(max_steps), out_(out) {
  writer_rows_.assign(out_->lanes.size(), "");
  table_rows_.assign(state_.tables().size(), "");
  TimelineStep start;
  for (size_t lane = 0; lane < out_->lanes.size(); ++lane) {
    writer_rows_[lane] = Say(language, "not started", "未开始");
    start.writers.emplace_back(lane, writer_rows_[lane]);
  }
  for (size_t t = 0; t < table_rows_.size(); ++t) {
    table_rows_[t] = state_.TableLine(t, kPageFiles);
    start.tables.emplace_back(t, table_rows_[t]);
  }
  out_->steps.push_back(std::move(start));
}

void StepRecorder::Add(const Json& e, double x) {
  const bool footer = StringField(e, "type") == "footer";
  const int64_t step = IntField(e, "step", -1);
  const bool keyed = step >= 0 && !footer;
  if (open_ && (!keyed || !keyed_ || step != key_)) Close();
  if (!open_) {
    open_ = true;
    keyed_ = keyed;
    key_ = step;
    ++out_->steps_total;
    current_ = TimelineStep{.x = x, .step = keyed ? step : -1};
  }
  if (out_->steps.size() > max_steps_) return;  // past the stepper's reach: only counted
  for (std::string& line : state_.Apply(e)) current_.said.push_back(std::move(line));
  if (footer) Close();
}

void StepRecorder::Close() {
  open_ = false;
  if (out_->steps.size() > max_steps_) return;
  for (const WriterNow& w : state_.writers()) {
    auto lane = lanes_.find(w.name);
    if (lane == lanes_.end()) continue;
    const std::string row = state_.WriterLine(static_cast<size_t>(&w - state_.writers().data()));
    if (row == writer_rows_[lane->second]) continue;
    writer_rows_[lane->second] = row;
    current_.writers.emplace_back(lane->second, row);
  }
  for (size_t t = 0; t < table_rows_.size(); ++t) {
    std::string row = state_.TableLine(t, kPageFiles);
    if (row == table_rows_[t]) continue;
    table_rows_[t] = row;
    current_.tables.emplace_back(t, std::move(row));
  }
  out_->steps.push_back(std::move(current_));
}

void StepRecorder::Finish() {
  if (open_) Close();
}

}  // namespace commitlab::sim
