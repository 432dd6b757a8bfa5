#include "run/runner_world.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "commitlab/core/paimon/dir_store.h"
#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/core/paimon/object_store.h"
#include "run/runner_expect.h"

namespace commitlab::scenarios::internal {
namespace {

// Every manifest and data file a snapshot of the chain names, sorted: what is not among them is
// orphaned. Views of the chain's own strings (the report keeps the chain), not a set of copies.
using Names = std::vector<std::string_view>;
Names Referenced(const SnapshotChain& chain) {
  Names names;
  for (const Snapshot& s : chain) {
    names.push_back(s.delta_manifest);
    for (const FileChange& c : s.changes) names.push_back(c.file.name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

bool Contains(const Names& sorted, std::string_view name) {
  return std::binary_search(sorted.begin(), sorted.end(), name);
}

// The files in `store` that no snapshot references, each counted once.
int64_t CountOrphans(SnapshotStore* store, const Names& referenced) {
  std::vector<std::string> orphans;  // few: a lost attempt's manifest, a crashed writer's files
  store->ForEachFile([&](std::string_view name) {
    if (!Contains(referenced, name)) orphans.emplace_back(name);
  });
  std::sort(orphans.begin(), orphans.end());
  return std::unique(orphans.begin(), orphans.end()) - orphans.begin();
}

}  // namespace

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
    : s_(s), options_(options), plan_(plan), fault_plan_(plan.faults), shown_(s.tables.size(), 0) {
  if (options.choose_fault) fault_plan_.set_chooser(options.choose_fault);
}

World::~World() = default;  // out of line: PublishWatcher is complete here

// Another process on the same directory (a second `race`, a `commitlab writer`) must not commit
// as our users: each would take the other's snapshots for its own. A user no lock file can be
// named after cannot be claimed by a `commitlab writer` either, and is left unclaimed.
Status World::ClaimUsers(size_t table, const DirStore& store) {
  std::set<std::string> users;
  for (const Writer& w : s_.writers)
    if (w.table == table && IsValidCommitUser(w.commit_user)) users.insert(w.commit_user);
  for (const std::string& user : users) {
    Result<UserClaim> claim = UserClaim::Take(store.LockDir(), user);
    if (!claim.ok()) return claim.status();
    claims_.push_back(std::move(claim).value());
  }
  return Status::OK();
}

Status World::Open() {
  for (const Table& t : s_.tables) {
    iceberg_.push_back(t.protocol == Protocol::kIceberg ? std::make_unique<IcebergTableRun>(t) : nullptr);
    if (iceberg_.back() != nullptr) COMMITLAB_RETURN_IF_ERROR(iceberg_.back()->Open());
    delta_.push_back(t.protocol == Protocol::kDelta ? std::make_unique<DeltaTableRun>(t) : nullptr);
    if (delta_.back() != nullptr) COMMITLAB_RETURN_IF_ERROR(delta_.back()->Create());
    // An object store needs the run's Env: Writers() makes it.
    if (t.protocol != Protocol::kPaimon || !plan_.object_store.empty()) {
      stores_.push_back(nullptr);
      continue;
    }
    if (plan_.store == StoreKind::kMemory) {
      stores_.push_back(std::make_unique<MemoryStore>());
      continue;
    }
    const std::string root =
        plan_.store == StoreKind::kTableDir ? options_.dir : (std::filesystem::path(options_.dir) / t.name).string();
    Result<std::unique_ptr<DirStore>> opened = DirStore::Open(root);
    if (!opened.ok()) return opened.status();
    // Any snapshot, not just snapshot-1: a table whose first snapshot was deleted is still a table.
    Result<std::vector<int64_t>> ids = (*opened)->ListSnapshotIds();
    if (!ids.ok()) return Status::InvalidArgument(ids.status().message());
    if (!ids->empty()) {
      return Status::InvalidArgument(fmt::format(
          "{} already holds a table (snapshot/snapshot-{} exists); use an empty directory, or `commitlab writer` to "
          "join it",
          root, ids->front()));
    }
    COMMITLAB_RETURN_IF_ERROR(ClaimUsers(stores_.size(), **opened));
    stores_.push_back(std::move(*opened));
  }
  for (size_t t = 0; t < s_.tables.size(); ++t) {
    recorders_.push_back(std::make_unique<sim::OutcomeRecorder>());
    std::vector<EventSink*> sinks;
    if (options_.events != nullptr) sinks.push_back(options_.events);
    sinks.push_back(recorders_.back().get());
    if (options_.observer != nullptr && options_.observer->wants_snapshots() &&
        s_.tables[t].protocol == Protocol::kPaimon) {
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
  if (std::optional<PublishMode> mode = ParsePublishMode(plan_.object_store)) {
    for (size_t t = 0; t < s_.tables.size(); ++t)
      if (s_.tables[t].protocol == Protocol::kPaimon)
        stores_[t] = std::make_unique<ObjectStore>(env, ObjectStoreOptions{.mode = *mode, .lock = options_.table_lock});
  }
  if (options_.history != nullptr) {
    for (size_t t = 0; t < s_.tables.size(); ++t) {  // one a table: each holds one of the three
      lookups_.push_back(iceberg_[t] != nullptr ? MakeIcebergLookup(iceberg_[t]->catalog(), iceberg_[t]->io())
                         : delta_[t] != nullptr ? MakeDeltaLookup(delta_[t]->log())
                                                : MakePaimonLookup(stores_[t].get()));
    }
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
                 .checkpoints = &checkpoints_,
                 .events = sinks_[table].get(),
                 .history = histories_.empty() ? nullptr : histories_[i].get(),
                 .iceberg = iceberg_[table].get(),
                 .delta = delta_[table].get(),
                 .opaque_step = opaque_step_,
                 .mark_opaque = mark_opaque_,
                 .on_start = [this] { OnStart(); },
                 .on_step = [this](size_t w, size_t step, const StepResult& r) { OnStep(w, step, r); }};
    writers_.push_back(std::make_unique<WriterRun>(i, stores_[table].get(), std::move(we)));
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
  SnapshotStore* store = stores_[table].get();
  if (store == nullptr) return;  // Iceberg and Delta tables are not narrated snapshot by snapshot
  // Read directly, not through the Env: looking on is not part of the run.
  if (!id) {
    Result<std::optional<Snapshot>> latest = store->LatestSnapshot();
    if (!latest.ok() || !latest->has_value()) return;
    id = (*latest)->id;
  }
  for (; shown_[table] < *id; ++shown_[table]) {
    Result<SnapshotRef> s = store->ReadSnapshotRef(shown_[table] + 1);
    if (!s.ok()) return;
    options_.observer->OnSnapshot(s_.tables[table], **s);
  }
}

RunReport World::Finish() {
  RunReport r;
  r.scenario = s_.file_name;
  r.title = s_.title;
  r.plan = plan_;
  std::vector<Names> referenced;
  std::vector<std::map<std::string, int64_t>> orphans_by_user(s_.tables.size());  // Iceberg tables
  for (size_t t = 0; t < s_.tables.size(); ++t) {
    TableReport table{.name = s_.tables[t].name, .protocol = s_.tables[t].protocol};
    if (stores_[t] == nullptr) {  // an Iceberg or Delta table
      std::vector<sim::Violation> found;
      if (iceberg_[t] != nullptr) iceberg_[t]->Report(&table, &found, &orphans_by_user[t]);
      if (delta_[t] != nullptr) delta_[t]->Report(&table, &found);
      for (sim::Violation& v : found) r.violations.push_back({.violation = std::move(v)});
      referenced.emplace_back();
      r.tally.orphan_files += table.orphan_files;
      r.tables.push_back(std::move(table));
      continue;
    }
    if (const auto* dir = dynamic_cast<const DirStore*>(stores_[t].get()); dir != nullptr) {
      // The engine answered it as upstream does (an unknown outcome, a failed commit), but the run
      // did not test the protocol: it ran out of disk, or could not write where it had to.
      if (std::optional<std::string> io = dir->first_io_error())
        r.run_errors.push_back(fmt::format("table {}: the file system failed the run: {}", table.name, *io));
    }
    if (Status read = ReadChain(stores_[t].get(), &table.chain); !read.ok()) {
      r.run_errors.push_back(
          fmt::format("table {}: cannot read the snapshot chain back: {}", table.name, read.message()));
    }
    table.latest_snapshot = table.chain.empty() ? 0 : table.chain.back().id;
    // A Paimon snapshot's operation is its kind: `operations` stays empty (TableReport).
    referenced.push_back(Referenced(table.chain));
    table.orphan_files = CountOrphans(stores_[t].get(), referenced.back());
    for (const sim::Violation& v : sim::CheckInvariants(table.chain, recorders_[t]->records()))
      r.violations.push_back({.violation = v});
    r.tally.orphan_files += table.orphan_files;
    r.tables.push_back(std::move(table));
  }
  for (size_t i = 0; i < writers_.size(); ++i) {
    WriterReport w = writers_[i]->Report();
    const Names& known = referenced[s_.writers[i].table];
    writers_[i]->written().ForEach([&](std::string_view name) { w.counters.orphan_files += Contains(known, name) ? 0 : 1; });
    if (iceberg_[s_.writers[i].table] != nullptr)
      w.counters.orphan_files = orphans_by_user[s_.writers[i].table][w.user];
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
