// PgConnection: one libpq connection, statements with text parameters, and the one distinction a
// catalog needs from an error: did the server answer (the statement failed, nothing changed), or
// was the connection lost (the statement may or may not have run).
#ifndef COMMITLAB_CATALOGS_PG_CONNECTION_H_
#define COMMITLAB_CATALOGS_PG_CONNECTION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"

struct pg_conn;

namespace commitlab::catalogs {

struct PgRows {
  int64_t affected = 0;                                            // rows an UPDATE/INSERT/DELETE touched
  std::vector<std::vector<std::optional<std::string>>> rows = {};  // of a SELECT; nullopt is NULL
};

// Not thread-safe: one connection per thread (or a lock around it).
class PgConnection {
 public:
  // conninfo as libpq takes it ("host=/tmp/x dbname=postgres user=postgres", or a postgres:// URI).
  // InvalidArgument when the server cannot be reached, with libpq's reason.
  static Result<std::unique_ptr<PgConnection>> Connect(const std::string& conninfo);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs one statement. Errors: Conflict "PostgreSQL refused the statement [SQLSTATE]: ..." when
  // the server refused it (a constraint, a syntax error: it did not take effect), IOError when the
  // connection broke (it may have).
  Result<PgRows> Exec(std::string_view sql, const std::vector<std::string>& params = {});
  // Runs a CREATE TABLE IF NOT EXISTS. Two connections running it at once can still collide on
  // the catalog's own rows (a duplicate key); the loser runs it again, once the table is there.
  Status CreateIfMissing(std::string_view create_sql);
  // Drops the connection as a network failure would, and opens a new one for the next statement
  // (Exec also reconnects first whenever the connection is broken).
  void Drop();

 private:
  explicit PgConnection(pg_conn* conn) : conn_(conn) {}
  pg_conn* conn_;
};

// Exec's error for a duplicate key (SQLSTATE 23505, unique_violation): the row is there already.
bool IsUniqueViolation(const Status& st);

}  // namespace commitlab::catalogs

#endif  // COMMITLAB_CATALOGS_PG_CONNECTION_H_
