#include "commitlab/sim/strategy.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <numeric>
#include <utility>
#include <vector>

#include "commitlab/core/rng.h"
#include "commitlab/sim/schedule.h"

namespace commitlab::sim {
namespace {

class RandomStrategy final : public Strategy {
 public:
  std::string Describe() const override { return "random"; }
  Status Start(std::span<const std::string>, uint64_t) override { return Status::OK(); }
  Result<int> Pick(const SchedulePoint& p) override {
    // Modulo bias is below n / 2^64: immaterial, and it keeps exactly one draw per step.
    return p.runnable[p.draw % p.runnable.size()];
  }
  bool PicksALoneWriterWithoutState() const override { return true; }
};

class RoundRobinStrategy final : public Strategy {
 public:
  std::string Describe() const override { return "round-robin"; }
  Status Start(std::span<const std::string>, uint64_t) override { return Status::OK(); }
  Result<int> Pick(const SchedulePoint& p) override {
    auto it = std::upper_bound(p.runnable.begin(), p.runnable.end(), p.last);
    return it != p.runnable.end() ? *it : p.runnable.front();
  }
};

class PctStrategy final : public Strategy {
 public:
  PctStrategy(int depth, int64_t k) : depth_(depth), k_(k) {}

  std::string Describe() const override { return fmt::format("pct:depth={},k={}", depth_, k_); }

  Status Start(std::span<const std::string> writers, uint64_t draw) override {
    names_.assign(writers.begin(), writers.end());
    Rng rng(draw);  // private, but seeded from the run's stream
    // Initial priorities depth .. depth+n-1 in random order; higher runs first.
    priority_.resize(writers.size());
    std::iota(priority_.begin(), priority_.end(), static_cast<int64_t>(depth_));
    for (size_t i = priority_.size(); i > 1; --i) std::swap(priority_[i - 1], priority_[rng.Below(i)]);
    // depth-1 distinct change points in [1, k]; the i-th demotes the running writer to priority i.
    change_points_.clear();
    const auto wanted = static_cast<size_t>(std::min<int64_t>(depth_ - 1, k_));
    while (change_points_.size() < wanted) {
      const int64_t c = rng.Between(1, k_);
      if (std::find(change_points_.begin(), change_points_.end(), c) == change_points_.end())
        change_points_.push_back(c);
    }
    std::sort(change_points_.begin(), change_points_.end());
    next_change_ = 0;
    return Status::OK();
  }

  Result<int> Pick(const SchedulePoint& p) override {
    while (next_change_ < change_points_.size() && change_points_[next_change_] <= p.step) {
      if (change_points_[next_change_] == p.step && p.last >= 0)
        priority_[static_cast<size_t>(p.last)] = static_cast<int64_t>(next_change_) + 1;
      ++next_change_;
    }
    int best = p.runnable.front();
    for (int w : p.runnable)
      if (priority_[static_cast<size_t>(w)] > priority_[static_cast<size_t>(best)]) best = w;
    return best;
  }

  std::string DrawnSettings() const override {
    std::string out = "priorities=";
    for (size_t i = 0; i < names_.size(); ++i) out += fmt::format("{}{}:{}", i ? "," : "", names_[i], priority_[i]);
    out += " change-points=";
    for (size_t i = 0; i < change_points_.size(); ++i) out += fmt::format("{}{}", i ? "," : "", change_points_[i]);
    if (change_points_.empty()) out += "none";
    return out;
  }

 private:
  const int depth_;
  const int64_t k_;
  std::vector<std::string> names_;
  std::vector<int64_t> priority_;       // by writer index
  std::vector<int64_t> change_points_;  // ascending steps
  size_t next_change_ = 0;
};

class ReplayStrategy final : public Strategy {
 public:
  explicit ReplayStrategy(RecordedSchedule schedule) : schedule_(std::move(schedule)) {}
  // run_ points into schedule_: a copy would read the original's.
  ReplayStrategy(const ReplayStrategy&) = delete;
  ReplayStrategy& operator=(const ReplayStrategy&) = delete;

  std::string Describe() const override { return "replay:" + FormatSchedule(schedule_); }

  Status Start(std::span<const std::string> writers, uint64_t) override {
    names_.assign(writers.begin(), writers.end());
    run_ = schedule_.runs.begin();
    offset_ = 0;
    if (static_cast<int>(writers.size()) != schedule_.writers)
      return Status::InvalidArgument(
          fmt::format("schedule diverged at step 0: the schedule was recorded with {} writers, this run has {} ({})",
                      schedule_.writers, writers.size(), List(AllWriters())));
    return Status::OK();
  }

