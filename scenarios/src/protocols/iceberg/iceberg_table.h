// An Iceberg table in a run: the engine's catalog (in memory, or on a real server) and file
// store, what writers were told (to check afterwards), and reading it all back into a
// TableReport with its violations. The writers' side is iceberg_writer.cc.
//
// The checks, in the words of sim/checker.h:
//   fork          the retained snapshots do not form one line (each the parent of the next)
//   lost          an acknowledged snapshot is neither retained nor expired by an expire step
//   missing_file  a file a retained snapshot reaches is gone from the store
//   lost_update   a counter is not its initial value plus the acknowledged increments
//   unreadable    the table's catalog on a real server cannot be read back
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_TABLE_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_TABLE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/mutex.h"
#include "commitlab/scenarios/real_catalogs.h"
#include "protocols/protocol.h"

namespace commitlab::scenarios::internal {

// Thread-safe: writers on OS threads record into it concurrently.
class IcebergTableRun final : public TableRun {
 public:
  // A catalog in memory is made here; one on a real server by Open.
  explicit IcebergTableRun(const Table& table);

  // Opens the table's catalog on a real server (jdbc, rest-server: commitlab/scenarios/real_catalogs.h);
  // nothing for one in memory. InvalidArgument saying what is missing when a server cannot be had.
  Status Open() override;
  std::unique_ptr<TableLookup> MakeLookup() override;
  std::unique_ptr<ProtocolWriter> MakeWriter(ProtocolContext ctx) override;
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
  void Report(TableReport* out, std::vector<sim::Violation>* violations, std::vector<std::string>* run_errors) override;
  // After Report: the orphan files commit user `user` wrote.
  int64_t OrphansOf(const std::string& user);

 private:
  struct Counter {
    int64_t initial = 0;
    std::vector<int64_t> increments;
    std::vector<int64_t> maybe;  // outcome unknown
  };

  // Report's parts.
  void ReportChain(const iceberg::TableMetadata& m, TableReport* out, std::vector<sim::Violation>* violations)
      REQUIRES(mu_);
  std::optional<sim::Violation> CounterViolation(const std::string& key, const Counter& c,
                                                 const Result<std::optional<int64_t>>& value) const;

  const Table& table_;
  std::unique_ptr<iceberg::IcebergCatalog> catalog_;  // in memory
  std::unique_ptr<RealCatalogTable> real_;            // on a real server
  iceberg::InMemoryFileIO io_;
  Mutex mu_;
  std::map<int64_t, int64_t> acknowledged_ GUARDED_BY(mu_);  // snapshot id -> sequence number
  std::set<int64_t> expired_ GUARDED_BY(mu_);
  std::map<std::string, Counter> counters_ GUARDED_BY(mu_);
  std::map<std::string, int64_t> orphans_by_user_ GUARDED_BY(mu_);  // after Report
};

// iceberg_writer.cc
std::unique_ptr<ProtocolWriter> MakeIcebergWriter(ProtocolContext ctx, IcebergTableRun* table);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_TABLE_H_
