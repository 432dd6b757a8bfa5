// PlanRun: everything a run needs that can be wrong before it starts (the scenario's fault and
// latency lines, the command line's sched and schedule, what the tables' protocols allow),
// resolved and checked up front so that a bad input is refused with file:line:col and nothing runs.
#include <fmt/format.h>

#include <memory>

#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/strategy.h"
#include "protocols/registry.h"

namespace commitlab::scenarios {
namespace {

std::string SchedSpec(const SchedSetting& s) {
  if (s.kind == SchedKind::kPct) return fmt::format("pct:depth={}", s.pct_depth);
  return std::string(SchedKindName(s.kind));
}

Status ErrorAt(const Scenario& s, SourcePos pos, std::string_view message) {
  return Status::InvalidArgument(fmt::format("{}: {}", s.Where(pos), message));
}

// "" when `rule` can fire in `s`: its writer is declared (or `*`) and a writer it names commits
// through its point (ProtocolModule::HasFaultPoint); else why it never could, in the words of the
// protocols that pass the point only in some tables, or of the protocol that never passes it.
std::string WhyNeverFires(const Scenario& s, const sim::FaultRule& rule) {
  if (rule.writer != "*" && !s.FindWriter(rule.writer))
    return fmt::format("writer \"{}\" is not declared (expected a writer name or *)", rule.writer);
  const Writer* lacking = nullptr;  // the first writer it names whose commits lack the point
  for (const Writer& w : s.writers) {
    if (rule.writer != "*" && w.name != rule.writer) continue;
    const Table& t = s.tables[w.table];
    if (internal::ModuleOf(t.protocol).HasFaultPoint(t, rule.point)) return "";
    if (lacking == nullptr) lacking = &w;
  }
  for (Protocol p : internal::RegisteredProtocols()) {
    const std::string_view where = internal::ModuleOf(p).FaultPointOnlyIn(rule.point);
    if (where.empty()) continue;
    return fmt::format("{} is reached only by {}, and no writer here commits to one: the rule could never fire",
                       rule.point, where);
  }
  if (lacking == nullptr) return "no writer commits here: the rule could never fire";
  const Protocol protocol = s.tables[lacking->table].protocol;
  const std::string_view why = internal::ModuleOf(protocol).WhyNoFaultPoint(rule.point);
  return fmt::format("{} commits have no {} point{}: the rule could never fire",
                     rule.writer == "*" ? "the writers'"
                                        : fmt::format("writer {}'s {}", rule.writer, ProtocolName(protocol)),
                     rule.point, why.empty() ? "" : fmt::format(" ({})", why));
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
      if (internal::ModuleOf(t.protocol).uses_snapshot_store()) continue;
      return ErrorAt(scenario, t.pos,
                     fmt::format("table {}: a directory store holds {} tables only, not protocol {} (run it on the "
                                 "memory store)",
                                 t.name, internal::ProtocolsWhere([](const internal::ProtocolModule& m) {
                                   return m.uses_snapshot_store();
                                 }),
                                 ProtocolName(t.protocol)));
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

  // Without a retry line: the first table's protocol's own policy.
  plan.retry =
      scenario.retry ? scenario.retry->policy : internal::ModuleOf(scenario.tables.front().protocol).default_retry();
  plan.idempotency_check = scenario.idempotency_check;
  plan.step_details = options.step_details;
  plan.store = options.store;
  if (plan.store != StoreKind::kMemory && options.dir.empty())
    return Status::InvalidArgument("a directory store needs a directory");
  return plan;
}

}  // namespace commitlab::scenarios
