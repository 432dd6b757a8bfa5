// PgCluster: a throwaway PostgreSQL server for tests and demos. initdb into a fresh temporary
// folder, pg_ctl start listening on a Unix socket in that folder only (no TCP port at all), and,
// in the destructor, stop it and remove the folder. PostgreSQL refuses to run as root, so as root
// every server command runs as the `postgres` user that Debian's package creates. A watchdog
// process stops the server even when the test process crashes or is killed.
#ifndef COMMITLAB_CATALOGS_PG_CLUSTER_H_
#define COMMITLAB_CATALOGS_PG_CLUSTER_H_

#include <memory>
#include <string>

#include "commitlab/core/status.h"

namespace commitlab::catalogs {

// kFast: fsync=off, synchronous_commit=off, full_page_writes=off, for the tests' speed. Then a
// crash of the server (Stop) loses commits it had acknowledged: an asynchronous commit answers
// before its WAL is written. kDefaults: PostgreSQL's own settings, every acknowledged commit
// flushed to the WAL first, so none is lost.
enum class PgDurability { kFast, kDefaults };

class PgCluster {
 public:
  // The server binaries: $COMMITLAB_PG_BINDIR, else the newest /usr/lib/postgresql/*/bin. Errors
  // say what is missing or which command failed, with the end of its log.
  static Result<std::unique_ptr<PgCluster>> Start(PgDurability durability = PgDurability::kFast);
  ~PgCluster();
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  // libpq conninfo for the server's database "postgres" as user "postgres".
  const std::string& conninfo() const { return conninfo_; }
  // Stops the server now ("immediate": connections break as in a crash). Idempotent.
  Status Stop();
  // Starts the stopped server again on the same data (crash recovery replays its WAL).
  Status Restart();

 private:
  PgCluster(std::string bindir, std::string dir, bool as_postgres);
  void StartWatchdog();
  Status RunServer();  // pg_ctl start with options_

  const std::string bindir_;
  const std::string dir_;  // holds data/, the socket and server.log
  const bool as_postgres_;
  std::string conninfo_;
  std::string options_;  // the server's -o
  bool running_ = false;
  int watchdog_pid_ = -1;  // the process that cleans up after us, even after a crash
  int watchdog_fd_ = -1;   // our end of its pipe: closing it (or dying) sets it off
};

}  // namespace commitlab::catalogs

#endif  // COMMITLAB_CATALOGS_PG_CLUSTER_H_
