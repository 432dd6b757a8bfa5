#include "commitlab/sim/timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

namespace commitlab::sim {
namespace {

// The first `title "..."` line of the scenario text the header recorded.
std::string TitleOf(const Json& header) {
  const Json* scenario = header.contains("scenario") ? &header["scenario"] : nullptr;
  if (scenario == nullptr || !scenario->is_object()) return "commitlab run";
  const std::string text = scenario->value("text", "");
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line(text.data() + at, end - at);
    if (line.starts_with("title \"") && line.size() > 8) {
      const size_t close = line.rfind('"');
      if (close > 7) return std::string(line.substr(7, close - 7));
    }
    at = end + 1;
  }
  return scenario->value("file", "commitlab run");
}

std::string ShortFile(std::string name) {
  // data-<uuid>-N.parquet: the uuid's first block and the counter are enough to tell files apart.
  if (name.size() > 28 && name.starts_with("data-")) return name.substr(0, 13) + "…" + name.substr(name.size() - 10);
  return name;
}

std::string Number(const Json& j) { return j.is_number_integer() ? fmt::format("{}", j.get<int64_t>()) : j.dump(); }

class Builder {
 public:
  Builder(const std::vector<Json>& history, TimelineAxis axis) : history_(history), axis_(axis) {}

  Result<Timeline> Build() {
    if (history_.size() < 2 || history_.front().value("type", "") != "header")
      return Status::InvalidArgument("line 1: not a commitlab history (no header)");
    t_.title = TitleOf(history_.front());
    bool any_time = false;
    for (size_t i = 1; i < history_.size(); ++i)
      any_time |= history_[i].value("t_us", int64_t{0}) > 0;
    t_.by_step = axis_ == TimelineAxis::kStep || (axis_ == TimelineAxis::kAuto && !any_time);
    for (size_t i = 1; i < history_.size(); ++i) {
      const Json& e = history_[i];
      const std::string type = e.value("type", "");
      if (type == "footer") break;
      if (!e.contains("writer") || !e["writer"].is_string())
        return Status::InvalidArgument(fmt::format("line {}: an event without a writer", i + 1));
      COMMITLAB_RETURN_IF_ERROR(Event(e, i));
    }
    return std::move(t_);
  }

 private:
  struct Open {
    std::string op;
    double x0 = 0;
  };

  double X(const Json& e, size_t index) const {
    if (!t_.by_step) return static_cast<double>(e.value("t_us", int64_t{0})) / 1000.0;
    const Json& step = e.contains("step") ? e["step"] : Json();
    return step.is_number_integer() ? static_cast<double>(step.get<int64_t>()) : static_cast<double>(index);
  }

  size_t Lane(const std::string& writer) {
    auto it = lane_.find(writer);
    if (it != lane_.end()) return it->second;
    t_.lanes.push_back(writer);
    return lane_[writer] = t_.lanes.size() - 1;
  }

  void Extend(double x) { t_.x_max = std::max(t_.x_max, x); }

