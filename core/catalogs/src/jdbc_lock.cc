#include "commitlab/catalogs/jdbc_lock.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace commitlab::catalogs {
namespace {

// PostgresqlDistributedLockDialect.getCreateTableSql (lock key length 255).
constexpr std::string_view kCreateTable =
    "CREATE TABLE IF NOT EXISTS paimon_distributed_locks (lock_id VARCHAR(255) NOT NULL, acquired_at TIMESTAMP "
    "DEFAULT CURRENT_TIMESTAMP NOT NULL, expire_time_seconds BIGINT DEFAULT 0 NOT NULL, lock_owner VARCHAR(36), "
    "PRIMARY KEY (lock_id))";
// getTryReleaseTimedOutLock, getLockAcquireSql, getReleaseLockSql.
constexpr std::string_view kReleaseExpired =
    "DELETE FROM paimon_distributed_locks WHERE EXTRACT(EPOCH FROM AGE(NOW(), acquired_at)) > expire_time_seconds "
    "AND lock_id = $1";
constexpr std::string_view kAcquire =
    "INSERT INTO paimon_distributed_locks (lock_id, expire_time_seconds) VALUES ($1, $2)";
constexpr std::string_view kRelease = "DELETE FROM paimon_distributed_locks WHERE lock_id = $1";

// java.time.Duration's toString, as upstream's message prints it: "PT8M0.05S".
std::string JavaDuration(int64_t micros) {
  const int64_t millis = micros / 1000;
  const int64_t minutes = millis / 60'000;
  const double seconds = static_cast<double>(millis % 60'000) / 1000.0;
  std::string out = "PT";
  if (minutes > 0) out += fmt::format("{}M", minutes);
  if (seconds > 0 || minutes == 0) out += fmt::format("{:g}S", seconds);
  return out;
}

}  // namespace

Result<std::unique_ptr<JdbcTableLock>> JdbcTableLock::Open(const std::string& conninfo, JdbcLockOptions options) {
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> conn, PgConnection::Connect(conninfo));
  if (Status st = conn->CreateIfMissing(kCreateTable); !st.ok()) return st;
  return std::unique_ptr<JdbcTableLock>(new JdbcTableLock(std::move(conn), std::move(options)));
}

Status JdbcTableLock::Noted(Status st) {
  if (!st.ok() && !first_server_error_) first_server_error_ = st.message();
  return st;
}

std::optional<std::string> JdbcTableLock::first_server_error() const {
  MutexLock l(&mu_);
  return first_server_error_;
}

Result<bool> JdbcTableLock::TryOnce() {
  MutexLock l(&mu_);
  if (Result<PgRows> r = conn_->Exec(kReleaseExpired, {options_.lock_id}); !r.ok()) return Noted(r.status());
  Result<PgRows> r =
      conn_->Exec(kAcquire, {options_.lock_id, std::to_string(options_.acquire_timeout_micros / 1'000'000)});
  // Upstream's lockAcquire answers false on any SQLException; only a duplicate key (someone holds
  // it) does here, so that a writer does not wait out the whole timeout on a dead link, a missing
  // table or a statement timeout.
  if (!r.ok()) return IsUniqueViolation(r.status()) ? Result<bool>(false) : Result<bool>(Noted(r.status()));
  return r->affected > 0;
}

Status JdbcTableLock::Acquire(Env* env) {
  const int64_t start = env->NowMicros();
  int64_t next_sleep = 50'000;
  for (;;) {
    COMMITLAB_ASSIGN_OR_RETURN(bool got, TryOnce());
    if (got) return Status::OK();
    const int64_t waited = env->NowMicros() - start;
    if (waited > options_.acquire_timeout_micros)
      return Status::IOError(fmt::format("Acquire lock failed with time: {}", JavaDuration(waited)));
    next_sleep = std::min(next_sleep * 2, options_.check_max_sleep_micros);
    env->SleepMicros(next_sleep);
  }
}

Status JdbcTableLock::Release() {
  MutexLock l(&mu_);
  return Noted(conn_->Exec(kRelease, {options_.lock_id}).status());
}

}  // namespace commitlab::catalogs
