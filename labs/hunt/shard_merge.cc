#include "hunt/shard_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "hunt/seed_tally.h"
#include "hunt/shard.h"

namespace commitlab::cli {
namespace {

// What a shard's file must share with the first one's, and how a difference is named.
struct Same {
  const char* member;  // of the report, or of its "shard" member when in_shard
  bool in_shard;
  const char* what;
};
constexpr Same kSame[] = {
    {"format", false, "is another kind of document"},
    {"commitlab", false, "was made by another build"},
    {"command", false, "ran another command"},
    {"kind", true, "is a shard of another kind of search"},
    {"settings", false, "ran with other flags"},
    {"job", true, "ran with other flags"},
    {"scenario_sha256", true, "ran another scenario"},
    {"count", true, "is a shard of a search cut into another number of shards"},
};

// "settings.commits: 5, not 30": the first member where two values differ, for the message.
std::string FirstDifference(const sim::Json& a, const sim::Json& b, const std::string& path) {
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : a.items()) {
      if (!b.contains(key)) return fmt::format("{}.{}: {}, not there", path, key, value.dump());
      if (value != b[key]) return FirstDifference(value, b[key], path + "." + key);
    }
    for (const auto& [key, value] : b.items())
      if (!a.contains(key)) return fmt::format("{}.{}: not there, not {}", path, key, value.dump());
  }
  return fmt::format("{}: {}, not {}", path, a.dump(), b.dump());
}

const sim::Json* Member(const sim::Json& report, const Same& s) {
  const sim::Json& from = s.in_shard ? report["shard"] : report;
  return from.contains(s.member) ? &from[s.member] : nullptr;
}

}  // namespace

Status CheckShardSet(std::vector<ShardFile>* files) {
  if (files->empty()) return Status::InvalidArgument("no shard files");
  for (const ShardFile& f : *files) {
    const sim::Json& r = f.report;
    if (!r.is_object() || !r.contains("shard") || !r["shard"].is_object() || !r["shard"].contains("index") ||
        !r["shard"]["index"].is_number_integer() || !r["shard"].contains("count") ||
        !r["shard"]["count"].is_number_integer())
      return Status::InvalidArgument(fmt::format(
          "{}: not a shard report (no \"shard\" member with index and count; run with --shard I/N)", f.path));
  }
  const ShardFile& first = files->front();
  for (const ShardFile& f : *files) {
    for (const Same& s : kSame) {
      const sim::Json* mine = Member(f.report, s);
      const sim::Json* theirs = Member(first.report, s);
      if (mine == nullptr || theirs == nullptr || *mine != *theirs)
        return Status::InvalidArgument(
            fmt::format("{} {} than {} ({})", f.path, s.what, first.path,
                        mine && theirs ? FirstDifference(*mine, *theirs, s.member)
                                       : fmt::format("{}: {}", s.member, mine ? "not in the first" : "missing")));
    }
  }
  const int64_t count = first.report["shard"]["count"].get<int64_t>();
  std::map<int64_t, const ShardFile*> by_index;
  for (const ShardFile& f : *files) {
    const int64_t i = f.report["shard"]["index"].get<int64_t>();
    if (i < 0 || i >= count)
      return Status::InvalidArgument(fmt::format("{}: shard index {} is not in 0..{}", f.path, i, count - 1));
    auto [it, added] = by_index.emplace(i, &f);
    if (!added)
      return Status::InvalidArgument(
          fmt::format("{} is shard {}/{} again: {} is that shard too", f.path, i, count, it->second->path));
  }
  std::vector<std::string> missing;
  for (int64_t i = 0; i < count; ++i)
    if (!by_index.contains(i)) missing.push_back(fmt::format("{}/{}", i, count));
  if (!missing.empty())
    return Status::InvalidArgument(fmt::format("shard{} {} {} missing: every shard of the search is needed",
                                               missing.size() == 1 ? "" : "s", fmt::join(missing, ", "),
                                               missing.size() == 1 ? "is" : "are"));
  std::stable_sort(files->begin(), files->end(), [](const ShardFile& a, const ShardFile& b) {
    return a.report["shard"]["index"].get<int64_t>() < b.report["shard"]["index"].get<int64_t>();
  });
  return Status::OK();
}

