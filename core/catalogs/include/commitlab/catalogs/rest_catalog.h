// RestCatalog: the Iceberg engine's catalog as a client of a REST catalog server over HTTP/1.1
// (Boost.Beast), after RESTTableOperations.commit: the commit is sent as requirements and updates
// (UpdateRequirements.forUpdateTable), never as a metadata file:
// Only the specification's shapes go out (a snapshot carries commitlab's files in a member of its
// own, metadata_json.h), so it races writers against any conformant REST catalog; and it checks the
// server's /v1/config endpoints first, naming one it lacks.
//   requirements  assert-table-uuid always; assert-ref-snapshot-id(main, base's snapshot or null)
//                 when it moves main; assert-current-schema-id when it sets the schema
//   updates       add-snapshot for each new snapshot (metadata_json.h's EncodeSnapshot),
//                 set-snapshot-ref main, set-current-schema, remove-snapshots
// and the answer is read as ErrorHandlers.CommitErrorHandler does: 200 swapped (the server's
// metadata becomes current), 409 CommitFailedException (lost, retried), 500/502/503/504 and a
// connection that fails once the request is on its way CommitStateUnknownException (unknown).
// Any other answer (400, 404) is not a commit failure upstream either: unknown here, with the
// server's message, so nothing is retried or cleaned up on it.
#ifndef COMMITLAB_CATALOGS_REST_CATALOG_H_
#define COMMITLAB_CATALOGS_REST_CATALOG_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/metadata_json.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/status.h"

namespace commitlab::catalogs {

struct RestEndpoint {
  std::string host = "127.0.0.1";
  uint16_t port = 0;
  std::string ns = "db";
  std::string table = "tbl";
  std::string writer = {};  // sent as X-Commitlab-Writer, so server-side faults can name a writer
  int64_t timeout_micros = int64_t{30} * 1'000'000;  // per request: connect, send and answer
};

// "rest://127.0.0.1:8181" or "http://127.0.0.1:8181" (host and port; a path is refused).
// InvalidArgument naming what is wrong.
Result<RestEndpoint> ParseRestUri(std::string_view uri);

// Thread-safe: requests are serialised on one kept-alive connection. Give each writer its own.
class RestCatalog final : public iceberg::IcebergCatalog {
 public:
  // `env`, when given (not owned), is asked at fault points catalog.before and catalog.after of
  // each commit, for runs that inject faults at the client (scenarios): an error before means the
  // request is never sent, as a 503 that applied nothing; an error after drops the connection
  // once the server has applied the commit, as an answer lost on the way. Either is unknown to
  // the writer. A server started with a fault hook injects the same faults at its end.
  explicit RestCatalog(RestEndpoint endpoint, Env* env = nullptr);
  ~RestCatalog() override;

  // createNamespace (already there is fine), then createTable with a schema without columns.
  // Conflict "Table already exists: db.tbl" when it does; IOError when the server cannot be
  // reached; InvalidArgument naming the endpoint when the server's /v1/config does not list it.
  Status CreateTable();

  const std::string& table_name() const override { return qualified_; }
  // loadTable; NotFound when the table does not exist, IOError when the server cannot be reached,
  // InvalidArgument when its /v1/config does not list loadTable and updateTable.
  Result<iceberg::MetadataRef> Current() override;
  // A REST client has no pointer to swap: commits go through Commit. Always kUnknown.
  iceberg::CasResult CompareAndSwap(int64_t expected_version, iceberg::MetadataRef new_metadata) override;
  iceberg::CasResult Commit(const iceberg::TableMetadata& base, iceberg::MetadataRef next) override;
  bool ChecksRequirements() const override { return true; }
  // Requests sent and their bodies' bytes (both ways), for the per-commit cost.
  int64_t requests() {
    MutexLock l(&mu_);
    return requests_;
  }
  int64_t bytes() {
    MutexLock l(&mu_);
    return bytes_;
  }
  bool ClientWritesMetadata() const override { return false; }

  class Connection;

 private:
  struct Reply {
    int status = 0;
    std::string body;
    std::string etag = {};
  };
  // One request. IOError when it could not be sent (*sent false: the server never saw it) or its
  // answer never came (*sent true).
  Result<Reply> Send(std::string_view method, const std::string& target, const std::string& body, bool* sent,
                     const std::string& if_none_match = "") REQUIRES(mu_);
  // OK when the server serves every one of `needed` ("POST /v1/{prefix}/namespaces", ...), as its
  // /v1/config lists them (asked once).
  Status CheckEndpoints(const std::vector<std::string>& needed) REQUIRES(mu_);
  Result<iceberg::MetadataRef> Load() REQUIRES(mu_);
  // `etag`: the answer's ETag header, sent back with the next load.
  Result<iceberg::MetadataRef> ReadLoadResult(const std::string& body, const std::string& where,
                                              const std::string& etag) REQUIRES(mu_);

  const RestEndpoint endpoint_;
  const std::string qualified_;
  Env* const env_;  // may be null: no fault points
  Mutex mu_;
  std::unique_ptr<Connection> conn_ PT_GUARDED_BY(mu_);
  std::string uuid_ GUARDED_BY(mu_);           // the table's, from the last load
  iceberg::MetadataRef last_ GUARDED_BY(mu_);  // the last version read, which lends its snapshots
  std::string etag_ GUARDED_BY(mu_);           // the ETag that version came with: a load sends it back (304: unchanged)
  iceberg::SnapshotsRead read_ GUARDED_BY(mu_);  // its snapshots' text: the next answer is read for what is new
  std::optional<std::set<std::string>> served_ GUARDED_BY(mu_);  // /v1/config's endpoints
  int64_t requests_ GUARDED_BY(mu_) = 0;
  int64_t bytes_ GUARDED_BY(mu_) = 0;  // request and answer bodies
};

}  // namespace commitlab::catalogs

#endif  // COMMITLAB_CATALOGS_REST_CATALOG_H_