  Result<int> Pick(const SchedulePoint& p) override {
    if (run_ == schedule_.runs.end())
      return Status::InvalidArgument(fmt::format(
          "schedule diverged at step {}: the schedule ends there, but {} can still run", p.step, List(p.runnable)));
    const int expected = (*run_).writer;
    if (!std::binary_search(p.runnable.begin(), p.runnable.end(), expected))
      return Status::InvalidArgument(
          fmt::format("schedule diverged at step {}: the schedule runs {} next, but only {} can run", p.step,
                      Name(expected), List(p.runnable)));
    if (++offset_ == (*run_).count) {
      ++run_;
      offset_ = 0;
    }
    return expected;
  }

  Status Finish(int64_t steps) override {
    if (run_ == schedule_.runs.end()) return Status::OK();
    return Status::InvalidArgument(
        fmt::format("schedule diverged at step {}: every writer has finished, but the schedule has {} more steps",
                    steps, schedule_.steps() - steps));
  }

 private:
  std::string Name(int w) const {
    const auto i = static_cast<size_t>(w);
    return i < names_.size() ? fmt::format("{} ({})", WriterSymbol(w), names_[i]) : WriterSymbol(w);
  }
  std::vector<int> AllWriters() const {
    std::vector<int> all(names_.size());
    std::iota(all.begin(), all.end(), 0);
    return all;
  }
  std::string List(std::span<const int> writers) const {
    std::string out;
    for (int w : writers) out += (out.empty() ? "" : ", ") + Name(w);
    return out.empty() ? "no writer" : out;
  }

  const RecordedSchedule schedule_;
  std::vector<std::string> names_;
  ScheduleRuns::Iterator run_ = {};  // into schedule_.runs
  int64_t offset_ = 0;               // steps taken within that run
};

Result<int64_t> ParseInt(std::string_view spec, std::string_view key, std::string_view value, int64_t lo, int64_t hi) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || ptr != value.data() + value.size() || v < lo || v > hi)
    return Status::InvalidArgument(
        fmt::format("strategy \"{}\": {} must be an integer from {} to {}, got \"{}\"", spec, key, lo, hi, value));
  return v;
}

Result<std::unique_ptr<Strategy>> ParsePct(std::string_view spec, std::string_view params) {
  int64_t depth = kDefaultPctDepth;
  int64_t k = kDefaultPctSteps;
  while (!params.empty()) {
    const size_t comma = params.find(',');
    const std::string_view item = params.substr(0, comma);
    params = comma == std::string_view::npos ? std::string_view() : params.substr(comma + 1);
    const size_t eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1);
    if (key == "depth") {
      COMMITLAB_ASSIGN_OR_RETURN(int64_t v, ParseInt(spec, key, value, 1, 64));
      depth = v;
    } else if (key == "k") {
      COMMITLAB_ASSIGN_OR_RETURN(int64_t v, ParseInt(spec, key, value, 1, int64_t{1} << 40));
      k = v;
    } else {
      return Status::InvalidArgument(
          fmt::format("strategy \"{}\": unknown parameter \"{}\"; expected depth=D or k=K", spec, item));
    }
  }
  return MakePctStrategy(static_cast<int>(depth), k);
}

}  // namespace

std::unique_ptr<Strategy> MakeRandomStrategy() { return std::make_unique<RandomStrategy>(); }
std::unique_ptr<Strategy> MakeRoundRobinStrategy() { return std::make_unique<RoundRobinStrategy>(); }
std::unique_ptr<Strategy> MakePctStrategy(int depth, int64_t k) {
  return std::make_unique<PctStrategy>(std::max(depth, 1), std::max<int64_t>(k, 1));
}

Result<std::unique_ptr<Strategy>> MakeReplayStrategy(std::string_view schedule) {
  COMMITLAB_ASSIGN_OR_RETURN(RecordedSchedule parsed, ParseSchedule(schedule));
  return std::unique_ptr<Strategy>(std::make_unique<ReplayStrategy>(std::move(parsed)));
}

Result<std::unique_ptr<Strategy>> MakeStrategy(std::string_view spec) {
  if (spec == "random") return MakeRandomStrategy();
  if (spec == "round-robin") return MakeRoundRobinStrategy();
  if (spec == "pct") return MakePctStrategy();
  if (spec.starts_with("pct:")) return ParsePct(spec, spec.substr(4));
  if (spec.starts_with("replay:")) {
    Result<std::unique_ptr<Strategy>> r = MakeReplayStrategy(spec.substr(7));
    if (!r.ok()) return Status::InvalidArgument("strategy replay: " + r.status().message());
    return r;
  }
  return Status::InvalidArgument(
      fmt::format("unknown scheduling strategy \"{}\": expected random, round-robin, pct[:depth=D,k=K] or "
                  "replay:SCHEDULE",
                  spec));
}

}  // namespace commitlab::sim