Result<sim::Json> MergeSeeds(const std::vector<ShardFile>& shards) {
  const sim::Json& head = shards.front().report;
  Result<HuntShape> shape = HuntFromJson(head["shard"]["job"]);
  if (!shape.ok()) return Status::InvalidArgument(fmt::format("{}: {}", shards.front().path, shape.status().message()));
  SeedTally all;
  bool first = true;
  for (const ShardFile& f : shards) {
    // The blocks must be the ones --shard gives: a file edited by hand is refused.
    const Shard s{.index = f.report["shard"]["index"].get<int>(), .count = f.report["shard"]["count"].get<int>()};
    const std::optional<SeedBlock> block = ShardSeeds(shape->first, shape->last, s);
    const sim::Json& covers = f.report["shard"]["covers"];
    if (!block || !covers.contains("seeds") ||
        covers["seeds"] != sim::Json{{"first", block->first}, {"last", block->last}})
      return Status::InvalidArgument(fmt::format("{}: shard {} should cover seeds {}..{}, not {}", f.path,
                                                 FormatShard(s), block ? block->first : 0, block ? block->last : 0,
                                                 covers.dump()));
    Result<SeedTally> t = TallyFromJson(f.report["shard"]["partial"]);
    if (!t.ok()) return Status::InvalidArgument(fmt::format("{}: {}", f.path, t.status().message()));
    if (!f.report.contains("runs") || !f.report["runs"].is_array())
      return Status::InvalidArgument(fmt::format("{}: no \"runs\" array", f.path));
    t->runs_json = f.report["runs"];
    if (first) {
      all = std::move(*t);
      first = false;
    } else {
      all.Append(std::move(*t));
    }
  }
  sim::Json out = head;
  out.erase("shard");
  out["runs"] = std::move(all.runs_json);
  out["summary"] = SummaryJson(all, *shape);
  out["ok"] = TallyOk(all, *shape);
  return out;
}

namespace {

// Explore's order of findings: unexpected violations, expected ones, expectations, run errors.
int FindingRank(const sim::Json& f) {
  const std::string kind = f.at("kind").get<std::string>();
  if (kind.rfind("expect ", 0) == 0) return 2;
  if (kind == "run error") return 3;
  return f.at("expected").get<bool>() ? 1 : 0;
}

struct Shortest {
  sim::Json finding;
  int64_t unit = 0;
  int64_t executions = 0;
};

// Adds one shard's outcomes and findings; the shortest counterexample is kept as the whole search
// would keep it: fewest switches, then fewest steps, then the first in depth-first order.
void AddExplore(const sim::Json& r, std::map<std::string, std::pair<int64_t, bool>>* outcomes,
                std::map<std::string, Shortest>* findings) {
  for (const sim::Json& o : r.at("outcomes")) {
    auto& [count, ok] = (*outcomes)[o.at("outcome").get<std::string>()];
    count += o.at("count").get<int64_t>();
    ok = o.at("ok").get<bool>();
  }
  const sim::Json& units = r.at("shard").at("partial").at("finding_units");
  for (const sim::Json& f : r.at("findings")) {
    const std::string kind = f.at("kind").get<std::string>();
    const int64_t unit = units.at(kind).get<int64_t>();
    auto key = [](const sim::Json& x, int64_t u) {
      return std::tuple(x.at("switches").get<int64_t>(), x.at("steps").get<int64_t>(), u);
    };
    auto [it, added] = findings->try_emplace(kind, Shortest{.finding = f, .unit = unit});
    if (!added && key(f, unit) < key(it->second.finding, it->second.unit)) {
      it->second.finding = f;
      it->second.unit = unit;
    }
    it->second.executions += f.at("executions").get<int64_t>();
  }
}

// --portfolio: the shards ran whole searches of their own. The union is complete when one of them
// was; each shard's coverage curve is kept, named by its search.
void AddPortfolio(const std::vector<ShardFile>& shards, sim::Json* out) {
  bool complete = false;
  sim::Json curves = sim::Json::array();
  for (const ShardFile& f : shards) {
    complete = complete || f.report["shard"]["partial"].value("complete", false);
    if (f.report.contains("coverage"))
      curves.push_back({{"shard", f.report["shard"]["index"]},
                        {"search", f.report.value("search", "")},
                        {"points", f.report["coverage"]}});
  }
  (*out)["search"] = "portfolio";
  (*out)["complete"] = complete;
  out->erase("bound");
  out->erase("coverage");
  if (!curves.empty()) (*out)["coverage"] = std::move(curves);
}

}  // namespace

