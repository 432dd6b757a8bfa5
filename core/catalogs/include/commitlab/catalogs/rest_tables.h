// RestTables: the tables of commitlab's REST catalog server and what its handlers do to them,
// apart from HTTP (rest_catalog_server.h): create, load, and the table commit of the Iceberg REST
// catalog specification (open-api/rest-catalog-open-api.yaml, operationId updateTable) as the
// reference server's CatalogHandlers.commit runs it: every requirement is checked against the
// table as it is now, a failed one answers 409 CommitFailedException, and the updates are applied
// to the current metadata, which becomes a new metadata file.
//
// State lives in the warehouse folder, so a server restarted on it serves the same tables:
//   <warehouse>/<namespace>/<table>/metadata/NNNNN-<uuid>.metadata.json   (metadata_json.h)
//   <warehouse>/<namespace>/<table>/pointer.json  {"table-uuid", "metadata-location"}
// A commit writes its metadata file and then replaces pointer.json atomically (file_write.h): a
// crash in between leaves the table at the old version and an orphan metadata file.
//
// Requirements: assert-table-uuid, assert-ref-snapshot-id (branch main), assert-current-schema-id,
// and assert-current-snapshot-id (the requirement in the commit request that the lecture 04 事务与并发控制
// sketches in its section 1.2; not among the specification's types, so checked as
// assert-ref-snapshot-id on main). Updates: add-snapshot,
// set-snapshot-ref (main), set-current-schema, remove-snapshots. Anything else is 400.
#ifndef COMMITLAB_CATALOGS_REST_TABLES_H_
#define COMMITLAB_CATALOGS_REST_TABLES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/rng.h"
#include "commitlab/core/status.h"

namespace commitlab::catalogs {

// An HTTP answer: the status code and a JSON body. Errors carry the specification's
// ErrorModel: {"error": {"message", "type", "code"}}.
struct RestReply {
  int status = 200;
  std::string body = {};
};

// An ErrorModel body.
RestReply RestError(int status, std::string_view type, std::string_view message);

// Thread-safe: one mutex over every table, so commits are serialised (per table and across them).
class RestTables {
 public:
  // Opens `warehouse` (created if missing). Table and metadata uuids are drawn from `seed`.
  static Result<std::unique_ptr<RestTables>> Open(std::string warehouse, uint64_t seed);

  // POST /v1/namespaces/{ns}/tables with {"name": ...}: 200 and the LoadTableResult, or 409
  // AlreadyExistsException "Table already exists: ns.name".
  RestReply Create(const std::string& ns, std::string_view body);
  // GET /v1/namespaces/{ns}/tables/{table}: 200 LoadTableResult
  // {"metadata-location", "table-uuid", "metadata"} or 404 NoSuchTableException.
  RestReply Load(const std::string& ns, const std::string& table);
  // POST /v1/namespaces/{ns}/tables/{table} with {"requirements", "updates"}: 200 and the new
  // LoadTableResult, 409 CommitFailedException, 404, 400 BadRequestException for a body that is not
  // a commit, or 500 when the warehouse cannot be written (the table is then as it was).
  RestReply Commit(const std::string& ns, const std::string& table, std::string_view body);

  const std::string& warehouse() const { return warehouse_; }

 private:
  struct Table {
    std::string uuid;
    iceberg::MetadataRef metadata;
  };
  RestTables(std::string warehouse, uint64_t seed) : warehouse_(std::move(warehouse)), rng_(seed) {}

  std::string TableDir(const std::string& ns, const std::string& table) const;
  // The table from memory, else from the warehouse; nullptr when it does not exist.
  Result<const Table*> Find(const std::string& ns, const std::string& table) REQUIRES(mu_);
  // Writes the metadata file and then the pointer.
  Status Persist(const std::string& dir, const Table& t);
  static RestReply LoadResult(const Table& t);

  const std::string warehouse_;
  Mutex mu_;
  Rng rng_ GUARDED_BY(mu_);
  std::map<std::string, Table> tables_ GUARDED_BY(mu_);  // by "ns/table"
};

}  // namespace commitlab::catalogs

#endif  // COMMITLAB_CATALOGS_REST_TABLES_H_
