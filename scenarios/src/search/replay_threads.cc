#include "search/replay_threads.h"

#include <fmt/format.h>

#include <utility>

#include "run/runner_history.h"

namespace commitlab::scenarios::internal {
namespace {

using sim::Json;

std::string Ordinal(size_t n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                       : n % 10 == 1                    ? "st"
                       : n % 10 == 2                    ? "nd"
                       : n % 10 == 3                    ? "rd"
                                                        : "th";
  return fmt::format("{}{}", n, suffix);
}

// How a publish ended, in a sentence.
std::string_view Won(PublishOutcome o) {
  switch (o) {
    case PublishOutcome::kPublished: return "won";
    case PublishOutcome::kAlreadyExists: return "lost";
    case PublishOutcome::kError: return "ended unknown";
  }
  return "ended unknown";
}

}  // namespace

Result<std::unique_ptr<ThreadReplay>> ThreadReplay::Make(const Scenario& s, const Json& header,
                                                         const std::vector<Json>& recorded) {
  if (const auto faults = header["plan"].find("faults"); faults != header["plan"].end() && faults->is_array()) {
    for (const Json& f : *faults) {
      if (f.is_string() && f.get<std::string>().find(":p=") != std::string::npos) {
        return Status::InvalidArgument(fmt::format(
            "line 1: fault {} fires by chance, and on OS threads it drew from each thread's own stream: no order of "
            "the simulator can force its draws",
            f.get<std::string>()));
      }
    }
  }
  std::unique_ptr<ThreadReplay> r(new ThreadReplay(s));
  r->ops_.resize(s.writers.size());
  r->next_.assign(s.writers.size(), 0);
  r->waiting_.assign(s.writers.size(), false);
  r->latest_.assign(s.tables.size(), 0);
  r->reads_left_.resize(s.tables.size());
  r->winners_.resize(s.tables.size());
  for (size_t i = 0; i < recorded.size(); ++i) {
    const Json& line = recorded[i];
    const size_t line_number = i + 2;  // after the header, 1-based
    const std::string type = line.value("type", "");
    if (type == "footer") r->recorded_footer_ = line;
    if (type != "op_end") continue;
    const std::string op = line.value("op", "");
    const bool read = op == "read-latest" && line.contains("saw");
    const bool publish = op == "publish" && line.contains("outcome");
    if (!read && !publish) continue;
    const std::optional<size_t> w = s.FindWriter(line.value("writer", ""));
    if (!w)
      return Status::InvalidArgument(
          fmt::format("line {}: writer {} is not in the scenario", line_number, line.value("writer", "")));
    Op o{.effect = publish ? Effect::kPublish : Effect::kRead,
         .snapshot = publish ? line.value("snapshot", int64_t{0}) : line.value("saw", int64_t{0}),
         .line = line_number};
    if (publish) {
      const std::optional<PublishOutcome> outcome = ParsePublishOutcomeNote(line.value("outcome", ""));
      if (!outcome) return Status::InvalidArgument(fmt::format("line {}: unknown publish outcome", line_number));
      o.outcome = *outcome;
    }
    if (!publish) ++r->reads_left_[s.writers[*w].table][o.snapshot];
    if (publish && o.outcome == PublishOutcome::kPublished) ++r->winners_[s.writers[*w].table][o.snapshot];
    r->ops_[*w].push_back(std::move(o));
  }
  if (r->recorded_footer_.is_null())
    return Status::InvalidArgument("the history has no footer: the recorded run did not finish");
  return r;
}

std::string ThreadReplay::Describe(size_t writer, const Op& op) const {
  const std::string who = fmt::format("{}'s {} storage effect (line {})", s_.writers[writer].name,
                                      Ordinal(static_cast<size_t>(&op - ops_[writer].data()) + 1), op.line);
  if (op.effect == Effect::kRead) return fmt::format("{}: a read of the latest snapshot that saw {}", who, op.snapshot);
  return fmt::format("{}: a publish of snapshot {} that {}", who, op.snapshot, Won(op.outcome));
}

void ThreadReplay::Fail(std::string why) {
  if (problem_.empty()) problem_ = std::move(why);
}

bool ThreadReplay::MayGo(size_t writer, const Op& op) {
  const size_t t = s_.writers[writer].table;
  if (op.effect == Effect::kRead) {
    if (latest_[t] > op.snapshot) {
      Fail(fmt::format("could not force {}: snapshot {} was already published", Describe(writer, op), latest_[t]));
      return true;
    }
    return latest_[t] == op.snapshot;
  }
  if (op.outcome == PublishOutcome::kPublished) {
    if (latest_[t] >= op.snapshot) {
      // Two winners of one snapshot: a store whose rename checks, then puts (no lock). The second
      // must check between the first's check and its put, which the recording cannot pin down.
      Fail(winners_[t][op.snapshot] > 1
               ? fmt::format("could not force {}: the recording has {} writers told they published snapshot {} (a "
                             "store that checks, then puts); in the simulator the first had already put it when "
                             "this one checked",
                             Describe(writer, op), winners_[t][op.snapshot], op.snapshot)
               : fmt::format("could not force {}: snapshot {} was already published", Describe(writer, op),
                             op.snapshot));
      return true;
    }
    const auto reads = reads_left_[t].find(op.snapshot - 1);
    return latest_[t] == op.snapshot - 1 && (reads == reads_left_[t].end() || reads->second == 0);
  }
  if (op.outcome == PublishOutcome::kAlreadyExists) return latest_[t] >= op.snapshot;
  return latest_[t] >= op.snapshot - 1;
}

void ThreadReplay::Before(size_t writer, Effect effect) {
  if (!problem_.empty()) return;  // past the first problem the replay only runs to its end
  if (next_[writer] >= ops_[writer].size()) {
    Fail(fmt::format("{} makes more reads and publishes than the recording ({})", s_.writers[writer].name,
                     ops_[writer].size()));
    return;
  }
  const Op& op = ops_[writer][next_[writer]];
  if (op.effect != effect) {
    Fail(fmt::format("could not force {}: the writer {} instead", Describe(writer, op),
                     effect == Effect::kPublish ? "publishes" : "reads the latest snapshot"));
    return;
  }
  while (problem_.empty() && !MayGo(writer, op)) {
    waiting_[writer] = true;
    const Status st = scheduler_->Block();
    waiting_[writer] = false;
    if (!st.ok()) {
      Fail(fmt::format("could not force {}: no order of the other writers gets the table there ({})",
                       Describe(writer, op), st.message()));
    }
  }
}

void ThreadReplay::After(size_t writer, Effect effect, int64_t snapshot, PublishOutcome outcome) {
  const size_t t = s_.writers[writer].table;
  const bool publish = effect == Effect::kPublish;
  if (publish && outcome == PublishOutcome::kPublished && snapshot > latest_[t]) latest_[t] = snapshot;
  if (next_[writer] < ops_[writer].size()) {
    const Op& op = ops_[writer][next_[writer]++];
    if (op.effect == Effect::kRead) --reads_left_[t][op.snapshot];
    if (op.effect == effect && (op.snapshot != snapshot || (publish && op.outcome != outcome))) {
      Fail(fmt::format("{} came back as {} of snapshot {}{}", Describe(writer, op), publish ? "a publish" : "a read",
                       snapshot, publish ? fmt::format(" that {}", Won(outcome)) : ""));
    }
  }
  // Anyone waiting may go now, or must look again.
  for (size_t w = 0; w < waiting_.size(); ++w)
    if (waiting_[w]) scheduler_->Unblock(static_cast<int>(w));
}

std::string ThreadReplay::Problem(const std::vector<Json>& replayed) const {
  if (!problem_.empty()) return problem_;
  for (size_t w = 0; w < ops_.size(); ++w) {
    if (next_[w] < ops_[w].size())
      return fmt::format("{} stopped before {}", s_.writers[w].name, Describe(w, ops_[w][next_[w]]));
  }
  const Json& footer = replayed.back();
  for (const char* key : {"latest_snapshot", "tally"}) {
    if (footer.value(key, Json()) != recorded_footer_.value(key, Json()))
      return fmt::format("the outcome differs: {} recorded {}, replayed {}", key,
                         recorded_footer_.value(key, Json()).dump(), footer.value(key, Json()).dump());
  }
  // The verdicts: whether the run held, and the kinds of violation the checker found (their
  // messages name files, whose random names the replay draws anew).
  auto kinds = [](const Json& f) {
    Json out = Json::array();
    for (const Json& v : f["verdicts"].value("violations", Json::array())) out.push_back(v.value("kind", ""));
    return out;
  };
  const Json& recorded_verdicts = recorded_footer_["verdicts"];
  if (recorded_verdicts.value("ok", Json()) != footer["verdicts"].value("ok", Json()) ||
      kinds(recorded_footer_) != kinds(footer)) {
    return fmt::format("the outcome differs: verdicts recorded ok={} violations {}, replayed ok={} violations {}",
                       recorded_verdicts.value("ok", Json()).dump(), kinds(recorded_footer_).dump(),
                       footer["verdicts"].value("ok", Json()).dump(), kinds(footer).dump());
  }
  return "";
}

}  // namespace commitlab::scenarios::internal