Result<sim::Json> MergeExplore(const std::vector<ShardFile>& shards) {
  int64_t executions = 0, stopped_early = 0, never_started = 0, cut_preemptions = 0, cut_steps = 0, max_depth = 0;
  bool stopped = false;
  std::map<std::string, std::pair<int64_t, bool>> outcomes;
  std::map<std::string, Shortest> findings;
  for (const ShardFile& f : shards) {
    try {
      const sim::Json& r = f.report;
      executions += r.at("executions").get<int64_t>();
      stopped_early += r.at("pruned").at("stopped_early").get<int64_t>();
      never_started += r.at("pruned").at("never_started").get<int64_t>();
      cut_preemptions += r.at("cut").at("preemptions").get<int64_t>();
      cut_steps += r.at("cut").at("max_steps").get<int64_t>();
      max_depth = std::max(max_depth, r.at("max_depth").get<int64_t>());
      stopped = stopped || r.at("shard").at("partial").at("stopped").get<bool>();
      AddExplore(r, &outcomes, &findings);
    } catch (const sim::Json::exception& e) {
      return Status::InvalidArgument(fmt::format("{}: not an explore shard report: {}", f.path, e.what()));
    }
  }
  sim::Json out = shards.front().report;
  out.erase("shard");
  // Most frequent first, then by outcome (Search::Run's order).
  std::vector<std::pair<std::string, std::pair<int64_t, bool>>> sorted(outcomes.begin(), outcomes.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  sim::Json outs = sim::Json::array();
  bool ok = true;
  for (const auto& [key, o] : sorted) {
    outs.push_back({{"outcome", key}, {"count", o.first}, {"ok", o.second}});
    ok = ok && o.second;
  }
  std::vector<sim::Json> found;
  for (auto& [kind, s] : findings) {
    s.finding["executions"] = s.executions;
    found.push_back(std::move(s.finding));
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const sim::Json& a, const sim::Json& b) { return FindingRank(a) < FindingRank(b); });
  out["executions"] = executions;
  out["pruned"] = {{"stopped_early", stopped_early}, {"never_started", never_started}};
  out["cut"] = {{"preemptions", cut_preemptions}, {"max_steps", cut_steps}};
  out["complete"] = !stopped && cut_preemptions == 0 && cut_steps == 0;
  out["max_depth"] = max_depth;
  out["outcomes"] = std::move(outs);
  out["findings"] = found;
  out["ok"] = ok && executions > 0;
  if (shards.front().report["shard"]["job"].value("portfolio", false)) AddPortfolio(shards, &out);
  return out;
}

Result<sim::Json> MergeSweep(const std::vector<ShardFile>& shards) {
  sim::Json out = shards.front().report;
  out.erase("shard");
  try {
    sim::Json& experiments = out.at("experiments");
    for (size_t e = 0; e < experiments.size(); ++e) {
      const int64_t cells = experiments[e].at("cells").get<int64_t>();
      std::vector<std::pair<int64_t, const ShardFile*>> owner(static_cast<size_t>(cells), {-1, nullptr});
      std::vector<sim::Json> rows(static_cast<size_t>(cells));
      for (const ShardFile& f : shards) {
        const sim::Json& mine = f.report.at("experiments").at(e);
        if (mine.at("cells").get<int64_t>() != cells)
          return Status::InvalidArgument(
              fmt::format("{}: experiment {} has {} cells, not {}", f.path, e, mine.at("cells").get<int64_t>(), cells));
        for (const sim::Json& row : mine.at("rows")) {
          const int64_t cell = row.at("cell").get<int64_t>();
          if (cell < 0 || cell >= cells)
            return Status::InvalidArgument(fmt::format("{}: cell {} is not in 0..{}", f.path, cell, cells - 1));
          auto& [seen, by] = owner[static_cast<size_t>(cell)];
          if (by != nullptr)
            return Status::InvalidArgument(fmt::format("{}: cell {} of {} is in {} too", f.path, cell,
                                                       mine.at("experiment").get<std::string>(), by->path));
          by = &f;
          seen = cell;
          rows[static_cast<size_t>(cell)] = row;
        }
      }
      for (int64_t c = 0; c < cells; ++c)
        if (owner[static_cast<size_t>(c)].second == nullptr)
          return Status::InvalidArgument(
              fmt::format("cell {} of {} is in no shard", c, experiments[e].at("experiment").get<std::string>()));
      experiments[e]["rows"] = rows;
    }
  } catch (const sim::Json::exception& e) {
    return Status::InvalidArgument(fmt::format("not a sweep shard report: {}", e.what()));
  }
  return out;
}

