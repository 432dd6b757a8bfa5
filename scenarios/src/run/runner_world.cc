#include "run/runner_world.h"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "protocols/registry.h"
#include "run/runner_expect.h"

namespace commitlab::scenarios::internal {

// Shows a snapshot to the observer as soon as its writer hears of it (after the log line).
class World::PublishWatcher final : public EventSink {
 public:
  PublishWatcher(World* world, size_t table) : world_(world), table_(table) {}
  void OnEvent(const Event& e) override {
    if (e.type == EventType::kPublished) world_->ShowSnapshots(table_, e.snapshot_id);
    // The publish may have landed although the writer was told it failed: show what is there.
    if (e.type == EventType::kUnknownOutcome) world_->ShowSnapshots(table_, std::nullopt);
  }
  bool wants_messages() const override { return false; }

 private:
  World* const world_;
  const size_t table_;
};

World::World(const Scenario& s, const RunOptions& options, const RunPlan& plan)
    : s_(s), options_(options), plan_(plan), fault_plan_(plan.faults) {
  if (options.choose_fault) fault_plan_.set_chooser(options.choose_fault);
}

World::~World() = default;  // out of line: PublishWatcher is complete here

Status World::Open() {
  for (size_t t = 0; t < s_.tables.size(); ++t) {
    const ProtocolModule& protocol = ModuleOf(s_.tables[t].protocol);
    auto shared = shared_.find(s_.tables[t].protocol);
    if (shared == shared_.end()) shared = shared_.emplace(s_.tables[t].protocol, protocol.NewRunState()).first;
    tables_.push_back(protocol.NewTableRun(
        {.scenario = &s_, .table = t, .options = &options_, .plan = &plan_, .shared = shared->second.get()}));
    COMMITLAB_RETURN_IF_ERROR(tables_.back()->Open());
  }
  for (size_t t = 0; t < s_.tables.size(); ++t) {
    std::vector<EventSink*> sinks;
    if (options_.events != nullptr) sinks.push_back(options_.events);
    tables_[t]->AddSinks(&sinks);
    if (options_.observer != nullptr && options_.observer->wants_snapshots() &&
        WordsOf(s_.tables[t].protocol).narrated) {
      watchers_.push_back(std::make_unique<PublishWatcher>(this, t));
      sinks.push_back(watchers_.back().get());
    }
    sinks_.push_back(std::make_unique<TeeEventSink>(std::move(sinks)));
  }
  if (options_.history != nullptr) {
    // The first writer of each commit user, looked up at every lost race and conflict.
    auto names = std::make_shared<std::map<std::string, std::string, std::less<>>>();
    for (const Writer& w : s_.writers) names->try_emplace(w.commit_user, w.name);
    auto writer_of = [names](std::string_view user) -> std::string {
      const auto it = names->find(user);
      return it == names->end() ? std::string() : it->second;
    };
    for (const Writer& w : s_.writers)
      histories_.push_back(std::make_unique<WriterHistory>(options_.history, w.name, writer_of));
    fault_plan_.set_on_fire([this](const sim::FiredFault& fired, const sim::FaultRule& rule) {
      if (std::optional<size_t> w = s_.FindWriter(fired.writer)) histories_[*w]->Fault(fired, rule);
    });
  }
  return Status::OK();
}

std::vector<sim::RealEnv::Writer> World::Writers(Env* env, Gates* gates, std::function<std::string()> drawn) {
  drawn_ = std::move(drawn);
  for (const std::unique_ptr<TableRun>& table : tables_) table->Start(env);
  if (options_.history != nullptr) {
    for (const std::unique_ptr<TableRun>& table : tables_) lookups_.push_back(table->MakeLookup());
    for (size_t i = 0; i < s_.writers.size(); ++i)
      histories_[i]->Attach(env, lookups_[s_.writers[i].table].get(), options_.effect_gate, i);
    gates->set_observer([this](size_t writer, const OrderEdge& edge, bool opened) {
      if (opened) {
        histories_[writer]->GateOpen(edge);
      } else {
        histories_[writer]->GateWait(edge);
      }
    });
  }
  std::vector<sim::RealEnv::Writer> bodies;
  for (size_t i = 0; i < s_.writers.size(); ++i) {
    const size_t table = s_.writers[i].table;
    WriterEnv we{.scenario = &s_,
                 .plan = &plan_,
                 .env = env,
                 .gates = gates,
                 .table = tables_[table].get(),
                 .events = sinks_[table].get(),
                 .history = histories_.empty() ? nullptr : histories_[i].get(),
                 .opaque_step = opaque_step_,
                 .mark_opaque = mark_opaque_,
                 .on_start = [this] { OnStart(); },
                 .on_step = [this](size_t w, size_t step, const StepResult& r) { OnStep(w, step, r); }};
    writers_.push_back(std::make_unique<WriterRun>(i, std::move(we)));
    WriterRun* w = writers_.back().get();
    bodies.push_back({s_.writers[i].name, [w] { w->Run(); }});
  }
  return bodies;
}

void World::OnStart() {
  MutexLock lock(&observer_mu_);
  if (started_) return;
  started_ = true;
  if (options_.observer != nullptr) options_.observer->OnStart(plan_, drawn_ ? drawn_() : std::string());
}

void World::OnStep(size_t writer, size_t step, const StepResult& r) {
  if (options_.observer == nullptr) return;
  if (options_.observer->wants_snapshots()) ShowSnapshots(s_.writers[writer].table, std::nullopt);
  MutexLock lock(&observer_mu_);
  const Writer& w = s_.writers[writer];
  options_.observer->OnStep(w, w.steps[step], r);
}

void World::ShowSnapshots(size_t table, std::optional<int64_t> id) {
  MutexLock lock(&observer_mu_);
  tables_[table]->ShowSnapshots(id, [&](const Snapshot& s) { options_.observer->OnSnapshot(s_.tables[table], s); });
}

RunReport World::Finish() {
  RunReport r;
  r.scenario = s_.file_name;
  r.title = s_.title;
  r.plan = plan_;
  for (size_t t = 0; t < s_.tables.size(); ++t) {
    TableReport table{.name = s_.tables[t].name, .protocol = s_.tables[t].protocol};
    std::vector<sim::Violation> found;
    tables_[t]->Report(&table, &found, &r.run_errors);
    for (sim::Violation& v : found) r.violations.push_back({.violation = std::move(v)});
    r.tally.orphan_files += table.orphan_files;
    r.tables.push_back(std::move(table));
  }
  for (size_t i = 0; i < writers_.size(); ++i) {
    WriterReport w = writers_[i]->TakeReport();
    w.counters.orphan_files = writers_[i]->orphan_files();
    Counters sum = w.counters;
    sum.orphan_files = 0;  // the tally counts orphans per table: a file is one file whoever wrote it
    r.tally += sum;
    r.run_errors.insert(r.run_errors.end(), writers_[i]->run_errors().begin(), writers_[i]->run_errors().end());
    r.writers.push_back(std::move(w));
  }
  for (const sim::FiredFault& f : fault_plan_.fired()) r.fired_faults.push_back(sim::FormatFiredFault(f));
  r.fired_faults_total = fault_plan_.fired_total();
  EvaluateExpectations(s_, &r);
  return r;
}

}  // namespace commitlab::scenarios::internal
