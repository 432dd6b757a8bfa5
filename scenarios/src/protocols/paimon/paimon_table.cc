#include "protocols/paimon/paimon_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <utility>

#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/core/paimon/object_store.h"
#include "protocols/paimon/paimon_history.h"

namespace commitlab::scenarios::internal {
namespace {

// Every manifest and data file a snapshot of the chain names, sorted and once each: what is not
// among them is orphaned.
std::vector<std::string_view> ReferencedBy(const SnapshotChain& chain) {
  std::vector<std::string_view> names;
  for (const Snapshot& s : chain) {
    names.push_back(s.delta_manifest);
    for (const FileChange& c : s.changes) names.push_back(c.file.name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace

void Checkpoints::Save(const std::string& name, Committable c) {
  MutexLock lock(&mu_);
  saved_[name] = std::move(c);
}

std::optional<Committable> Checkpoints::Get(const std::string& name) const {
  MutexLock lock(&mu_);
  auto it = saved_.find(name);
  if (it == saved_.end()) return std::nullopt;
  return it->second;
}

PaimonTableRun::PaimonTableRun(const TableRunContext& ctx)
    : ctx_(ctx), checkpoints_(dynamic_cast<Checkpoints*>(ctx.shared)) {
  COMMITLAB_CHECK(checkpoints_ != nullptr, "a Paimon table needs the run's checkpoints");
}

// Another process on the same directory (a second `race`, a `commitlab writer`) must not commit
// as our users: each would take the other's snapshots for its own. A user no lock file can be
// named after cannot be claimed by a `commitlab writer` either, and is left unclaimed.
Status PaimonTableRun::ClaimUsers(const DirStore& store) {
  std::set<std::string> users;
  for (const Writer& w : ctx_.scenario->writers)
    if (w.table == ctx_.table && IsValidCommitUser(w.commit_user)) users.insert(w.commit_user);
  for (const std::string& user : users) {
    COMMITLAB_ASSIGN_OR_RETURN(UserClaim claim, UserClaim::Take(store.LockDir(), user));
    claims_.push_back(std::move(claim));
  }
  return Status::OK();
}

Status PaimonTableRun::Open() {
  const RunPlan& plan = *ctx_.plan;
  if (!plan.object_store.empty()) return Status::OK();  // an object store needs the run's Env: Start makes it
  if (plan.store == StoreKind::kMemory) {
    store_ = std::make_unique<MemoryStore>();
    return Status::OK();
  }
  const std::string& dir = ctx_.options->dir;
  const std::string root =
      plan.store == StoreKind::kTableDir ? dir : (std::filesystem::path(dir) / table().name).string();
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<DirStore> opened, DirStore::Open(root));
  // Any snapshot, not just snapshot-1: a table whose first snapshot was deleted is still a table.
  Result<std::vector<int64_t>> ids = opened->ListSnapshotIds();
  if (!ids.ok()) return Status::InvalidArgument(ids.status().message());
  if (!ids->empty()) {
    return Status::InvalidArgument(
        fmt::format("{} already holds a table (snapshot/snapshot-{} exists); use an empty directory, or `commitlab "
                    "writer` to join it",
                    root, ids->front()));
  }
  COMMITLAB_RETURN_IF_ERROR(ClaimUsers(*opened));
  store_ = std::move(opened);
  return Status::OK();
}

void PaimonTableRun::Start(Env* env) {
  if (std::optional<PublishMode> mode = ParsePublishMode(ctx_.plan->object_store))
    store_ = std::make_unique<ObjectStore>(env, ObjectStoreOptions{.mode = *mode, .lock = ctx_.options->table_lock});
}

std::unique_ptr<TableLookup> PaimonTableRun::MakeLookup() { return MakePaimonLookup(store_.get()); }

std::unique_ptr<ProtocolWriter> PaimonTableRun::MakeWriter(ProtocolContext ctx) {
  return MakePaimonWriter(std::move(ctx), this);
}

void PaimonTableRun::ShowSnapshots(std::optional<int64_t> id, const std::function<void(const Snapshot&)>& show) {
  if (store_ == nullptr) return;
  // Read directly, not through the Env: looking on is not part of the run.
  if (!id) {
    Result<std::optional<Snapshot>> latest = store_->LatestSnapshot();
    if (!latest.ok() || !latest->has_value()) return;
    id = (*latest)->id;
  }
  for (; shown_ < *id; ++shown_) {
    Result<SnapshotRef> s = store_->ReadSnapshotRef(shown_ + 1);
    if (!s.ok()) return;
    show(**s);
  }
}

void PaimonTableRun::Report(TableReport* out, std::vector<sim::Violation>* violations,
                            std::vector<std::string>* run_errors) {
  if (const auto* dir = dynamic_cast<const DirStore*>(store_.get()); dir != nullptr) {
    // The engine answered it as upstream does (an unknown outcome, a failed commit), but the run
    // did not test the protocol: it ran out of disk, or could not write where it had to.
    if (std::optional<std::string> io = dir->first_io_error())
      run_errors->push_back(fmt::format("table {}: the file system failed the run: {}", out->name, *io));
  }
  if (Status read = ReadChain(store_.get(), &out->chain); !read.ok()) {
    run_errors->push_back(fmt::format("table {}: cannot read the snapshot chain back: {}", out->name, read.message()));
  }
  out->latest_snapshot = out->chain.empty() ? 0 : out->chain.back().id;
  // A Paimon snapshot's operation is its kind: `operations` stays empty (TableReport::operation).
  chain_ = out->chain;
  referenced_ = ReferencedBy(chain_);
  // The files no snapshot references, each counted once: few (a lost attempt's manifest, a
  // crashed writer's files), where a store in memory lists millions of names.
  std::vector<std::string> orphans;
  store_->ForEachFile([&](std::string_view name) {
    if (!Referenced(name)) orphans.emplace_back(name);
  });
  std::sort(orphans.begin(), orphans.end());
  out->orphan_files = std::unique(orphans.begin(), orphans.end()) - orphans.begin();
  for (const sim::Violation& v : sim::CheckInvariants(out->chain, recorder_.TakeRecords())) violations->push_back(v);
}

}  // namespace commitlab::scenarios::internal