namespace {

void PrintExplore(const sim::Json& m) {
  fmt::print("executions: {} run to the end; pruned as equivalent to one run: {} stopped early, {} never started\n",
             m["executions"].get<int64_t>(), m["pruned"]["stopped_early"].get<int64_t>(),
             m["pruned"]["never_started"].get<int64_t>());
  fmt::print("search: {}\n", m["complete"].get<bool>() ? "complete" : "INCOMPLETE");
  fmt::print("\ndistinct outcomes: {}\n", m["outcomes"].size());
  constexpr size_t kShown = 20;  // as explore's default --outcomes
  for (size_t i = 0; i < m["outcomes"].size(); ++i) {
    const sim::Json& o = m["outcomes"][i];
    if (i == kShown) {
      fmt::print("  ... {} more (the JSON lists them all)\n", m["outcomes"].size() - kShown);
      break;
    }
    fmt::print("  {:>8}  {}{}\n", o["count"].get<int64_t>(), o["ok"].get<bool>() ? "" : "FAILS  ",
               o["outcome"].get<std::string>());
  }
  for (const sim::Json& f : m["findings"]) {
    fmt::print("\n{}: in {} executions, shortest: {} steps, {} context switches\n  {}\n  reproduce: {}\n",
               f["kind"].get<std::string>(), f["executions"].get<int64_t>(), f["steps"].get<int64_t>(),
               f["switches"].get<int64_t>(), f["detail"].get<std::string>(), f["reproduce"].get<std::string>());
  }
}

void PrintSweep(const sim::Json& m) {
  for (const sim::Json& e : m["experiments"]) {
    fmt::print("{}: {} cells\n", e["experiment"].get<std::string>(), e["cells"].get<int64_t>());
    for (const sim::Json& r : e["rows"])
      fmt::print("  N={:<4} {:<8} {:<40} calls {:>8.1f}  p99 {:>9.1f} ms  gave up {:>5.1f} %\n",
                 r["writers"].get<int>(), r["protocol"].get<std::string>(), r["policy"].get<std::string>(),
                 r["mean_calls"].get<double>(), r["p99_latency_ms"].get<double>(), r["gave_up_pct"].get<double>());
  }
}

}  // namespace

void PrintMergedText(const sim::Json& merged, const std::vector<ShardFile>& shards) {
  const sim::Json& shard = shards.front().report["shard"];
  const std::string kind = shard["kind"].get<std::string>();
  double cpu = 0;
  for (const ShardFile& f : shards) cpu += f.report["shard"].value("cpu_seconds", 0.0);
  fmt::print("merged {} shards of `commitlab {}` ({} CPU seconds in all)\n", shards.size(),
             merged["command"].get<std::string>(), fmt::format("{:.2f}", cpu));
  if (kind == "seeds") {
    Result<HuntShape> shape = HuntFromJson(shard["job"]);
    SeedTally all;
    for (size_t i = 0; i < shards.size(); ++i) {
      Result<SeedTally> t = TallyFromJson(shards[i].report["shard"]["partial"]);
      if (!t.ok()) return;  // MergeSeeds read them all already
      if (i == 0) {
        all = std::move(*t);
      } else {
        all.Append(std::move(*t));
      }
    }
    if (shape.ok()) PrintSummary(all, *shape);
  } else if (kind == "explore") {
    PrintExplore(merged);
  } else {
    PrintSweep(merged);
  }
}

}  // namespace commitlab::cli
