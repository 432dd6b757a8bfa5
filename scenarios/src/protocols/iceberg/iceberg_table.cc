#include "protocols/iceberg/iceberg_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "commitlab/core/iceberg/deletes.h"
#include "commitlab/core/iceberg/maintenance.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/scenarios/iceberg_counter.h"
#include "protocols/iceberg/iceberg_history.h"

namespace commitlab::scenarios::internal {
namespace {

CommitKind IcebergKind(iceberg::DataOperation op) {
  switch (op) {
    case iceberg::DataOperation::kAppend: return CommitKind::kAppend;
    case iceberg::DataOperation::kReplace: return CommitKind::kCompact;
    default: return CommitKind::kOverwrite;
  }
}

int64_t Rows(const std::vector<iceberg::FileRef>& files) {
  int64_t n = 0;
  for (const iceberg::FileRef& f : files) n += f->file.row_count;
  return n;
}

int64_t SummaryInt(const std::map<std::string, std::string>& summary, const std::string& key) {
  auto it = summary.find(key);
  return it == summary.end() ? 0 : std::stoll(it->second);
}

}  // namespace

IcebergTableRun::IcebergTableRun(const Table& table) : table_(table) {
  if (table.catalog == "in-memory") catalog_ = std::make_unique<iceberg::InMemoryCatalog>(table.name);
  if (table.catalog == "rest") catalog_ = std::make_unique<iceberg::InMemoryRestCatalog>(table.name);
}

Status IcebergTableRun::Open() {
  if (catalog_ != nullptr) return Status::OK();
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<RealCatalogTable> real, OpenRealCatalog(table_.catalog, table_.name));
  real_ = std::move(real);
  return Status::OK();
}

std::unique_ptr<TableLookup> IcebergTableRun::MakeLookup() { return MakeIcebergLookup(catalog(), io()); }

std::unique_ptr<ProtocolWriter> IcebergTableRun::MakeWriter(ProtocolContext ctx) {
  return MakeIcebergWriter(std::move(ctx), this);
}

int64_t IcebergTableRun::OrphansOf(const std::string& user) {
  MutexLock lock(&mu_);
  auto it = orphans_by_user_.find(user);
  return it == orphans_by_user_.end() ? 0 : it->second;
}

Result<std::unique_ptr<iceberg::IcebergCatalog>> IcebergTableRun::WriterCatalog(const std::string& writer, Env* env) {
  if (real_ == nullptr) return std::unique_ptr<iceberg::IcebergCatalog>();
  return real_->WriterCatalog(writer, env);
}

void IcebergTableRun::Acknowledged(int64_t snapshot_id, int64_t sequence_number) {
  MutexLock lock(&mu_);
  acknowledged_[snapshot_id] = sequence_number;
}

void IcebergTableRun::Expired(const std::vector<int64_t>& snapshot_ids) {
  MutexLock lock(&mu_);
  expired_.insert(snapshot_ids.begin(), snapshot_ids.end());
}

void IcebergTableRun::CounterInit(const std::string& key, int64_t value) {
  MutexLock lock(&mu_);
  counters_[key] = {.initial = value, .increments = {}, .maybe = {}};
}

void IcebergTableRun::CounterIncrement(const std::string& key, int64_t delta) {
  MutexLock lock(&mu_);
  counters_[key].increments.push_back(delta);
}

void IcebergTableRun::CounterMaybeIncrement(const std::string& key, int64_t delta) {
  MutexLock lock(&mu_);
  counters_[key].maybe.push_back(delta);
}

bool IcebergTableRun::CounterInitialised(const std::string& key) {
  MutexLock lock(&mu_);
  return counters_.count(key) != 0;
}