  Status Event(const Json& e, size_t index) {
    const std::string type = e["type"].get<std::string>();
    const std::string writer = e["writer"].get<std::string>();
    const size_t lane = Lane(writer);
    const double x = X(e, index);
    Extend(x);
    if (type == "op_start") {
      open_[writer] = {e.value("op", "?"), x};
    } else if (type == "op_end") {
      auto it = open_.find(writer);
      if (it == open_.end()) return Status::InvalidArgument(fmt::format("line {}: an op_end without its op_start", index + 1));
      TimelineSpan s{.lane = lane, .x0 = it->second.x0, .x1 = std::max(x, it->second.x0), .kind = it->second.op};
      open_.erase(it);
      s.event = e.dump();
      if (s.kind == "publish") {
        s.outcome = e.value("outcome", "unknown");
        if (e.contains("snapshot") && e["snapshot"].is_number_integer()) s.snapshot = e["snapshot"].get<int64_t>();
        s.label = s.snapshot ? fmt::format("#{}", *s.snapshot) : "publish";
        s.tip = fmt::format("{} publishes {}: {}", writer, s.label, s.outcome);
        if (s.outcome == "published") published_[writer].push_back(t_.spans.size());
        last_publish_[writer] = t_.spans.size();
      } else if (e.contains("saw")) {
        s.label = fmt::format("saw {}", Number(e["saw"]));
        s.tip = fmt::format("{} {}: the latest was {}", writer, s.kind, Number(e["saw"]));
      } else {
        const std::string file = e.value("file", "");
        s.label = file.empty() ? s.kind : ShortFile(file);
        s.tip = file.empty() ? fmt::format("{} {}", writer, s.kind) : fmt::format("{} {} {}", writer, s.kind, file);
      }
      t_.spans.push_back(std::move(s));
    } else if (type == "retry_wait") {
      const int64_t wait = e.value("wait_us", int64_t{0});
      const double x1 = t_.by_step ? x + 1 : x + static_cast<double>(wait) / 1000.0;
      Extend(x1);
      TimelineSpan s{.lane = lane, .x0 = x, .x1 = x1, .kind = "wait", .label = fmt::format("{} ms", wait / 1000)};
      s.tip = fmt::format("{} waits {} ms = {} ms + {} ms jitter", writer, wait / 1000.0,
                          e.value("base_us", int64_t{0}) / 1000.0, e.value("jitter_us", int64_t{0}) / 1000.0);
      s.event = e.dump();
      t_.spans.push_back(std::move(s));
    } else if (type == "atomic_commit_failed") {
      Arrow(e, writer);
    } else if (type == "published") {
      if (e.contains("snapshot") && e["snapshot"].is_number_integer())
        t_.chain.push_back({.x = x, .id = e["snapshot"].get<int64_t>(), .user = e.value("user", writer), .event = e.dump()});
    } else if (type == "conflict" || type == "gave_up" || type == "crashed" || type == "unknown_outcome" ||
               type == "fault" || type == "idempotent_match" || type == "error") {
      std::string message = e.value("message", "");
      if (type == "fault") message = fmt::format("fault {} at {}", e.value("effect", "?"), e.value("point", "?"));
      message = message.substr(0, message.find('\n'));
      t_.marks.push_back({.lane = lane, .x = x, .kind = type, .tip = fmt::format("{}: {}", writer, message), .event = e.dump()});
    }
    return Status::OK();
  }

  // The loser's last publish, and the winner's publish of the snapshot it lost.
  void Arrow(const Json& e, const std::string& loser) {
    auto lost = last_publish_.find(loser);
    if (lost == last_publish_.end() || !e.contains("lost_to") || !e["lost_to"].is_object()) return;
    const Json& to = e["lost_to"];
    if (!to.contains("writer") || !to["writer"].is_string()) return;  // injected: nobody took it
    const std::string winner = to["writer"].get<std::string>();
    const Json snapshot = to.value("snapshot", Json());
    for (auto it = published_[winner].rbegin(); it != published_[winner].rend(); ++it) {
      const TimelineSpan& w = t_.spans[*it];
      if (!snapshot.is_number_integer() || w.snapshot != snapshot.get<int64_t>()) continue;
      t_.arrows.push_back({.winner = *it, .loser = lost->second,
                           .label = fmt::format("#{} taken by {}", *w.snapshot, winner)});
      return;
    }
  }

  const std::vector<Json>& history_;
  const TimelineAxis axis_;
  Timeline t_;
  std::map<std::string, size_t> lane_;
  std::map<std::string, Open> open_;
  std::map<std::string, std::vector<size_t>> published_;  // writer -> its won publishes
  std::map<std::string, size_t> last_publish_;
};

}  // namespace

Result<Timeline> BuildTimeline(const std::vector<Json>& history, TimelineAxis axis) {
  return Builder(history, axis).Build();
}

}  // namespace commitlab::sim
