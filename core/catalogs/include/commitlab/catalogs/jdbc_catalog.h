// JdbcCatalog: Iceberg's JDBC catalog (JdbcCatalog, JdbcTableOperations, JdbcUtil) on a real
// PostgreSQL server. The table's pointer is a row of `iceberg_tables`; a commit is
//
//   UPDATE iceberg_tables SET metadata_location = <new>, previous_metadata_location = <old>
//    WHERE catalog_name = ? AND table_namespace = ? AND table_name = ? AND metadata_location = <old>
//
// (locations absolute, as JdbcTableOperations writes them; the WHERE is the check that the row
// still names the metadata the writer read, so no SELECT goes before it), and an update count other
// than 1 is CommitFailedException ("Failed to update table %s from
// catalog %s"), which the committer retries. Any database error (a refused statement, a lost
// connection, at the SELECT or the UPDATE) is UncheckedSQLException upstream: not retried and
// nothing cleaned up, which to a writer is the unknown outcome (kUnknown). Only a connection that
// breaks once the UPDATE is sent leaves the swap truly undecided; the message says which it was.
//
// The metadata files themselves are in a MetadataFiles registry that every catalog of the process
// shares and, given a folder, also JSON files there (metadata_json.h) that other processes read:
// the database holds only their locations, as upstream's does.
#ifndef COMMITLAB_CATALOGS_JDBC_CATALOG_H_
#define COMMITLAB_CATALOGS_JDBC_CATALOG_H_

#include <map>
#include <memory>
#include <string>

#include "commitlab/catalogs/pg_connection.h"
#include "commitlab/core/env.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/metadata_json.h"
#include "commitlab/core/mutex.h"

namespace commitlab::catalogs {

// The metadata files by location. Thread-safe.
class MetadataFiles {
 public:
  // Without a folder the files live in this process only; with one, each is also written to
  // <folder>/<location> (atomically), and one this process never wrote is read from there.
  explicit MetadataFiles(std::string folder = "")
      : folder_(std::move(folder)), root_(folder_.empty() ? "" : AbsoluteFolder(folder_)) {}
  // IOError when the file cannot be written.
  Status Put(const iceberg::MetadataRef& m);
  // By its location, absolute (as the database holds it) or relative to the folder. NotFound when
  // no writer wrote it; Corruption naming the file when it cannot be read back.
  Result<iceberg::MetadataRef> Get(const std::string& location, const std::string& table = "");
  // A location relative to the folder as the database holds it (absolute), and back.
  std::string Absolute(const std::string& location) const;
  std::string Relative(const std::string& location) const;
  // The folder, absolute ("" without one): the tables' location.
  const std::string& root() const { return root_; }

 private:
  static std::string AbsoluteFolder(const std::string& folder);
  const std::string folder_;
  const std::string root_;
  Mutex mu_;
  std::map<std::string, iceberg::MetadataRef> files_ GUARDED_BY(mu_);
  iceberg::MetadataRef newest_ GUARDED_BY(mu_);  // the newest version read from a file
  // The snapshots' text of the last file written, so that the next version encodes only its new
  // snapshots (metadata_json.h). Its own lock: encoding is not done under mu_.
  Mutex encode_mu_;
  iceberg::SnapshotTexts texts_ GUARDED_BY(encode_mu_);
};

struct JdbcTable {
  std::string catalog = "commitlab";  // catalog_name
  std::string ns = "db";              // table_namespace
  std::string name = "tbl";           // table_name
};

// One connection; thread-safe (calls are serialised on it). Give each writer its own catalog to
// race on the server rather than on this object's lock.
class JdbcCatalog final : public iceberg::IcebergCatalog {
 public:
  // Creates iceberg_tables if missing (JdbcUtil's V0 layout) and connects. `files` must outlive it.
  // `env`, when given (not owned), is asked at fault points catalog.before and catalog.after
  // around the swap: an error there drops the real connection (PgConnection::Drop) on that side
  // of the UPDATE, and the writer is told the outcome is unknown.
  static Result<std::unique_ptr<JdbcCatalog>> Open(const std::string& conninfo, JdbcTable table, MetadataFiles* files,
                                                   Env* env = nullptr);
  // Registers the table at `initial` (its version 0): an INSERT, as JdbcCatalog's createTable.
  // Conflict "Table already exists: db.tbl" when the row is there.
  Status CreateTable(const iceberg::MetadataRef& initial);
  // Removes the table's row if there is one (JdbcCatalog.dropTable without purging files).
  Status DropTable();

  const std::string& table_name() const override { return qualified_; }
  Result<iceberg::MetadataRef> Current() override;
  iceberg::CasResult CompareAndSwap(int64_t expected_version, iceberg::MetadataRef new_metadata) override;

 private:
  JdbcCatalog(std::unique_ptr<PgConnection> conn, JdbcTable table, MetadataFiles* files, Env* env)
      : conn_(std::move(conn)),
        table_(std::move(table)),
        qualified_(table_.ns + "." + table_.name),
        files_(files),
        env_(env) {}
  // The row's metadata_location.
  Result<std::string> Location() REQUIRES(mu_);

  Mutex mu_;
  const std::unique_ptr<PgConnection> conn_ PT_GUARDED_BY(mu_);
  const JdbcTable table_;
  const std::string qualified_;
  MetadataFiles* const files_;
  Env* const env_;  // may be null: no fault points
};

}  // namespace commitlab::catalogs

#endif  // COMMITLAB_CATALOGS_JDBC_CATALOG_H_
