#include "commitlab/sim/timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/history_fields.h"
#include "commitlab/sim/run_state.h"
#include "timeline_steps.h"

namespace commitlab::sim {
namespace {

std::string Number(const Json& j) { return j.is_number_integer() ? fmt::format("{}", j.get<int64_t>()) : j.dump(); }

// Pass 1: what the drawing must know before it draws: the lanes, each axis's extent, and how
// many spans each lane has (which decides whether the lanes are binned).
struct Survey {
  std::vector<std::string> writers;  // in order of first appearance
  std::map<std::string, size_t> spans;
  size_t ops = 0;
  size_t timed = 0;
  double time_max = 0;  // ms
  double step_max = 0;  // steps (a line's index where a step is missing)
  bool footer = false;
};

// A member the format gives a type (docs/history.md) that has another: the line, not a drawing
// that quietly takes a default.
Status CheckMembers(const Json& e, size_t number) {
  for (const char* key : {"writer", "op", "outcome", "order", "message", "user", "file"}) {
    if (e.contains(key) && !e[key].is_string())
      return Status::InvalidArgument(fmt::format("line {}: member \"{}\" is not a string", number, key));
  }
  for (const char* key : {"t_us", "step", "snapshot", "wait_us", "line"}) {
    if (e.contains(key) && !e[key].is_number_integer() && !(e[key].is_null() && std::string_view(key) == "step"))
      return Status::InvalidArgument(fmt::format("line {}: member \"{}\" is not an integer", number, key));
  }
  return Status::OK();
}

Status SurveyEvents(const HistoryEvents& events, Survey* s) {
  std::map<std::string, int64_t> start;
  std::set<std::string> seen;
  return events([&](const Json& e, size_t number) -> Status {
    if (s->footer) return Status::OK();
    if (!e.is_object() || !e.contains("type") || !e["type"].is_string())
      return Status::InvalidArgument(fmt::format("line {}: an event without a type", number));
    const std::string type = e["type"].get<std::string>();
    if (type == "footer") {
      s->footer = true;
      return Status::OK();
    }
    if (!e.contains("writer") || !e["writer"].is_string())
      return Status::InvalidArgument(fmt::format("line {}: an event without a writer", number));
    COMMITLAB_RETURN_IF_ERROR(CheckMembers(e, number));
    const std::string writer = e["writer"].get<std::string>();
    if (seen.insert(writer).second) s->writers.push_back(writer);
    const int64_t t = IntField(e, "t_us", 0);
    const int64_t step = IntField(e, "step", static_cast<int64_t>(number) - 1);
    double time = static_cast<double>(t) / 1000.0;
    double steps = static_cast<double>(step);
    if (type == "op_start") start[writer] = t;
    if (type == "op_end") {
      ++s->ops;
      ++s->spans[writer];
      auto it = start.find(writer);
      if (it != start.end() && t > it->second) ++s->timed;
    } else if (type == "retry_wait") {
      ++s->spans[writer];
      time += static_cast<double>(IntField(e, "wait_us", 0)) / 1000.0;
      steps += 1;
    }
    s->time_max = std::max(s->time_max, time);
    s->step_max = std::max(s->step_max, steps);
    return Status::OK();
  });
}

// The words of the drawing's tips and labels.
struct Words {
  Language language;
  std::string Publish(const std::string& writer, const std::string& label, const std::string& outcome) const {
    const std::string o = language != Language::kChinese ? outcome
                          : outcome == "published"       ? "生效"
                          : outcome == "lost"            ? "落败"
                                                         : "结果未知";
    return Say(language, "{0} publishes {1}: {2}", "{0} 发布 {1}：{2}", writer, label, o);
  }
  // The lost race's arrow, in its protocol's words (sim/protocol_words.h).
  std::string TakenBy(const std::string& protocol, int64_t id, const std::string& winner) const {
    const char* zh = protocol == "iceberg" ? "{1} 先把指针换到了 v{0}"
                     : protocol == "delta" ? "版本 {0} 被 {1} 先写入"
                                           : "#{0} 被 {1} 抢到";
    return Say(language, "#{0} taken by {1}", zh, id, winner);
  }
};

class Builder {
 public:
  Builder(const Json& header, const HistoryEvents& events, const TimelineOptions& o)
      : header_(header), events_(events), o_(o), words_{o.language} {}

