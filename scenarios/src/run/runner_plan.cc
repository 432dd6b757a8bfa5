// PlanRun: everything a run needs that can be wrong before it starts (the scenario's fault and
// latency lines, the command line's sched and schedule, the tables' protocols), resolved and
// checked up front so that a bad input is refused with file:line:col and nothing runs.
#include <fmt/format.h>

#include <memory>

#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/strategy.h"

namespace commitlab::scenarios {
namespace {

std::string SchedSpec(const SchedSetting& s) {
  if (s.kind == SchedKind::kPct) return fmt::format("pct:depth={}", s.pct_depth);
  return std::string(SchedKindName(s.kind));
}

Status ErrorAt(const Scenario& s, SourcePos pos, std::string_view message) {
  return Status::InvalidArgument(fmt::format("{}: {}", s.Where(pos), message));
}

// The points of a catalog on a real server (core/catalogs): its clients ask at them.
bool IsCatalogPoint(std::string_view point) { return point == fault::kCatalogBefore || point == fault::kCatalogAfter; }
bool OnARealServer(const Table& t) { return t.catalog == "jdbc" || t.catalog == "rest-server"; }

// The fault points each engine's commit passes (core/src/*/: the env_->FaultPoint calls): Delta
// writes no manifest before its commit (the log entry is the commit); only an Iceberg table whose
// catalog is on a real server has catalog points.
bool HasFaultPoint(const Table& t, std::string_view point) {
  if (IsCatalogPoint(point)) return t.protocol == Protocol::kIceberg && OnARealServer(t);
  if (t.protocol == Protocol::kDelta) return point != fault::kManifestBefore;
  return true;
}

// "" when `rule` can fire in `s`: its writer is declared (or `*`) and a writer it names commits
// through its point; else why it never could.
std::string WhyNeverFires(const Scenario& s, const sim::FaultRule& rule) {
  if (rule.writer != "*" && !s.FindWriter(rule.writer))
    return fmt::format("writer \"{}\" is not declared (expected a writer name or *)", rule.writer);
  for (const Writer& w : s.writers) {
    if ((rule.writer == "*" || w.name == rule.writer) && HasFaultPoint(s.tables[w.table], rule.point)) return "";
  }
  if (IsCatalogPoint(rule.point))
    return fmt::format(
        "{} is reached only by an Iceberg table whose catalog is on a real server (catalog=jdbc or rest-server), "
        "and no writer here commits to one: the rule could never fire",
        rule.point);
  return fmt::format("{} commits have no {} point (a Delta commit writes no manifest first): the rule could never fire",
                     rule.writer == "*" ? "the writers'" : fmt::format("writer {}'s delta", rule.writer), rule.point);
}

// The `fault` lines, each at its own position; a writer must be declared (or `*`) and pass the point.
Status PlanFaults(const Scenario& s, std::vector<sim::FaultRule>* out) {
  for (const SpecString& spec : s.faults) {
    size_t column = 0;
    Result<sim::FaultRule> rule = sim::ParseFaultRule(spec.text, &column);
    if (!rule.ok()) {
      return ErrorAt(s, {spec.pos.line, spec.pos.col + static_cast<int>(column)}, rule.status().message());
    }
    if (const std::string why = WhyNeverFires(s, *rule); !why.empty())
      return ErrorAt(s, spec.pos, fmt::format("fault \"{}\": {}", spec.text, why));
    out->push_back(std::move(*rule));
  }
  return Status::OK();
}

// The `latency` lines form one model. Each is checked alone (so an error points at its line),
// then with those before it (a key given on two lines is an error at the second).
Status PlanLatency(const Scenario& s, sim::LatencyModel* out) {
  std::string joined;
  for (const SpecString& spec : s.latencies) {
    if (Result<sim::LatencyModel> alone = sim::ParseLatencyModel(spec.text); !alone.ok())
      return ErrorAt(s, spec.pos, alone.status().message());
    joined += (joined.empty() ? "" : ";") + spec.text;
    Result<sim::LatencyModel> all = sim::ParseLatencyModel(joined);
    if (!all.ok()) return ErrorAt(s, spec.pos, all.status().message());
    *out = *all;
  }
  return Status::OK();
}

}  // namespace

bool FaultCanFire(const Scenario& scenario, const sim::FaultRule& rule) {
  return WhyNeverFires(scenario, rule).empty();
}

Result<RunPlan> PlanRun(const Scenario& scenario, const RunOptions& options) {
  RunPlan plan;
  if (scenario.tables.empty() || scenario.writers.empty())
    return Status::InvalidArgument(
        fmt::format("{}: nothing to run: a scenario needs a table and a writer", scenario.file_name));
  // Iceberg and Delta tables live in their engines' in-memory catalog and log; only Paimon's
  // snapshot store has a directory layout.
  if (options.store != StoreKind::kMemory) {
    if (options.store == StoreKind::kTableDir && scenario.tables.size() != 1) {
      return Status::InvalidArgument(fmt::format("{}: a table directory holds one table, and the scenario declares {}",
                                                 scenario.file_name, scenario.tables.size()));
    }
    for (const Table& t : scenario.tables) {
      if (t.protocol == Protocol::kPaimon) continue;
      return ErrorAt(scenario, t.pos,
                     fmt::format("table {}: a directory store holds paimon tables only, not protocol {} (run it on "
                                 "the memory store)",
                                 t.name, ProtocolName(t.protocol)));
    }
    if (!scenario.object_store.empty()) {
      return ErrorAt(scenario, scenario.store_pos,
                     fmt::format("the file puts its tables on store object:{}; a directory store cannot replace it",
                                 scenario.object_store));
    }
  }
  plan.object_store = scenario.object_store;
  COMMITLAB_RETURN_IF_ERROR(PlanFaults(scenario, &plan.faults));
  for (const sim::FaultRule& rule : options.faults) {
    COMMITLAB_RETURN_IF_ERROR(sim::ValidateFaultRule(rule));
    if (const std::string why = WhyNeverFires(scenario, rule); !why.empty())
      return Status::InvalidArgument(fmt::format("--fault {}: {}", sim::FormatFaultRule(rule), why));
    plan.faults.push_back(rule);
  }
  if (options.latency) {
    plan.latency = *options.latency;
  } else {
    COMMITLAB_RETURN_IF_ERROR(PlanLatency(scenario, &plan.latency));
  }

  plan.seed = options.seed.value_or(scenario.seed.value_or(kDefaultSeed));
  plan.sched = options.sched ? *options.sched : scenario.sched ? SchedSpec(*scenario.sched) : kDefaultSched;
  plan.free = plan.sched == "free";
  plan.strategy = plan.sched;
  if (!plan.free) {
    Result<std::unique_ptr<sim::Strategy>> s = sim::MakeStrategy(plan.sched);
    if (!s.ok() || plan.sched.starts_with("replay")) {
      return Status::InvalidArgument(
          fmt::format("sched \"{}\" is not one of free, random, pct, pct:depth=N, round-robin{}", plan.sched,
                      s.ok() ? " (give a schedule to replay one)" : ": " + s.status().message()));
    }
  }
  if (options.effect_gate != nullptr && (plan.free || options.history == nullptr))
    return Status::InvalidArgument("an effect gate needs a simulated run with a history");
  if (!options.schedule.empty()) {
    if (plan.free) return Status::InvalidArgument("a schedule replays a simulated run; sched free runs OS threads");
    plan.strategy = "replay:" + options.schedule;
    if (Result<std::unique_ptr<sim::Strategy>> s = sim::MakeStrategy(plan.strategy); !s.ok()) return s.status();
  }

  // Without a retry line: the first table's protocol's own policy (Delta never sleeps between
  // attempts and ignores it).
  plan.retry = scenario.retry                                           ? scenario.retry->policy
               : scenario.tables.front().protocol == Protocol::kIceberg ? IcebergDefaultPolicy()
                                                                        : PaimonDefaultPolicy();
  plan.idempotency_check = scenario.idempotency_check;
  plan.store = options.store;
  if (plan.store != StoreKind::kMemory && options.dir.empty())
    return Status::InvalidArgument("a directory store needs a directory");
  return plan;
}

}  // namespace commitlab::scenarios
