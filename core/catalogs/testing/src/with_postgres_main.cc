// with_postgres -- COMMAND [ARGS...]: runs COMMAND with a throwaway PostgreSQL server (PgCluster)
// whose libpq conninfo is in $COMMITLAB_PG, then stops the server and removes it. Exits with
// COMMAND's status, or 2 with the reason when the server cannot start. For the CLI's tests, and
// for trying the real catalogs without a server of one's own.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "commitlab/catalogs/pg_cluster.h"

int main(int argc, char** argv) {
  if (argc < 3 || std::strcmp(argv[1], "--") != 0) {
    std::fprintf(stderr, "usage: with_postgres -- COMMAND [ARGS...]\n");
    return 2;
  }
  commitlab::Result<std::unique_ptr<commitlab::catalogs::PgCluster>> cluster = commitlab::catalogs::PgCluster::Start();
  if (!cluster.ok()) {
    std::fprintf(stderr, "with_postgres: cannot start a PostgreSQL server: %s\n", cluster.status().message().c_str());
    return 2;
  }
  setenv("COMMITLAB_PG", (*cluster)->conninfo().c_str(), 1);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    std::fprintf(stderr, "with_postgres: cannot run %s: %s\n", argv[2], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return 2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
