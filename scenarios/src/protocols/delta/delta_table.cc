#include "protocols/delta/delta_table.h"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "commitlab/core/delta/actions.h"
#include "protocols/delta/delta_history.h"

namespace commitlab::scenarios::internal {
namespace {

CommitKind DeltaKind(delta::Operation op) {
  if (op == delta::Operation::kInsert) return CommitKind::kAppend;
  if (op == delta::Operation::kOptimize) return CommitKind::kCompact;
  return CommitKind::kOverwrite;
}

}  // namespace

Status DeltaTableRun::Create() {
  delta::Commit c;
  c.metadata = delta::Metadata{.id = table_.name,
                               .schema = "id BIGINT",
                               .partition_columns = table_.partition_keys,
                               .configuration = {{std::string(delta::kIsolationLevelProperty), table_.isolation}}};
  c.protocol = delta::Protocol{};
  c.commit_info.operation = delta::Operation::kCreateTable;
  c.commit_info.user_name = "commitlab";
  const delta::WriteResult r = log_.WriteIfAbsent(0, c);
  return r.outcome == delta::WriteOutcome::kWritten ? Status::OK() : r.error;
}

void DeltaTableRun::Acknowledged(const std::string& user, int64_t version) {
  MutexLock lock(&mu_);
  acknowledged_.emplace_back(user, version);
}

std::unique_ptr<TableLookup> DeltaTableRun::MakeLookup() { return MakeDeltaLookup(log()); }

std::unique_ptr<ProtocolWriter> DeltaTableRun::MakeWriter(ProtocolContext ctx) {
  return MakeDeltaWriter(std::move(ctx), this);
}

void DeltaTableRun::Report(TableReport* out, std::vector<sim::Violation>* violations,
                           std::vector<std::string>* run_errors) {
  (void)run_errors;
  MutexLock lock(&mu_);
  Result<int64_t> latest = log_.LatestVersion();
  if (!latest.ok()) return;
  std::map<std::string, int64_t> live;  // file -> rows
  int64_t total = 0;
  std::map<int64_t, std::string> writer_of;
  for (int64_t v = 0; v <= *latest; ++v) {
    Result<delta::CommitRef> read = log_.Read(v);
    if (!read.ok()) continue;
    const delta::CommitRef& c = *read;
    int64_t delta_rows = 0;
    for (const delta::RemoveFile& r : c->removes) {
      auto it = live.find(r.file.name);
      if (it == live.end()) continue;
      delta_rows -= it->second;
      live.erase(it);
    }
    for (const delta::AddFile& a : c->adds) {
      live[a.file.name] = a.file.row_count;
      delta_rows += a.file.row_count;
    }
    total += delta_rows;
    writer_of[v] = c->commit_info.user_name;
    if (v == 0) continue;  // the table's creation, not a writer's commit
    Snapshot x{.id = v,
               .parent_id = v - 1,
               .commit_user = c->commit_info.user_name,
               .kind = DeltaKind(c->commit_info.operation),
               .time_millis = c->commit_info.timestamp_millis,
               .total_records = total,
               .delta_records = delta_rows};
    out->chain.push_back(std::move(x));
    out->operations.emplace_back(delta::OperationName(c->commit_info.operation));
  }
  out->latest_snapshot = *latest;
  for (const auto& [user, version] : acknowledged_) {
    auto it = writer_of.find(version);
    if (it != writer_of.end() && it->second == user) continue;
    violations->push_back(
        {"lost", fmt::format("table {}: {} was told it committed version {}, which {}", table_.name, user, version,
                             it == writer_of.end() ? "does not exist" : "holds a commit by " + it->second)});
  }
}

}  // namespace commitlab::scenarios::internal
