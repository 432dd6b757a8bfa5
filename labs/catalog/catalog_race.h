// `commitlab catalog race`: N Iceberg writers (catalog_writer.h) through one catalog, then the
// table read back and judged. Through the in-memory catalog the writers are threads; through a
// catalog on a real server (a REST server, which the race starts on a loopback port unless given
// one, or PostgreSQL's JDBC catalog) each writer is its own `commitlab catalog writer` process,
// the data files and metadata in a shared warehouse folder.
#ifndef COMMITLAB_LABS_CATALOG_RACE_H_
#define COMMITLAB_LABS_CATALOG_RACE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_writer.h"
#include "commitlab/catalogs/jdbc_catalog.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/file_io.h"

namespace commitlab::cli {

enum class CatalogKind { kMemory, kRest, kJdbc };
std::string_view CatalogKindName(CatalogKind k);  // "memory", "rest", "jdbc"

// --catalog: "memory", "rest" (a server this race starts), "rest://HOST:PORT", or PostgreSQL as a
// postgres:// URI or a libpq conninfo ("host=/tmp dbname=x"). InvalidArgument naming the value.
struct CatalogSpec {
  CatalogKind kind = CatalogKind::kMemory;
  std::string uri = {};  // rest://HOST:PORT or the conninfo; "" for memory and a server to start
};
Result<CatalogSpec> ParseCatalogSpec(std::string_view s);

// A writer's catalog and file IO on a shared warehouse (rest:// or PostgreSQL).
struct SharedTable {
  std::unique_ptr<catalogs::MetadataFiles> metadata_files;  // JDBC only
  std::unique_ptr<iceberg::IcebergCatalog> catalog;
  std::unique_ptr<iceberg::FileIO> io;
};
// The table `table` of namespace db in `warehouse`: <warehouse>/db/<table>/files holds the data
// files (DirFileIO), and for JDBC <warehouse>/db/<table>/metadata the metadata files. `env` (may be
// null) is asked at the JDBC catalog's fault points. REQUIRES: spec.uri is set.
Result<SharedTable> OpenSharedTable(const CatalogSpec& spec, const std::string& warehouse, const std::string& table,
                                    const std::string& writer, Env* env);

struct CatalogRaceOptions {
  CatalogSpec catalog = {};
  std::string warehouse = {};  // required but for memory
  std::string table = "tbl";
  int writers = 2;
  int64_t commits = 10;
  CatalogWorkload workload = CatalogWorkload::kAppend;
  std::string policy = "iceberg";  // a retry policy spec, passed on to the writers
  scenarios::OnValidationFailure on_validation = scenarios::OnValidationFailure::kGiveUp;
  // WRITER:POINT:TRIGGER:EFFECT rules at catalog.before / catalog.after: applied by the REST server
  // the race starts, or by each JDBC writer's client.
  std::vector<std::string> faults = {};
  uint64_t seed = 1;
  std::string binary = {};  // the commitlab binary the writer processes run
  int64_t timeout_micros = int64_t{300} * 1'000'000;
};

struct CatalogRaceReport {
  std::string catalog = {};  // what ran: "memory (threads)", "rest://127.0.0.1:4711 (processes)", ...
  std::vector<CatalogWriterResult> writers = {};
  int64_t acknowledged = 0;
  int64_t version = 0;
  int64_t snapshots = 0;
  int64_t live_files = 0;
  // Acknowledged appends the table does not hold, and paths it holds more than once.
  std::vector<std::string> missing = {};
  std::vector<std::string> duplicates = {};
  int64_t orphans = 0;  // files no retained snapshot reaches
  std::optional<int64_t> counter = {};
  std::optional<std::string> lost_update = {};  // scenarios::CheckCounter's finding
  std::vector<std::string> fired_faults = {};
  double wall_seconds = 0;
  bool violated() const { return !missing.empty() || !duplicates.empty() || lost_update.has_value(); }
  // Writers that stopped for a reason of their own rather than the race's: not a lost race given
  // up on (CommitFailedException), not a refused validation, not an unknown outcome, but, say, a
  // data file that could not be written on a full disk: "job-A: <why>". Also one entry when no
  // writer acknowledged anything and none was left unknown. Either makes the race exit 1.
  std::vector<std::string> failed_writers = {};
};

// InvalidArgument for options that cannot run (a fault on the memory catalog, a table that
// exists already); IOError when a server cannot be reached or a writer process cannot start.
Result<CatalogRaceReport> RunCatalogRace(const CatalogRaceOptions& options);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_CATALOG_RACE_H_
