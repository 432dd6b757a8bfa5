// JdbcTableLock: Paimon's JdbcCatalogLock with PostgresqlDistributedLockDialect, on a real server.
// The lock is a row of `paimon_distributed_locks` keyed by "<catalog>.<database>.<table>":
//
//   acquire  DELETE the row if it has expired (its age > expire_time_seconds; a holder that died
//            keeps the lock no longer), then INSERT it; a duplicate key means someone holds it
//            (JdbcUtils.acquire, AbstractDistributedLockDialect.lockAcquire)
//   wait     50 ms doubled each try, at most lock-check-max-sleep (8 s), until the lock is taken or
//            lock-acquire-timeout (8 min) has passed: "Acquire lock failed with time: ..."
//            (JdbcCatalogLock.lock)
//   release  DELETE the row (releaseLock)
//
// The row's expiry is the acquire timeout in seconds, as upstream's lockAcquire sets it.
#ifndef COMMITLAB_CATALOGS_JDBC_LOCK_H_
#define COMMITLAB_CATALOGS_JDBC_LOCK_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "commitlab/catalogs/pg_connection.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/paimon/table_lock.h"

namespace commitlab::catalogs {

struct JdbcLockOptions {
  std::string lock_id = "commitlab.db.tbl";           // "<catalog key>.<database>.<table>"
  int64_t check_max_sleep_micros = 8'000'000;         // lock-check-max-sleep
  int64_t acquire_timeout_micros = 8 * 60'000'000LL;  // lock-acquire-timeout
};

// One connection; thread-safe (statements are serialised on it, never held across a wait).
class JdbcTableLock final : public TableLock {
 public:
  // Connects and creates paimon_distributed_locks if missing.
  static Result<std::unique_ptr<JdbcTableLock>> Open(const std::string& conninfo, JdbcLockOptions options);

  Status Acquire(Env* env) override;
  Status Release() override;

  // The first error PostgreSQL gave (a lost connection, a stopped server), or nullopt. A writer
  // meets it as upstream would (an unknown outcome, a failed commit), but a run that met one did
  // not test the protocol: the caller reports it.
  std::optional<std::string> first_server_error() const;

 private:
  JdbcTableLock(std::unique_ptr<PgConnection> conn, JdbcLockOptions options)
      : conn_(std::move(conn)), options_(std::move(options)) {}
  // One try: true when this call inserted the row.
  Result<bool> TryOnce();

  // Returns `st`, noting it as the first server error when it is one.
  Status Noted(Status st) REQUIRES(mu_);

  mutable Mutex mu_;
  const std::unique_ptr<PgConnection> conn_ PT_GUARDED_BY(mu_);
  const JdbcLockOptions options_;
  std::optional<std::string> first_server_error_ GUARDED_BY(mu_);
};

}  // namespace commitlab::catalogs

#endif  // COMMITLAB_CATALOGS_JDBC_LOCK_H_