  Result<Timeline> Build() {
    COMMITLAB_RETURN_IF_ERROR(CheckHistoryFormat(header_));
    Survey survey;
    COMMITLAB_RETURN_IF_ERROR(SurveyEvents(events_, &survey));
    Plan(survey);
    steps_ = std::make_unique<StepRecorder>(header_, o_.language, lane_, o_.max_steps, &t_);
    COMMITLAB_RETURN_IF_ERROR(events_([this](const Json& e, size_t number) -> Status {
      if (footer_) return Status::OK();
      // A member of another type than docs/history.md gives it: the line, not a crash.
      try {
        return Event(e, number);
      } catch (const nlohmann::json::exception& ex) {
        return Status::InvalidArgument(fmt::format("line {}: {}", number, ex.what()));
      }
    }));
    steps_->Finish();
    if (!footer_) t_.warnings.push_back("the history has no footer: the run did not finish, or the file was cut");
    for (const auto& [writer, open] : open_) Unfinished(writer, open);
    MatchLostRaces();
    Causes();
    LostUpdates();
    t_.spans_total = t_.aggregated ? spans_binned_ : t_.spans.size();
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
  struct CounterRead {
    double x = 0;
    int64_t read_at = 0;
    std::string tip;
    std::string event;
  };
  struct CounterCommit {
    std::string writer;
    int64_t read_at = 0;
    int64_t value = 0;
    int64_t version = -1;
    CounterRead read;
  };

  // Lanes grouped by table; the axis; binned or not.
  void Plan(const Survey& s) {
    t_.language = o_.language;
    t_.title = ScenarioTitle(header_, o_.language);
    if (const Json& h = header_; h.contains("plan") && h["plan"].is_object()) {
      if (Result<RetryPolicy> p = ParseRetryPolicy(StringField(h["plan"], "retry")); p.ok()) policy_ = *p;
      t_.wall_clock = StringField(h["plan"], "sched") == "free";
    }
    t_.by_step =
        o_.axis == TimelineAxis::kStep || (o_.axis == TimelineAxis::kAuto && !(s.ops > 0 && 2 * s.timed >= s.ops));
    Imported(header_);
    t_.x_max = t_.by_step ? s.step_max : s.time_max;
    layout_ = TablesOfHeader(header_);
    for (const HistoryTables::Table& table : layout_.tables)
      t_.tables.push_back({.name = table.name, .protocol = table.protocol, .lanes = {}});
    std::vector<std::string> writers = s.writers;
    std::stable_sort(writers.begin(), writers.end(), [&](const std::string& a, const std::string& b) {
      return layout_.TableOf(a) < layout_.TableOf(b);
    });
    size_t most = 0, all = 0;
    for (const std::string& w : writers) {
      lane_[w] = t_.lanes.size();
      t_.tables[layout_.TableOf(w)].lanes.push_back(t_.lanes.size());
      t_.lanes.push_back(w);
      auto n = s.spans.find(w);
      most = std::max(most, n == s.spans.end() ? size_t{0} : n->second);
      all += n == s.spans.end() ? 0 : n->second;
    }
    t_.aggregated = most > o_.detail_spans_per_lane || all > 20 * o_.detail_spans_per_lane;
    if (!t_.aggregated) return;
    t_.bins = std::max<size_t>(64, std::min(o_.bins, 2'000'000 / std::max<size_t>(1, t_.lanes.size())));
    t_.lane_bins.assign(t_.lanes.size(), std::vector<TimelineBin>(t_.bins));
    t_.chain_bins.assign(t_.tables.size(), std::vector<TimelineChainBin>(t_.bins));
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
    t_.by_step = o_.axis == TimelineAxis::kStep;
  }

  double X(const Json& e, size_t number) const {
    if (!t_.by_step) return static_cast<double>(IntField(e, "t_us", 0)) / 1000.0;
    return static_cast<double>(IntField(e, "step", static_cast<int64_t>(number) - 1));
  }
  size_t Bin(double x) const {
    // An imported commit can sit before the first one (clock skew): it goes to the first bin.
    if (t_.x_max <= 0 || !(x > 0)) return 0;
    return std::min(t_.bins - 1, static_cast<size_t>(x / t_.x_max * static_cast<double>(t_.bins)));
  }
  // Adds the share of [x0, x1] each bin covers to `field` of the lane's bins.
  void Cover(size_t lane, double x0, double x1, double TimelineBin::*field) {
    if (x1 <= x0 || t_.x_max <= 0) return;
    const double width = t_.x_max / static_cast<double>(t_.bins);
    for (size_t b = Bin(x0); b <= Bin(x1) && b < t_.bins; ++b) {
      const double lo = std::max(x0, static_cast<double>(b) * width);
      const double hi = std::min(x1, static_cast<double>(b + 1) * width);
      if (hi > lo) t_.lane_bins[lane][b].*field = std::min(1.0, t_.lane_bins[lane][b].*field + (hi - lo) / width);
    }
  }

  Status Event(const Json& e, size_t number) {
    const std::string type = StringField(e, "type");
    if (type == "footer") {
      footer_ = true;
      NoteFooter(e);
      steps_->Add(e, last_x_);
      return Status::OK();
    }
    const std::string writer = StringField(e, "writer");
    const size_t lane = lane_.at(writer);
    if (!StringField(e, "user").empty()) user_[writer] = StringField(e, "user");
    const double x = X(e, number);
    last_x_ = std::max(last_x_, x);
    steps_->Add(e, x);
    if (type == "op_start") {
      open_[writer] = {StringField(e, "op").empty() ? "?" : StringField(e, "op"), x, t_.aggregated ? "" : e.dump()};
    } else if (type == "op_end") {
      auto it = open_.find(writer);
      if (it == open_.end())
        return Status::InvalidArgument(fmt::format("line {}: an op_end without its op_start", number));
      const Open open = std::move(it->second);
      open_.erase(it);
      OpEnd(e, writer, lane, open, x);
    } else if (type == "retry_wait") {
      Wait(e, writer, lane, x);
    } else if (type == "gate_wait") {
      gate_wait_[writer] = x;
    } else if (type == "gate_open") {
      Gate(e, writer, lane, x);
    } else if (type == "atomic_commit_failed") {
      Arrow(e, writer);
    } else if (type == "step_end" && e.contains("counter") && e["counter"].is_object()) {
      Counter(e, writer, x);
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
      Mark(e, type, writer, lane, x);
    }
    return Status::OK();
  }

  void OpEnd(const Json& e, const std::string& writer, size_t lane, const Open& open, double x) {
    const double x1 = std::max(x, open.x0);
    const std::string outcome = open.op == "publish" ? StringField(e, "outcome") : "";
    const std::optional<int64_t> snapshot = e.contains("snapshot") && e["snapshot"].is_number_integer()
                                                ? std::optional(e["snapshot"].get<int64_t>())
                                                : std::nullopt;
    if (outcome == "published" && snapshot) Snapshot(e, writer, x, *snapshot);
    if (t_.aggregated) {
      ++spans_binned_;
      TimelineBin& b = t_.lane_bins[lane][Bin(x1)];
      ++b.ops;
      b.won += outcome == "published";
      b.lost += outcome == "lost";
      Cover(lane, open.x0, x1, &TimelineBin::busy);
      return;
    }
    TimelineSpan s{.lane = lane, .x0 = open.x0, .x1 = x1, .kind = open.op};
    s.event = e.dump();
    if (s.kind == "publish") {
      s.outcome = outcome.empty() ? "unknown" : outcome;
      s.snapshot = snapshot;
      s.label = s.snapshot ? fmt::format("#{}", *s.snapshot) : "publish";
      s.tip = words_.Publish(writer, s.label, s.outcome);
      if (s.outcome == "published") published_[writer].push_back(t_.spans.size());
      last_publish_[writer] = t_.spans.size();
    } else if (e.contains("saw")) {
      s.label = Say(o_.language, "saw {0}", "读到 {0}", Number(e["saw"]));
      s.tip =
          Say(o_.language, "{0} {1}: the latest was {2}", "{0} {1}：最新的是 {2}", writer, s.kind, Number(e["saw"]));
    } else {
      const std::string file = StringField(e, "file");
      s.label = file.empty() ? s.kind : ShortFileName(file);
      s.tip = file.empty() ? fmt::format("{} {}", writer, s.kind) : fmt::format("{} {} {}", writer, s.kind, file);
    }
    t_.spans.push_back(std::move(s));
  }

  // What storage recorded: also a publish its writer was told had failed.
  void Snapshot(const Json& e, const std::string& writer, double x, int64_t id) {
    const size_t table = layout_.TableOf(writer);
    chain_index_[{table, id}] = t_.chain.size();
    landed_[writer] = id;
    if (t_.aggregated) {
      TimelineChainBin& b = t_.chain_bins[table][Bin(x)];
      if (b.count++ == 0) b.first = id;
      b.last = id;
      // Only what a later link needs: the conflicts' culprits and the counters' commits.
      t_.chain.push_back({.x = x, .id = id, .user = writer, .event = "", .table = table, .writer = writer});
      return;
    }
    t_.chain.push_back({.x = x, .id = id, .user = writer, .event = e.dump(), .table = table, .writer = writer});
  }

  void Wait(const Json& e, const std::string& writer, size_t lane, double x) {
    const int64_t wait = IntField(e, "wait_us", 0);
    const double x1 = t_.by_step ? x + 1 : x + static_cast<double>(wait) / 1000.0;
    if (t_.aggregated) {
      ++spans_binned_;
      ++t_.lane_bins[lane][Bin(x)].waits;
      Cover(lane, x, x1, &TimelineBin::waiting);
      return;
    }
    TimelineSpan s{.lane = lane, .x0 = x, .x1 = x1, .kind = "wait", .label = fmt::format("{} ms", wait / 1000)};
    const RetryWait parts{
        .base_micros = IntField(e, "base_us", 0), .jitter_micros = IntField(e, "jitter_us", 0), .wait_micros = wait};
    const int failures = static_cast<int>(IntField(e, "attempt", 1));
    // By the run's policy's formula when it made this wait; else by its parts.
    const std::string how = policy_ ? ExplainWait(*policy_, failures, parts) : ExplainWait(parts);
    s.tip = Say(o_.language, "{0} waits {1}", "{0} 等待 {1}", writer, WaitWords(how, o_.language));
    s.event = e.dump();
    t_.spans.push_back(std::move(s));
  }

  void Mark(const Json& e, const std::string& type, const std::string& writer, size_t lane, double x) {
    ++t_.marks_total;
    if (t_.marks.size() >= o_.max_marks) return;
    std::string message = StringField(e, "message");
    if (type == "fault")
      message = Say(o_.language, "fault {0} at {1}", "在 {1} 注入故障 {0}",
                    StringField(e, "effect").empty() ? "?" : StringField(e, "effect"),
                    StringField(e, "point").empty() ? "?" : StringField(e, "point"));
    message = message.substr(0, message.find('\n'));
    if (type == "conflict" && e.contains("culprit") && e["culprit"].is_object())
      culprits_.push_back({t_.marks.size(), layout_.TableOf(writer), e["culprit"]});
    t_.marks.push_back({.lane = lane,
                        .x = x,
                        .kind = type,
                        .tip = Say(o_.language, "{0}: {1}", "{0}：{1}", writer, message),
                        .event = e.dump()});
  }

  // A writer held at an `order` line: a span while it waited, and an arrow from the writer whose
  // point opened the gate ("A.point -> B.point"; the writer is the text before the point's dot).
  void Gate(const Json& e, const std::string& writer, size_t lane, double x) {
    const std::string order = StringField(e, "order");
    const Json& line = e.contains("line") ? e["line"] : Json();
    const std::string label = line.is_number_integer() ? Say(o_.language, "order {0} (line {1})",
                                                             "order {0}（第 {1} 行）", order, Number(line))
                                                       : fmt::format("order {}", order);
    auto waited = gate_wait_.find(writer);
    if (waited != gate_wait_.end()) {
      if (x > waited->second && !t_.aggregated) {
        TimelineSpan s{.lane = lane, .x0 = waited->second, .x1 = x, .kind = "gate", .label = "order"};
        s.tip = Say(o_.language, "{0} waits: {1}", "{0} 等待：{1}", writer, label);
        s.event = e.dump();
        t_.spans.push_back(std::move(s));
      }
      gate_wait_.erase(waited);
    }
    const std::string first = order.substr(0, order.find(" -> "));
    const size_t dot = first.rfind('.');
    if (dot == std::string::npos || t_.aggregated) return;
    auto from = lane_.find(first.substr(0, dot));
    if (from == lane_.end() || from->second == lane) return;
    t_.gates.push_back({.from_lane = from->second, .to_lane = lane, .x = x, .label = label, .event = e.dump()});
  }

  // A lost race: matched with the winner's publish once every publish is known (the winner's may
  // be recorded after the loser's failure when both happen at one instant).
  void Arrow(const Json& e, const std::string& loser) {
    ++t_.lost_races;
    auto lost = last_publish_.find(loser);
    if (t_.aggregated || lost == last_publish_.end() || !e.contains("lost_to") || !e["lost_to"].is_object()) return;
    const Json& to = e["lost_to"];
    if (!to.contains("writer") || !to["writer"].is_string()) return;  // injected: nobody took it
    if (!to.contains("snapshot") || !to["snapshot"].is_number_integer()) return;
    lost_.push_back({lost->second, e.dump(), to["writer"].get<std::string>(), to["snapshot"].get<int64_t>()});
  }

  void Counter(const Json& e, const std::string& writer, double x) {
    const Json& c = e["counter"];
    const std::string action = StringField(c, "action");
    if (action == "read") {
      reads_[writer] = {.x = x,
                        .read_at = IntField(c, "read_at", 0),
                        .tip = Say(o_.language, "{0} read {1} = {2} at v{3}", "{0} 在 v{3} 读到 {1} = {2}", writer,
                                   StringField(c, "key"), IntField(c, "read", 0), IntField(c, "read_at", 0)),
                        .event = e.dump()};
    } else if (action == "commit" && StringField(e, "status") == "ok") {
      auto landed = landed_.find(writer);
      counters_.push_back({.writer = writer,
                           .read_at = IntField(c, "read_at", 0),
                           .value = IntField(c, "value", 0),
                           .version = landed == landed_.end() ? -1 : landed->second,
                           .read = reads_[writer]});
    }
  }

  void Unfinished(const std::string& writer, const Open& open) {
    // An operation that never ended (the writer crashed, or the file was cut): drawn to the end.
    if (t_.aggregated) return;
    TimelineSpan s{.lane = lane_[writer], .x0 = open.x0, .x1 = t_.x_max, .kind = open.op, .outcome = "unfinished"};
    s.label = open.op;
    s.tip = Say(o_.language, "{0} {1}: never ended", "{0} {1}：没有结束", writer, open.op);
    s.event = open.event;
    t_.spans.push_back(std::move(s));
  }

  void MatchLostRaces() {
    for (const Lost& l : lost_) {
      const std::vector<size_t>& won = published_[l.winner];
      for (auto it = won.rbegin(); it != won.rend(); ++it) {
        if (t_.spans[*it].snapshot != l.snapshot) continue;
        const std::string& protocol = t_.tables[layout_.TableOf(l.winner)].protocol;
        t_.arrows.push_back({.winner = *it,
                             .loser = l.span,
                             .label = words_.TakenBy(protocol, l.snapshot, l.winner),
                             .event = l.event});
        break;
      }
    }
    for (TimelineSnapshot& s : t_.chain)
      if (auto it = user_.find(s.user); it != user_.end()) s.user = it->second;
  }

  // Each refusal to the snapshot its culprit names (Iceberg names it by sequence number, which is
  // its metadata version while each commit makes one snapshot).
  void Causes() {
    for (const Culprit& c : culprits_) {
      const int64_t id = IntField(c.culprit, "snapshot", -1);
      auto it = chain_index_.find({c.table, id});
      if (it == chain_index_.end()) continue;
      const std::string who = StringField(c.culprit, "writer");
      const std::string change = StringField(c.culprit, "change");
      const std::string file = ShortFileName(StringField(c.culprit, "file"));
      const std::string done = o_.language != Language::kChinese ? change
                               : change == "removed"             ? "删除了"
                               : change == "added"               ? "添加了"
                                                                 : "提交了";
      t_.causes.push_back(
          {.mark = c.mark,
           .snapshot = it->second,
           .label = file.empty() ? Say(o_.language, "caused by #{0}: {1} {2} first", "起因是 #{0}：{1} 先{2}", id, who,
                                       o_.language == Language::kChinese ? std::string("提交了") : change)
                                 : Say(o_.language, "caused by #{0}: {1} {2} {3}", "起因是 #{0}：{1} {2} {3}", id, who,
                                       done, file)});
    }
  }

  // A counter commit whose read was older than another writer's commit that landed before it
  // overwrote that commit unseen: drawn only when the checker found the lost update.
  void LostUpdates() {
    if (!has_lost_update_) return;
    std::sort(counters_.begin(), counters_.end(),
              [](const CounterCommit& a, const CounterCommit& b) { return a.version < b.version; });
    for (size_t i = 0; i < counters_.size(); ++i) {
      const CounterCommit& c = counters_[i];
      for (size_t j = 0; j < i; ++j) {
        const CounterCommit& d = counters_[j];
        if (d.writer == c.writer || d.version <= c.read_at) continue;
        const size_t table = layout_.TableOf(c.writer);
        auto mine = chain_index_.find({table, c.version});
        auto theirs = chain_index_.find({table, d.version});
        if (mine == chain_index_.end() || theirs == chain_index_.end()) continue;
        t_.lost_updates.push_back(
            {.lane = lane_[c.writer],
             .read_x = c.read.x,
             .overwrite = mine->second,
             .overwritten = theirs->second,
             .read_tip = c.read.tip,
             .label = Say(o_.language, "lost update: {0}'s {1} (v{2}) overwrote {3}'s {4} (v{5}) unseen; it read v{6}",
                          "丢失更新：{0} 的 {1}（v{2}）不知情地覆盖了 {3} 的 {4}（v{5}）；它读的是 v{6}", c.writer,
                          c.value, c.version, d.writer, d.value, d.version, c.read_at),
             .event = c.read.event});
      }
    }
  }

  void NoteFooter(const Json& footer) {
    if (!footer.contains("verdicts") || !footer["verdicts"].is_object()) return;
    const Json& v = footer["verdicts"];
    if (!v.contains("violations") || !v["violations"].is_array()) return;
    for (const Json& violation : v["violations"])
      has_lost_update_ = has_lost_update_ || StringField(violation, "kind") == "lost_update";
  }

  struct Culprit {
    size_t mark;
    size_t table;
    Json culprit;
  };

  const Json& header_;
  const HistoryEvents& events_;
  const TimelineOptions o_;
  const Words words_;
  HistoryTables layout_;
  std::optional<RetryPolicy> policy_;
  Timeline t_;
  std::unique_ptr<StepRecorder> steps_;
  bool footer_ = false;
  double last_x_ = 0;
  bool has_lost_update_ = false;
  size_t spans_binned_ = 0;
  std::map<std::string, size_t> lane_;
  std::map<std::string, Open> open_;
  std::map<std::string, std::vector<size_t>> published_;  // writer -> its won publishes
  std::map<std::string, size_t> last_publish_;
  std::map<std::string, std::string> user_;                   // writer -> commit user
  std::map<std::string, double> gate_wait_;                   // writer -> where it began waiting at an order line
  std::map<std::pair<size_t, int64_t>, size_t> chain_index_;  // (table, id) -> index into chain
  std::map<std::string, int64_t> landed_;                     // writer -> the id it published last
  std::vector<Lost> lost_;
  std::vector<Culprit> culprits_;
  std::map<std::string, CounterRead> reads_;
  std::vector<CounterCommit> counters_;
};

}  // namespace

Result<Timeline> BuildTimeline(const Json& header, const HistoryEvents& events, const TimelineOptions& options) {
  return Builder(header, events, options).Build();
}

Result<Timeline> BuildTimeline(const std::vector<Json>& history, const TimelineOptions& options) {
  if (history.size() < 2) return Status::InvalidArgument("line 1: not a commitlab history (no header)");
  const HistoryEvents events = [&history](const std::function<Status(const Json&, size_t)>& each) -> Status {
    for (size_t i = 1; i < history.size(); ++i) COMMITLAB_RETURN_IF_ERROR(each(history[i], i + 1));
    return Status::OK();
  };
  return BuildTimeline(history.front(), events, options);
}

Result<Timeline> BuildTimeline(const std::vector<Json>& history, TimelineAxis axis) {
  return BuildTimeline(history, TimelineOptions{.axis = axis});
}

}  // namespace commitlab::sim
