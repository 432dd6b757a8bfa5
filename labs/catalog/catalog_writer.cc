#include "catalog/catalog_writer.h"

#include <fmt/format.h>

#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/operation.h"

namespace commitlab::cli {

std::string_view CatalogWorkloadName(CatalogWorkload w) { return w == CatalogWorkload::kAppend ? "append" : "counter"; }

namespace {

// One append of {writer, id}. Returns the snapshot id.
Result<int64_t> AppendOne(iceberg::IcebergCommitter* c, const std::string& user, int64_t id) {
  iceberg::FileRef f = iceberg::MakeDataFile(AppendFilePath(user, id), {Row{{"writer", user}, {"id", Value(id)}}});
  COMMITLAB_RETURN_IF_ERROR(c->WriteDataFile(f));
  Result<iceberg::MetadataRef> base = c->Refresh();
  if (!base.ok()) return base.status();
  Result<iceberg::CommitResult> r = c->Commit(iceberg::NewAppend(**base, {f}));
  if (!r.ok()) return r.status();
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
  for (int64_t id = 1; id <= options.commits; ++id) {
    Result<int64_t> snapshot = 0;
    if (options.workload == CatalogWorkload::kAppend) {
      snapshot = AppendOne(&committer, options.user, id);
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
  Result<iceberg::MetadataRef> base = c.Refresh();
  if (!base.ok()) return base.status();
  return c.Commit(iceberg::NewAppend(**base, {f})).status();
}

}  // namespace commitlab::cli