void IcebergTableRun::Report(TableReport* out, std::vector<sim::Violation>* violations,
                             std::vector<std::string>* run_errors) {
  (void)run_errors;  // a catalog that cannot be read back is a violation: the table may be lost
  MutexLock lock(&mu_);
  Result<iceberg::MetadataRef> current = catalog()->Current();
  if (!current.ok()) {
    violations->push_back({"unreadable", fmt::format("table {}: its catalog cannot be read: {}", table_.name,
                                                     current.status().message())});
    return;
  }
  const iceberg::TableMetadata& m = **current;
  ReportChain(m, out, violations);

  // Counters: read from the current snapshot's files, as any reader would.
  std::vector<iceberg::Row> rows;
  if (const iceberg::SnapshotRef head = m.CurrentSnapshot()) {
    for (const auto& entry : m.LiveFiles())
      for (iceberg::Row& r : iceberg::LiveRows(*head, *entry.second)) rows.push_back(std::move(r));
  }
  for (const auto& [key, c] : counters_) {
    Result<std::optional<int64_t>> value = CounterValue(rows, key);
    out->counters[key] = value.ok() ? value->value_or(0) : 0;
    if (std::optional<sim::Violation> v = CounterViolation(key, c, value)) violations->push_back(std::move(*v));
  }

  const std::vector<iceberg::StoredFile> stored = io_.List();
  std::map<std::string, std::string> writer_of;
  for (const iceberg::StoredFile& f : stored) writer_of[f.path] = f.writer;
  for (const std::string& path : iceberg::FindOrphanFiles(m, stored)) {
    ++out->orphan_files;
    ++orphans_by_user_[writer_of[path]];
  }
}

// The chain: retained snapshots by sequence number; a parent that was expired is found among the
// acknowledged ones. Then fork, lost and missing_file.
void IcebergTableRun::ReportChain(const iceberg::TableMetadata& m, TableReport* out,
                                  std::vector<sim::Violation>* violations) {
  std::map<int64_t, int64_t> sequence;  // snapshot id -> sequence number
  for (const auto& [id, seq] : acknowledged_) sequence[id] = seq;
  for (const iceberg::SnapshotRef& s : m.snapshots) sequence[s->snapshot_id] = s->sequence_number;
  std::vector<iceberg::SnapshotRef> retained = m.snapshots.ToVector();
  std::sort(retained.begin(), retained.end(),
            [](const auto& a, const auto& b) { return a->sequence_number < b->sequence_number; });
  for (const iceberg::SnapshotRef& s : retained) {
    Snapshot x;
    x.id = s->sequence_number;
    x.parent_id = s->parent_id && sequence.count(*s->parent_id) ? sequence[*s->parent_id] : 0;
    x.commit_user = s->committed_by;
    x.kind = IcebergKind(s->operation);
    x.time_millis = s->timestamp_ms;
    x.total_records = SummaryInt(s->summary, "total-records");
    x.delta_records = Rows(s->added_files) - Rows(s->deleted_files);
    out->chain.push_back(std::move(x));
    out->operations.emplace_back(iceberg::DataOperationName(s->operation));
  }
  out->latest_snapshot = m.CurrentSnapshot() ? m.CurrentSnapshot()->sequence_number : 0;

  for (size_t i = 1; i < retained.size(); ++i) {
    if (retained[i]->parent_id != retained[i - 1]->snapshot_id) {
      violations->push_back(
          {"fork", fmt::format("table {}: snapshot {} (sequence {}) has parent {}, not the snapshot "
                               "before it, {}: the snapshots do not form one line",
                               table_.name, retained[i]->snapshot_id, retained[i]->sequence_number,
                               iceberg::FormatSnapshotId(retained[i]->parent_id), retained[i - 1]->snapshot_id)});
    }
  }
  for (const auto& [id, seq] : acknowledged_) {
    if (m.FindSnapshot(id) == nullptr && expired_.count(id) == 0) {
      violations->push_back({"lost", fmt::format("table {}: acknowledged snapshot {} (sequence {}) is not in the "
                                                 "table and no expire step removed it",
                                                 table_.name, id, seq)});
    }
  }
  for (const iceberg::SnapshotRef& s : retained) {
    std::set<std::string> paths;
    if (!s->manifest_list.empty()) paths.insert(s->manifest_list);
    for (const iceberg::ManifestRef& mf : s->manifests) paths.insert(mf->path);
    for (const auto& entry : *s->live_files) paths.insert(entry.first);
    if (s->live_deletes != nullptr)
      for (const auto& entry : *s->live_deletes) paths.insert(entry.first);
    for (const std::string& path : paths) {
      if (io_.Exists(path)) continue;
      violations->push_back({"missing_file", fmt::format("table {}: {} is gone, but snapshot {} (sequence {}) still "
                                                         "reaches it",
                                                         table_.name, path, s->snapshot_id, s->sequence_number)});
    }
  }
}

