// RestTables: the namespaces and tables of commitlab's REST catalog server and what its handlers
// do to them, apart from HTTP (rest_catalog_server.h, routed by rest_router.h). Each method is one
// operation of the Iceberg REST catalog specification (open-api/rest-catalog-open-api.yaml) and
// answers its status and body: the specification's response objects, and its ErrorModel with the
// exception type upstream's CatalogHandlers throw (NoSuchNamespaceException, NoSuchTableException,
// AlreadyExistsException, NamespaceNotEmptyException, CommitFailedException, BadRequestException).
//
// State lives in the warehouse folder, so a server restarted on it serves the same tables:
//   <warehouse>/<ns>/                   a namespace (levels joined by '.'); .namespace.json holds
//                                       its properties
//   <warehouse>/<ns>/<table>/pointer.json  {"table-uuid", "metadata-location": absolute path}
//   <warehouse>/<ns>/<table>/metadata/NNNNN-<uuid>.metadata.json   (metadata_json.h)
// A commit writes its metadata file and then replaces pointer.json atomically (file_write.h): a
// crash in between leaves the table at the old version and an orphan metadata file. Each write
// is fsynced (file and folder), the durability a 200 promises.
//
// The table commit (operationId updateTable) runs as the reference server's CatalogHandlers.commit:
// every requirement is checked against the table as it is now (409 CommitFailedException when one
// fails), and the updates are applied to the current metadata (rest_commit.h), which becomes a new
// metadata file.
#ifndef COMMITLAB_CATALOGS_REST_TABLES_H_
#define COMMITLAB_CATALOGS_REST_TABLES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/catalogs/warehouse_lock.h"
#include "commitlab/core/iceberg/metadata_json.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/status.h"

namespace commitlab::catalogs {

// An HTTP answer: the status code and a JSON body ("" for 204). Errors carry the specification's
// ErrorModel: {"error": {"message", "type", "code"}}.
struct RestReply {
  int status = 200;
  std::string body = {};
  std::string etag = {};  // a table's answers: its metadata file's location, quoted
};

// An ErrorModel body.
RestReply RestError(int status, std::string_view type, std::string_view message);

// A new table's uuid: RFC 4122 version 4, from the system's random source (never a seed: two
// servers, or one restarted, must not name two tables alike).
std::string NewTableUuid();

// Thread-safe: one mutex over every table, so commits are serialised (per table and across them).
// Namespaces are given as the path parameter carries them, levels separated by 0x1F.
class RestTables {
 public:
  // Opens `warehouse` (created if missing) and holds its WarehouseLock while it lives:
  // InvalidArgument naming the other server's pid when one holds it.
  static Result<std::unique_ptr<RestTables>> Open(std::string warehouse);

  // Namespaces (rest_namespaces.cc).
  RestReply CreateNamespace(std::string_view body);     // 200 CreateNamespaceResponse, 409
  RestReply ListNamespaces(const std::string& parent);  // 200 ListNamespacesResponse
  RestReply LoadNamespace(const std::string& ns);       // 200 GetNamespaceResponse, 404
  RestReply NamespaceExists(const std::string& ns);     // 204, 404
  RestReply UpdateNamespaceProperties(const std::string& ns, std::string_view body);  // 200, 404, 422
  RestReply DropNamespace(const std::string& ns);  // 204, 404, 409 NamespaceNotEmptyException

  // Tables.
  // CreateTableRequest {name, schema, location?, partition-spec?, write-order?, properties?}:
  // 200 LoadTableResult, 404 NoSuchNamespaceException, 409 "Table already exists: ns.name".
  RestReply Create(const std::string& ns, std::string_view body);
  RestReply List(const std::string& ns);  // 200 ListTablesResponse, 404
  // With `if_none_match` the ETag of the table as it is now: 304 Not Modified and no body (the
  // client has that version already).
  RestReply Load(const std::string& ns, const std::string& table,
                 std::string_view if_none_match = "");                          // 200 LoadTableResult, 404
  RestReply Exists(const std::string& ns, const std::string& table);            // 204, 404
  RestReply Drop(const std::string& ns, const std::string& table, bool purge);  // 204, 404
  RestReply Rename(std::string_view body);                                      // RenameTableRequest: 204, 404, 409
  RestReply Register(const std::string& ns, std::string_view body);  // {name, metadata-location}: 200, 404, 409
  // CommitTableRequest {requirements, updates}: 200 CommitTableResponse, 409 CommitFailedException,
  // 404, 400 for a body that is not a commit, or 500 when the warehouse cannot be written (the
  // table is then as it was, or at the new version: unknown to the client, as the specification says).
  RestReply Commit(const std::string& ns, const std::string& table, std::string_view body);

  const std::string& warehouse() const { return warehouse_; }

 private:
  struct Table {
    iceberg::MetadataRef metadata;
    std::string text;  // the metadata as written, served as it is
    // Its snapshots' text, so that the next version encodes only its new ones (shared by a
    // table's successive versions: one commit at a time holds the lock).
    std::shared_ptr<iceberg::SnapshotTexts> texts = std::make_shared<iceberg::SnapshotTexts>();
  };
  RestTables(std::string warehouse, std::unique_ptr<WarehouseLock> lock)
      : warehouse_(std::move(warehouse)), lock_(std::move(lock)) {}

  // The folder of namespace `ns` (a path parameter), or "" when it is not a valid name.
  std::string NamespaceDir(const std::string& ns) const;
  bool NamespaceIsThere(const std::string& dir) const;
  // The table from memory, else from the warehouse; nullptr when it does not exist.
  Result<const Table*> Find(const std::string& dir, const std::string& table) REQUIRES(mu_);
  // Where version `file` (relative to the table's location) of a table in `dir` is written: under
  // its location when that is a local folder, else (a table registered from elsewhere) in `dir`.
  static std::string MetadataPath(const iceberg::TableMetadata& m, const std::string& dir, const std::string& file);
  // Writes the metadata file (unless it is there already: a registered or renamed table's) and
  // then the pointer; stores the table in memory once both are written.
  Status Persist(const std::string& dir, const std::string& table, Table t, bool write_metadata) REQUIRES(mu_);
  // The table `m` registered as `table` in namespace folder `ns_dir`: 200 LoadTableResult, or 409
  // when the name is taken.
  RestReply Install(const std::string& ns_dir, const std::string& table, iceberg::MetadataRef m, bool write_metadata)
      REQUIRES(mu_);
  static RestReply LoadResult(const Table& t);

  const std::string warehouse_;  // absolute
  const std::unique_ptr<WarehouseLock> lock_;
  Mutex mu_;
  std::map<std::string, Table> tables_ GUARDED_BY(mu_);  // by "<namespace folder>/<table>"
};

}  // namespace commitlab::catalogs

#endif  // COMMITLAB_CATALOGS_REST_TABLES_H_
