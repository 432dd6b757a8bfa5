#include "hunt/seed_tally.h"

#include <fmt/format.h>

#include <utility>

#include "output/text_histogram.h"

namespace commitlab::cli {
namespace {

void AddCounts(std::map<int64_t, int64_t>* into, const std::map<int64_t, int64_t>& from) {
  for (const auto& [v, n] : from) (*into)[v] += n;
}

// The value at index runs/2 of the sorted values: the median a sorted vector gives.
int64_t Median(const std::map<int64_t, int64_t>& counts, int64_t runs) {
  int64_t seen = 0;
  for (const auto& [v, n] : counts) {
    seen += n;
    if (seen > runs / 2) return v;
  }
  return 0;
}

sim::Json HistogramJson(const std::map<int64_t, int64_t>& counts) {
  sim::Json bins = sim::Json::array();
  for (const HistogramBin& b : Bins(counts)) bins.push_back({{"from", b.from}, {"to", b.to}, {"runs", b.count}});
  return bins;
}

// JSON keeps object keys as strings: value counts travel as [[value, count], ...].
sim::Json CountsJson(const std::map<int64_t, int64_t>& counts) {
  sim::Json out = sim::Json::array();
  for (const auto& [v, n] : counts) out.push_back({v, n});
  return out;
}

std::map<int64_t, int64_t> CountsFrom(const sim::Json& j) {
  std::map<int64_t, int64_t> out;
  for (const sim::Json& pair : j) out[pair.at(0).get<int64_t>()] += pair.at(1).get<int64_t>();
  return out;
}

}  // namespace

void SeedTally::Append(SeedTally later) {
  if (found) return;
  runs += later.runs;
  AddCounts(&lost, later.lost);
  AddCounts(&attempts, later.attempts);
  AddCounts(&times, later.times);
  failed += later.failed;
  for (sim::Json& f : later.failing) failing.push_back(std::move(f));
  for (const std::string& k : later.kind_order) {
    const KindCount& c = later.kinds.at(k);
    auto [it, added] = kinds.try_emplace(k, c);
    if (added) {
      kind_order.push_back(k);
    } else {
      it->second.seeds += c.seeds;
    }
  }
  for (const auto& [k, n] : later.swarm_on) swarm_on[k] += n;
  for (auto& [kind, a] : later.attribution) {
    SwarmAttribution& mine = attribution[kind];
    mine.seeds += a.seeds;
    mine.without_faults += a.without_faults;
    for (const auto& [k, n] : a.on) mine.on[k] += n;
    for (const auto& [c, n] : a.configurations) mine.configurations[c] += n;
    const SwarmExample& theirs = later.swarm_first.at(kind);
    auto [it, added] = swarm_first.try_emplace(kind, theirs);
    if (!added && theirs.faults < it->second.faults) it->second = theirs;  // ties: the earlier seed
  }
  found = later.found;
  found_command = std::move(later.found_command);
  for (sim::Json& r : later.runs_json) runs_json.push_back(std::move(r));
}

sim::Json TallyJson(const SeedTally& t) {
  sim::Json kinds = sim::Json::array();
  for (const std::string& k : t.kind_order) {
    const KindCount& c = t.kinds.at(k);
    kinds.push_back(
        {{"kind", k}, {"seeds", c.seeds}, {"first", c.first}, {"detail", c.detail}, {"reproduce", c.reproduce}});
  }
  sim::Json attribution = sim::Json::array();
  for (const auto& [kind, a] : t.attribution) {
    sim::Json configs = sim::Json::array();
    for (const auto& [c, n] : a.configurations) configs.push_back({{"on", c}, {"seeds", n}});
    const SwarmExample& e = t.swarm_first.at(kind);
    attribution.push_back({{"kind", kind},
                           {"seeds", a.seeds},
                           {"without_faults", a.without_faults},
                           {"on", a.on},
                           {"configurations", std::move(configs)},
                           {"example", {{"seed", e.seed}, {"faults", e.faults}, {"reproduce", e.reproduce}}}});
  }
  return {{"runs", t.runs},
          {"atomic_failures", CountsJson(t.lost)},
          {"attempts", CountsJson(t.attempts)},
          {"virtual_ms", CountsJson(t.times)},
          {"failed", t.failed},
          {"failing", t.failing},
          {"kinds", std::move(kinds)},
          {"swarm_on", t.swarm_on},
          {"attribution", std::move(attribution)},
          {"found", t.found ? sim::Json(*t.found) : sim::Json(nullptr)},
          {"found_command", t.found_command}};
}

Result<SeedTally> TallyFromJson(const sim::Json& j) {
  SeedTally t;
  try {
    t.runs = j.at("runs").get<int64_t>();
    t.lost = CountsFrom(j.at("atomic_failures"));
    t.attempts = CountsFrom(j.at("attempts"));
    t.times = CountsFrom(j.at("virtual_ms"));
    t.failed = j.at("failed").get<int64_t>();
    t.failing = j.at("failing");
    for (const sim::Json& k : j.at("kinds")) {
      const std::string kind = k.at("kind").get<std::string>();
      t.kinds[kind] = {.seeds = k.at("seeds").get<int64_t>(),
                       .first = k.at("first").get<uint64_t>(),
                       .detail = k.at("detail").get<std::string>(),
                       .reproduce = k.at("reproduce").get<std::string>()};
      t.kind_order.push_back(kind);
    }
    t.swarm_on = j.at("swarm_on").get<std::map<std::string, int64_t>>();
    for (const sim::Json& a : j.at("attribution")) {
      const std::string kind = a.at("kind").get<std::string>();
      SwarmAttribution& mine = t.attribution[kind];
      mine.seeds = a.at("seeds").get<int64_t>();
      mine.without_faults = a.at("without_faults").get<int64_t>();
      mine.on = a.at("on").get<std::map<std::string, int64_t>>();
      for (const sim::Json& c : a.at("configurations"))
        mine.configurations[c.at("on").get<std::vector<std::string>>()] += c.at("seeds").get<int64_t>();
      const sim::Json& e = a.at("example");
      t.swarm_first[kind] = {.seed = e.at("seed").get<uint64_t>(),
                             .faults = e.at("faults").get<int64_t>(),
                             .reproduce = e.at("reproduce").get<std::string>()};
    }
    if (!j.at("found").is_null()) t.found = j.at("found").get<uint64_t>();
    t.found_command = j.at("found_command").get<std::string>();
  } catch (const sim::Json::exception& e) {
    return Status::InvalidArgument(fmt::format("shard.partial: {}", e.what()));
  }
  if (t.runs < 1) return Status::InvalidArgument("shard.partial: a shard of a seed hunt ran no seed");
  return t;
}

sim::Json HuntJson(const HuntShape& shape) {
  return {{"first", shape.first},
          {"last", shape.last},
          {"swarm", shape.swarm},
          {"find", shape.find ? sim::Json(*shape.find) : sim::Json(nullptr)}};
}

Result<HuntShape> HuntFromJson(const sim::Json& j) {
  HuntShape shape;
  try {
    shape.first = j.at("first").get<uint64_t>();
    shape.last = j.at("last").get<uint64_t>();
    shape.swarm = j.at("swarm").get<bool>();
    if (!j.at("find").is_null()) shape.find = j.at("find").get<std::string>();
  } catch (const sim::Json::exception& e) {
    return Status::InvalidArgument(fmt::format("shard.covers.hunt: {}", e.what()));
  }
  return shape;
}

sim::Json SummaryJson(const SeedTally& t, const HuntShape& shape) {
  sim::Json by_kind = sim::Json::array();
  for (const std::string& k : t.kind_order) {
    const KindCount& c = t.kinds.at(k);
    by_kind.push_back(
        {{"kind", k}, {"seeds", c.seeds}, {"first_seed", c.first}, {"detail", c.detail}, {"reproduce", c.reproduce}});
  }
  sim::Json summary = {
      {"seeds", {{"first", shape.first}, {"last", shape.last}}},
      {"runs", t.runs},
      {"atomic_failures",
       {{"min", t.lost.begin()->first}, {"median", Median(t.lost, t.runs)}, {"max", t.lost.rbegin()->first}}},
      {"histograms",
       {{"atomic_failures", HistogramJson(t.lost)},
        {"attempts", HistogramJson(t.attempts)},
        {"virtual_ms", HistogramJson(t.times)}}},
      {"failed_runs", t.failed},
      {"failing_seeds", t.failing},
      {"failure_kinds", std::move(by_kind)}};
  if (shape.swarm) {
    sim::Json violations = sim::Json::array();
    for (const auto& [kind, a] : t.attribution)
      violations.push_back({{"kind", kind},
                            {"seeds", a.seeds},
                            {"without_faults", a.without_faults},
                            {"on", a.on},
                            {"example_seed", t.swarm_first.at(kind).seed},
                            {"reproduce", t.swarm_first.at(kind).reproduce}});
    summary["swarm"] = {{"fault_kinds_on", t.swarm_on}, {"violations", std::move(violations)}};
  }
  if (shape.find) summary["found"] = t.found ? sim::Json(*t.found) : sim::Json(nullptr);
  return summary;
}

bool TallyOk(const SeedTally& t, const HuntShape& shape) { return shape.find ? t.found.has_value() : t.failed == 0; }

void PrintSummary(const SeedTally& t, const HuntShape& shape) {
  const int64_t min = t.lost.begin()->first, max = t.lost.rbegin()->first;
  fmt::print("\n{} run{}: atomic commit failures min {} / median {} / max {}; runs that failed: {}\n", t.runs,
             t.runs == 1 ? "" : "s", min, Median(t.lost, t.runs), max, t.failed);
  struct Shown {
    const char* title;
    const std::map<int64_t, int64_t>* values;
    const char* unit;
  };
  for (const Shown& h :
       {Shown{"lost races (atomic commit failures) per run", &t.lost, ""},
        Shown{"commit attempts per run", &t.attempts, ""}, Shown{"virtual time per run", &t.times, " ms"}}) {
    fmt::print("\n{}:\n", h.title);
    for (const std::string& line : HistogramLines(Bins(*h.values), h.unit)) fmt::print("{}\n", line);
  }
  if (!t.kind_order.empty()) {
    fmt::print("\nwhat failed, by kind:\n");
    for (const std::string& k : t.kind_order) {
      const KindCount& c = t.kinds.at(k);
      fmt::print("  {}: {} of {} seeds, first seed {}\n    {}\n    reproduce: {}\n", k, c.seeds, t.runs, c.first,
                 c.detail, c.reproduce);
    }
  }
  if (shape.swarm) {
    fmt::print("\nswarm: each seed turned on its own subset of {} fault kinds, each at a rate of 0.02 to 0.2\n",
               SwarmFaultKinds().size());
    if (t.attribution.empty()) fmt::print("no invariant violation under any of the {} configurations\n", t.runs);
    for (const auto& [kind, a] : t.attribution) {
      const SwarmExample& e = t.swarm_first.at(kind);
      fmt::print("  {}: {} of {} seeds\n", kind, a.seeds, t.runs);
      for (const std::string& line : AttributionLines(a, t.swarm_on, t.runs)) fmt::print("    {}\n", line);
      fmt::print("    seed {} shows it with {} fault kind{} on: {}\n", e.seed, e.faults, e.faults == 1 ? "" : "s",
                 e.reproduce);
    }
  }
  if (shape.find) {
    if (t.found) {
      fmt::print("\nfound: seed {} matches {}\n  reproduce: {}\n", *t.found, *shape.find, t.found_command);
    } else {
      fmt::print("\nnot found: no seed of {}..{} matches {}\n", shape.first, shape.last, *shape.find);
    }
  }
}

}  // namespace commitlab::cli