// lost_update: the counter's value in the current snapshot against its acknowledged increments.
std::optional<sim::Violation> IcebergTableRun::CounterViolation(const std::string& key, const Counter& c,
                                                                const Result<std::optional<int64_t>>& value) const {
  const int64_t final_value = value.ok() ? value->value_or(0) : 0;
  int64_t expected = c.initial;
  bool same_delta = true;
  bool fits = true;
  for (int64_t d : c.increments) {
    fits = fits && !__builtin_add_overflow(expected, d, &expected);
    same_delta = same_delta && d == c.increments.front();
  }
  for (int64_t d : c.maybe) same_delta = same_delta && !c.increments.empty() && d == c.increments.front();
  if (!value.ok()) {
    return sim::Violation{"lost_update", fmt::format("table {}: {}", table_.name, value.status().message())};
  } else if (same_delta && !c.increments.empty()) {
    if (std::optional<std::string> lost =
            scenarios::CheckCounter(key, c.initial, c.increments.front(), static_cast<int>(c.increments.size()),
                                    final_value, static_cast<int>(c.maybe.size())))
      return sim::Violation{"lost_update", *lost};
  } else if (!c.maybe.empty()) {
    // Increments of different sizes, some of unknown outcome: any subset of those may have
    // landed. Up to 16 every subset is tried; beyond, only the range they span.
    bool possible = false;
    if (c.maybe.size() <= 16) {
      for (uint64_t subset = 0; subset < (uint64_t{1} << c.maybe.size()) && !possible; ++subset) {
        int64_t v = expected;
        bool ok = fits;
        for (size_t i = 0; i < c.maybe.size(); ++i)
          if ((subset >> i) & 1) ok = ok && !__builtin_add_overflow(v, c.maybe[i], &v);
        possible = ok && v == final_value;
      }
    } else {
      int64_t lo = expected, hi = expected;
      bool ok = fits;
      for (int64_t d : c.maybe) ok = ok && !__builtin_add_overflow(d < 0 ? lo : hi, d, d < 0 ? &lo : &hi);
      possible = !ok || (lo <= final_value && final_value <= hi);
    }
    if (!possible)
      return sim::Violation{"lost_update",
                            fmt::format("lost update: counter {} is {}, which no subset of its {} increment(s) of "
                                        "unknown outcome added to the {} acknowledged from {} makes",
                                        key, final_value, c.maybe.size(), c.increments.size(), c.initial)};
  } else if (!fits) {
    return sim::Violation{"lost_update",
                          fmt::format("counter {}: {} acknowledged increment(s) from {} do not fit in a 64-bit integer "
                                      "(the counter is {})",
                                      key, c.increments.size(), c.initial, final_value)};
  } else if (final_value != expected) {
    return sim::Violation{"lost_update",
                          fmt::format("lost update: counter {} is {}, but {} acknowledged increment(s) from {} make {}",
                                      key, final_value, c.increments.size(), c.initial, expected)};
  }
  return std::nullopt;
}

}  // namespace commitlab::scenarios::internal
