#include "commitlab/sim/timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/history_fields.h"

namespace commitlab::sim {
namespace {

// The first `title "..."` line of the scenario text the header recorded.
std::string TitleOf(const Json& header) {
  const Json* scenario = header.contains("scenario") ? &header["scenario"] : nullptr;
  if (scenario == nullptr || !scenario->is_object()) return "commitlab run";
  const Json* text_field = scenario->contains("text") ? &(*scenario)["text"] : nullptr;
  if (text_field == nullptr || !text_field->is_string()) return "commitlab run";
  const std::string& text = text_field->get_ref<const std::string&>();
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line(text.data() + at, end - at);
    if (line.starts_with("title \"") && line.size() > 8) {
      const size_t close = line.rfind('"');
      if (close > 7) return std::string(line.substr(7, close - 7));
    }
    at = end + 1;
  }
  const Json* file = scenario->contains("file") ? &(*scenario)["file"] : nullptr;
  return file != nullptr && file->is_string() ? file->get<std::string>() : "commitlab run";
}

std::string Number(const Json& j) { return j.is_number_integer() ? fmt::format("{}", j.get<int64_t>()) : j.dump(); }

class Builder {
 public:
  Builder(const std::vector<Json>& history, TimelineAxis axis) : history_(history), axis_(axis) {}

  Result<Timeline> Build() {
    if (history_.size() < 2) return Status::InvalidArgument("line 1: not a commitlab history (no header)");
    COMMITLAB_RETURN_IF_ERROR(CheckHistoryFormat(history_.front()));
    t_.title = TitleOf(history_.front());
    if (const Json& h = history_.front();
        h.contains("plan") && h["plan"].is_object() && h["plan"].contains("retry") && h["plan"]["retry"].is_string()) {
      if (Result<RetryPolicy> p = ParseRetryPolicy(h["plan"]["retry"].get<std::string>()); p.ok()) policy_ = *p;
    }
    t_.by_step = axis_ == TimelineAxis::kStep || (axis_ == TimelineAxis::kAuto && !MostOpsTakeTime());
    const Json& header = history_.front();
    t_.wall_clock = header.contains("plan") && header["plan"].is_object() && header["plan"].contains("sched") &&
                    header["plan"]["sched"] == "free";
    Imported(header);
    bool footer = false;
    for (size_t i = 1; i < history_.size() && !footer; ++i) {
      const Json& e = history_[i];
      if (!e.is_object() || !e.contains("type") || !e["type"].is_string())
        return Status::InvalidArgument(fmt::format("line {}: an event without a type", i + 1));
      if (e["type"] == "footer") {
        footer = true;
        continue;
      }
      if (!e.contains("writer") || !e["writer"].is_string())
        return Status::InvalidArgument(fmt::format("line {}: an event without a writer", i + 1));
      // A member of another type than docs/history.md gives it: the line, not a crash.
      try {
        COMMITLAB_RETURN_IF_ERROR(Event(e, i));
      } catch (const nlohmann::json::exception& ex) {
        return Status::InvalidArgument(fmt::format("line {}: {}", i + 1, ex.what()));
      }
    }
    if (!footer) t_.warnings.push_back("the history has no footer: the run did not finish, or the file was cut");
    for (const auto& [writer, open] : open_) {
      // An operation that never ended (the writer crashed, or the file was cut): drawn to the end.
      TimelineSpan s{.lane = lane_[writer], .x0 = open.x0, .x1 = t_.x_max, .kind = open.op, .outcome = "unfinished"};
      s.label = open.op;
      s.tip = fmt::format("{} {}: never ended", writer, open.op);
      s.event = open.event;
      t_.spans.push_back(std::move(s));
    }
    MatchLostRaces();
    return std::move(t_);
  }

 private:
  struct Open {
    std::string op;
    double x0 = 0;
    std::string event;
  };
  struct Lost {
    size_t span;        // the loser's publish
    std::string event;  // its atomic_commit_failed
    std::string winner;
    int64_t snapshot;
  };

