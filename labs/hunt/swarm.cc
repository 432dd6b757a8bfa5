#include "hunt/swarm.h"

#include <fmt/format.h>

#include <algorithm>

#include "commitlab/core/rng.h"

namespace commitlab::cli {
namespace {

// A stream of the swarm's own: the run's stream (seeded with the seed itself) is untouched.
constexpr uint64_t kSwarmStream = 0x5357'4152'4d00'0001;  // "SWARM"
constexpr double kRates[] = {0.02, 0.05, 0.1, 0.2};

}  // namespace

const std::vector<std::string>& SwarmFaultKinds() {
  static const auto* const kKinds = new std::vector<std::string>{
      "read-latest.before:error", "read-latest.before:delay=5ms", "manifest.before:error", "manifest.before:crash",
      "publish.before:error",     "publish.before:lost",          "publish.before:crash",  "publish.before:delay=5ms",
      "publish.after:unknown",    "publish.after:error",          "publish.after:crash"};
  return *kKinds;
}

std::vector<sim::FaultRule> SwarmFaults(uint64_t seed) {
  Rng rng(seed ^ kSwarmStream);
  std::vector<sim::FaultRule> rules;
  for (const std::string& kind : SwarmFaultKinds()) {
    const bool on = rng.Chance(0.5);
    const double rate = kRates[rng.Below(std::size(kRates))];  // drawn either way: kinds stay independent
    if (!on) continue;
    const size_t colon = kind.find(':');
    Result<sim::FaultRule> rule =
        sim::ParseFaultRule(fmt::format("*:{}:p={}:{}", kind.substr(0, colon), rate, kind.substr(colon + 1)));
    if (rule.ok()) rules.push_back(*rule);
  }
  return rules;
}

std::string SwarmKind(const sim::FaultRule& rule) { return rule.point + ":" + sim::FormatFaultEffect(rule.effect); }

std::vector<std::string> AttributionLines(const SwarmAttribution& a, const std::map<std::string, int64_t>& on_overall,
                                          int64_t all_seeds) {
  std::vector<std::string> lines;
  std::vector<std::string> always;
  for (const auto& [kind, n] : a.on)
    if (n == a.seeds) always.push_back(kind);
  if (a.without_faults > 0) {
    lines.push_back(
        fmt::format("with every fault off too ({} of its seeds): the faults are not the cause", a.without_faults));
  } else if (!always.empty()) {
    lines.push_back(fmt::format("on in every one: {}", fmt::join(always, ", ")));
  } else {
    // Greedy set cover: the kind on in most of the seeds not yet covered, until all are.
    std::map<std::vector<std::string>, int64_t> left = a.configurations;
    std::vector<std::string> cover;
    while (!left.empty() && cover.size() < 3) {
      std::map<std::string, int64_t> count;
      for (const auto& [c, seeds] : left)
        for (const std::string& k : c) count[k] += seeds;
      if (count.empty()) break;
      const auto best = std::max_element(count.begin(), count.end(),
                                         [](const auto& x, const auto& y) { return x.second < y.second; });
      cover.push_back(best->first);
      std::erase_if(
          left, [&](const auto& c) { return std::find(c.first.begin(), c.first.end(), best->first) != c.first.end(); });
    }
    if (left.empty() && !cover.empty())
      lines.push_back(fmt::format("one of these was on in every one: {}", fmt::join(cover, ", ")));
  }
  // Over-represented: share among its seeds minus share among all seeds, largest first.
  std::vector<std::pair<double, std::string>> lift;
  for (const auto& [kind, n] : a.on) {
    const auto all = on_overall.find(kind);
    const double base =
        all == on_overall.end() ? 0.0 : static_cast<double>(all->second) / static_cast<double>(all_seeds);
    lift.emplace_back(static_cast<double>(n) / static_cast<double>(a.seeds) - base, kind);
  }
  std::sort(lift.begin(), lift.end(), [](const auto& x, const auto& y) {
    return x.first > y.first || (x.first == y.first && x.second < y.second);
  });
  std::vector<std::string> top;
  for (size_t i = 0; i < lift.size() && top.size() < 3; ++i) {
    if (lift[i].first <= 0.1) break;
    const int64_t n = a.on.at(lift[i].second);
    const int64_t all = on_overall.at(lift[i].second);
    top.push_back(fmt::format("{} ({} of {} = {:.0f} %, against {:.0f} % of all seeds)", lift[i].second, n, a.seeds,
                              100.0 * static_cast<double>(n) / static_cast<double>(a.seeds),
                              100.0 * static_cast<double>(all) / static_cast<double>(all_seeds)));
  }
  if (!top.empty()) lines.push_back(fmt::format("more often on than chance: {}", fmt::join(top, "; ")));
  if (lines.empty()) lines.push_back("no fault kind goes with it more than chance: it does not need the faults");
  return lines;
}

}  // namespace commitlab::cli
