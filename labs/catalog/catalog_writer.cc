#include "catalog/catalog_writer.h"

#include <fmt/format.h>

#include <optional>

#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/operation.h"

namespace commitlab::cli {

std::string_view CatalogWorkloadName(CatalogWorkload w) { return w == CatalogWorkload::kAppend ? "append" : "counter"; }

namespace {

// The snapshot of `m` that added `path`, when one still retained did.
std::optional<int64_t> AddedBy(const iceberg::TableMetadata& m, const std::string& path) {
  for (const iceberg::SnapshotRef& s : m.snapshots)
    for (const iceberg::FileRef& f : s->added_files)
      if (f->path() == path) return s->snapshot_id;
  return std::nullopt;
}

// One append of {writer, id}. Returns the snapshot id. `*last` is the metadata the writer last
// saw: the operation is built on it, and the committer's attempt refreshes (one load per attempt,
// not a second one here); the commit leaves the version it made in it. A writer restarted with the
// same flags resumes: an append already in the table is not made again (its snapshot is returned),
// and a data file an earlier run wrote but never committed is committed as it is (its path and
// content are this append's).
Result<int64_t> AppendOne(iceberg::IcebergCommitter* c, iceberg::FileIO* io, const std::string& user, int64_t id,
                          iceberg::MetadataRef* last) {
  const std::string path = AppendFilePath(user, id);
  if (*last == nullptr || (*last)->LiveFiles().count(path) != 0) {
    COMMITLAB_ASSIGN_OR_RETURN(iceberg::MetadataRef base, c->Refresh());
    *last = base;
  }
  if ((*last)->LiveFiles().count(path) != 0) return AddedBy(**last, path).value_or(0);
  iceberg::FileRef f = iceberg::MakeDataFile(path, {Row{{"writer", user}, {"id", Value(id)}}});
  if (!io->Exists(path)) COMMITLAB_RETURN_IF_ERROR(c->WriteDataFile(f));
  Result<iceberg::CommitResult> r = c->Commit(iceberg::NewAppend(**last, {f}));
  if (!r.ok()) {
    last->reset();
    return r.status();
  }
  *last = r->committed;
  return r->snapshot_id.value_or(0);
}

}  // namespace

std::string AppendFilePath(std::string_view user, int64_t id) {
  return fmt::format("data/{}-{:05d}.parquet", user, id);
}

CatalogWriterResult RunCatalogWriter(const CatalogWriterOptions& options, iceberg::IcebergCatalog* catalog,
                                     iceberg::FileIO* io, Env* env,
                                     const std::function<void(int64_t, int64_t)>& on_ack) {
  NullEventSink sink;
  iceberg::IcebergCommitter committer(options.user, iceberg::IcebergCommitOptions{.retry = options.retry}, env, catalog,
                                      io, &sink);
  CatalogWriterResult out;
  out.user = options.user;
  iceberg::MetadataRef last;
  for (int64_t id = 1; id <= options.commits; ++id) {
    Result<int64_t> snapshot = 0;
    if (options.workload == CatalogWorkload::kAppend) {
      snapshot = AppendOne(&committer, io, options.user, id, &last);
    } else {
      Result<scenarios::IncrementResult> r =
          scenarios::IncrementCounter(&committer, kCounterKey, kCounterDelta, options.on_validation);
      snapshot = r.ok() ? Result<int64_t>(r->snapshot_id.value_or(0)) : Result<int64_t>(r.status());
    }
    if (!snapshot.ok()) {
      out.error = snapshot.status().message();
      out.error_code = snapshot.status().code();
      break;
    }
    ++out.acknowledged;
    on_ack(id, *snapshot);
  }
  out.stats = committer.stats();
  out.unknown = out.stats.unknown_outcomes;
  return out;
}

Status InitCounter(iceberg::IcebergCatalog* catalog, iceberg::FileIO* io, Env* env) {
  NullEventSink sink;
  iceberg::IcebergCommitter c("setup", iceberg::IcebergCommitOptions{}, env, catalog, io, &sink);
  iceberg::FileRef f =
      iceberg::MakeDataFile("data/setup-counter.parquet", {scenarios::CounterRow(kCounterKey, kCounterStart)});
  COMMITLAB_RETURN_IF_ERROR(c.WriteDataFile(f));
  COMMITLAB_ASSIGN_OR_RETURN(iceberg::MetadataRef base, c.Refresh());
  return c.Commit(iceberg::NewAppend(*base, {f})).status();
}

}  // namespace commitlab::cli