  // Whether at least half of the storage operations took time: a run without latency (or with
  // only retry waits) is drawn by steps, or it would be a few pixels wide.
  bool MostOpsTakeTime() const {
    std::map<std::string, int64_t> start;
    size_t ops = 0;
    size_t timed = 0;
    for (size_t i = 1; i < history_.size(); ++i) {
      const Json& e = history_[i];
      if (!e.is_object() || !e.contains("writer") || !e["writer"].is_string() || !e.contains("t_us") ||
          !e["t_us"].is_number_integer())
        continue;
      if (!e.contains("type") || !e["type"].is_string()) continue;  // Build() says which line
      const std::string type = e["type"].get<std::string>();
      if (type == "op_start") start[e["writer"].get<std::string>()] = e["t_us"].get<int64_t>();
      if (type != "op_end") continue;
      ++ops;
      auto it = start.find(e["writer"].get<std::string>());
      if (it != start.end() && e["t_us"].get<int64_t>() > it->second) ++timed;
    }
    return ops > 0 && 2 * timed >= ops;
  }

  // An imported history (commitlab import): the commits at their own times, which the log wrote
  // with the writers' clocks, so the axis is wall-clock time from the first commit.
  void Imported(const Json& header) {
    if (header.value("command", "") != "import") return;
    const Json source = header.contains("source") ? header["source"] : Json();
    t_.title = fmt::format("{} log {}", StringField(source, "format"), StringField(source, "log"));
    t_.wall_clock = true;
    t_.clock_origin = StringField(source, "origin");
    if (t_.clock_origin.empty()) t_.clock_origin = "the first commit";
    t_.by_step = axis_ == TimelineAxis::kStep;
  }

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
    if (e.contains("user") && e["user"].is_string() && !e["user"].get_ref<const std::string&>().empty())
      user_[writer] = e["user"].get<std::string>();
    const double x = X(e, index);
    Extend(x);
    if (type == "op_start") {
      open_[writer] = {e.value("op", "?"), x, e.dump()};
    } else if (type == "op_end") {
      auto it = open_.find(writer);
      if (it == open_.end())
        return Status::InvalidArgument(fmt::format("line {}: an op_end without its op_start", index + 1));
      TimelineSpan s{.lane = lane, .x0 = it->second.x0, .x1 = std::max(x, it->second.x0), .kind = it->second.op};
      open_.erase(it);
      s.event = e.dump();
      if (s.kind == "publish") {
        s.outcome = e.value("outcome", "unknown");
        if (e.contains("snapshot") && e["snapshot"].is_number_integer()) s.snapshot = e["snapshot"].get<int64_t>();
        s.label = s.snapshot ? fmt::format("#{}", *s.snapshot) : "publish";
        s.tip = fmt::format("{} publishes {}: {}", writer, s.label, s.outcome);
        if (s.outcome == "published") {
          published_[writer].push_back(t_.spans.size());
          // What storage recorded: also a publish its writer was told had failed.
          if (s.snapshot) t_.chain.push_back({.x = x, .id = *s.snapshot, .user = writer, .event = e.dump()});
        }
        last_publish_[writer] = t_.spans.size();
      } else if (e.contains("saw")) {
        s.label = fmt::format("saw {}", Number(e["saw"]));
        s.tip = fmt::format("{} {}: the latest was {}", writer, s.kind, Number(e["saw"]));
      } else {
        const std::string file = e.value("file", "");
        s.label = file.empty() ? s.kind : ShortFileName(file);
        s.tip = file.empty() ? fmt::format("{} {}", writer, s.kind) : fmt::format("{} {} {}", writer, s.kind, file);
      }
      t_.spans.push_back(std::move(s));
    } else if (type == "retry_wait") {
      const int64_t wait = e.value("wait_us", int64_t{0});
      const double x1 = t_.by_step ? x + 1 : x + static_cast<double>(wait) / 1000.0;
      Extend(x1);
      TimelineSpan s{.lane = lane, .x0 = x, .x1 = x1, .kind = "wait", .label = fmt::format("{} ms", wait / 1000)};
      const RetryWait parts{.base_micros = e.value("base_us", int64_t{0}),
                            .jitter_micros = e.value("jitter_us", int64_t{0}),
                            .wait_micros = wait};
      const int failures = static_cast<int>(e.value("attempt", int64_t{1}));
      // By the run's policy's formula when it made this wait; else by its parts.
      s.tip = fmt::format("{} waits {}", writer, policy_ ? ExplainWait(*policy_, failures, parts) : ExplainWait(parts));
      s.event = e.dump();
      t_.spans.push_back(std::move(s));
    } else if (type == "gate_wait") {
      gate_wait_[writer] = x;
    } else if (type == "gate_open") {
      Gate(e, writer, lane, x);
    } else if (type == "atomic_commit_failed") {
      Arrow(e, writer);
    } else if (type == "finding") {
      const bool problem = StringField(e, "severity") == "problem";
      t_.marks.push_back(
          {.lane = lane,
           .x = x,
           .kind = problem ? "finding" : "note",
           .tip = fmt::format("{} {}: {}", problem ? "PROBLEM" : "note", e.value("kind", "?"), e.value("message", "")),
           .event = e.dump()});
    } else if (type == "conflict" || type == "gave_up" || type == "crashed" || type == "unknown_outcome" ||
               type == "fault" || type == "idempotent_match" || type == "error") {
      std::string message = e.value("message", "");
      if (type == "fault") message = fmt::format("fault {} at {}", e.value("effect", "?"), e.value("point", "?"));
      message = message.substr(0, message.find('\n'));
      t_.marks.push_back(
          {.lane = lane, .x = x, .kind = type, .tip = fmt::format("{}: {}", writer, message), .event = e.dump()});
    }
    return Status::OK();
  }

