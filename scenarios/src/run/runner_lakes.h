// The shared side of an Iceberg or a Delta table in a run: the engine's catalog / file store or
// log, what writers were told (to check afterwards), and reading it all back into a TableReport
// with its violations. The writers' side is runner_iceberg.cc and runner_delta.cc.
//
// The checks, in the words of sim/checker.h:
//   Iceberg  fork          the retained snapshots do not form one line (each the parent of the next)
//            lost          an acknowledged snapshot is neither retained nor expired by an expire step
//            missing_file  a file a retained snapshot reaches is gone from the store
//            lost_update   a counter is not its initial value plus the acknowledged increments
//            unreadable    the table's catalog on a real server cannot be read back
//   Delta    lost          an acknowledged version does not hold its writer's commit
#ifndef COMMITLAB_SCENARIOS_RUNNER_LAKES_H_
#define COMMITLAB_SCENARIOS_RUNNER_LAKES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/delta/log_store.h"
#include "commitlab/core/env.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/mutex.h"
#include "commitlab/scenarios/real_catalogs.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/checker.h"

namespace commitlab::scenarios::internal {

// Thread-safe: writers on OS threads record into it concurrently.
class IcebergTableRun {
 public:
  // A catalog in memory is made here; one on a real server by Open.
  explicit IcebergTableRun(const Table& table);

  // Opens the table's catalog on a real server (jdbc, rest-server: commitlab/scenarios/real_catalogs.h);
  // nothing for one in memory. InvalidArgument saying what is missing when a server cannot be had.
  Status Open();
  const Table& table() const { return table_; }
  // The catalog the run reads the table through.
  iceberg::IcebergCatalog* catalog() { return real_ != nullptr ? real_->catalog() : catalog_.get(); }
  // The catalog `writer` commits through: its own client of a catalog on a real server; null for a
  // catalog in memory (use catalog()).
  Result<std::unique_ptr<iceberg::IcebergCatalog>> WriterCatalog(const std::string& writer, Env* env);
  iceberg::InMemoryFileIO* io() { return &io_; }

  // A writer was told its operation committed `snapshot_id` with `sequence_number`.
  void Acknowledged(int64_t snapshot_id, int64_t sequence_number);
  void Expired(const std::vector<int64_t>& snapshot_ids);
  // `counter init` committed KEY = value; `counter commit` committed an increment of `delta`.
  void CounterInit(const std::string& key, int64_t value);
  void CounterIncrement(const std::string& key, int64_t delta);
  // An increment whose commit ended with its outcome unknown: the counter may include it or not.
  void CounterMaybeIncrement(const std::string& key, int64_t delta);
  // Whether a `counter init` of KEY has committed.
  bool CounterInitialised(const std::string& key);

  // After the run: the chain, the counters and the orphans into `out`; violations appended.
  // `orphans_by_user` gets each writer's orphan files (by the user that wrote them).
  void Report(TableReport* out, std::vector<sim::Violation>* violations,
              std::map<std::string, int64_t>* orphans_by_user);

 private:
  struct Counter {
    int64_t initial = 0;
    std::vector<int64_t> increments;
    std::vector<int64_t> maybe;  // outcome unknown
  };

  const Table& table_;
  std::unique_ptr<iceberg::IcebergCatalog> catalog_;  // in memory
  std::unique_ptr<RealCatalogTable> real_;            // on a real server
  iceberg::InMemoryFileIO io_;
  Mutex mu_;
  std::map<int64_t, int64_t> acknowledged_ GUARDED_BY(mu_);  // snapshot id -> sequence number
  std::set<int64_t> expired_ GUARDED_BY(mu_);
  std::map<std::string, Counter> counters_ GUARDED_BY(mu_);
};

class DeltaTableRun {
 public:
  explicit DeltaTableRun(const Table& table) : table_(table) {}

  const Table& table() const { return table_; }
  delta::DeltaLog* log() { return &log_; }
  // Version 0: CREATE TABLE with the table's partition columns and delta.isolationLevel.
  Status Create();
  void Acknowledged(const std::string& user, int64_t version);
  void Report(TableReport* out, std::vector<sim::Violation>* violations);

 private:
  const Table& table_;
  delta::MemoryDeltaLog log_;
  Mutex mu_;
  std::vector<std::pair<std::string, int64_t>> acknowledged_ GUARDED_BY(mu_);
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_LAKES_H_