  // A writer held at an `order` line: a span while it waited, and an arrow from the writer whose
  // point opened the gate ("A.point -> B.point"; the writer is the text before the point's dot).
  void Gate(const Json& e, const std::string& writer, size_t lane, double x) {
    const std::string order = e.value("order", "");
    const Json& line = e.contains("line") ? e["line"] : Json();
    const std::string label = line.is_number_integer() ? fmt::format("order {} (line {})", order, Number(line))
                                                       : fmt::format("order {}", order);
    auto waited = gate_wait_.find(writer);
    if (waited != gate_wait_.end()) {
      if (x > waited->second) {
        TimelineSpan s{.lane = lane, .x0 = waited->second, .x1 = x, .kind = "gate", .label = "order"};
        s.tip = fmt::format("{} waits: {}", writer, label);
        s.event = e.dump();
        t_.spans.push_back(std::move(s));
      }
      gate_wait_.erase(waited);
    }
    const std::string first = order.substr(0, order.find(" -> "));
    const size_t dot = first.rfind('.');
    if (dot == std::string::npos) return;
    auto from = lane_.find(first.substr(0, dot));
    if (from == lane_.end() || from->second == lane) return;
    t_.gates.push_back({.from_lane = from->second, .to_lane = lane, .x = x, .label = label, .event = e.dump()});
  }

  // A lost race: matched with the winner's publish once every publish is known (the winner's may
  // be recorded after the loser's failure when both happen at one instant).
  void Arrow(const Json& e, const std::string& loser) {
    ++t_.lost_races;
    auto lost = last_publish_.find(loser);
    if (lost == last_publish_.end() || !e.contains("lost_to") || !e["lost_to"].is_object()) return;
    const Json& to = e["lost_to"];
    if (!to.contains("writer") || !to["writer"].is_string()) return;  // injected: nobody took it
    if (!to.contains("snapshot") || !to["snapshot"].is_number_integer()) return;
    lost_.push_back({lost->second, e.dump(), to["writer"].get<std::string>(), to["snapshot"].get<int64_t>()});
  }

  void MatchLostRaces() {
    for (const Lost& l : lost_) {
      const std::vector<size_t>& won = published_[l.winner];
      for (auto it = won.rbegin(); it != won.rend(); ++it) {
        if (t_.spans[*it].snapshot != l.snapshot) continue;
        t_.arrows.push_back({.winner = *it,
                             .loser = l.span,
                             .label = fmt::format("#{} taken by {}", l.snapshot, l.winner),
                             .event = l.event});
        break;
      }
    }
    for (TimelineSnapshot& s : t_.chain)
      if (auto it = user_.find(s.user); it != user_.end()) s.user = it->second;
  }

  const std::vector<Json>& history_;
  const TimelineAxis axis_;
  std::optional<RetryPolicy> policy_;  // the run's, from the header
  Timeline t_;
  std::map<std::string, size_t> lane_;
  std::map<std::string, Open> open_;
  std::map<std::string, std::vector<size_t>> published_;  // writer -> its won publishes
  std::map<std::string, size_t> last_publish_;
  std::map<std::string, std::string> user_;  // writer -> commit user
  std::map<std::string, double> gate_wait_;  // writer -> where it began waiting at an order line
  std::vector<Lost> lost_;
};

}  // namespace

Result<Timeline> BuildTimeline(const std::vector<Json>& history, TimelineAxis axis) {
  return Builder(history, axis).Build();
}

}  // namespace commitlab::sim
