// The CLI's catalogs on real servers for scenario tables (commitlab/scenarios/real_catalogs.h):
// rest-server starts a REST catalog server on a loopback port with its warehouse in a temporary
// folder, removed with the run; jdbc opens Iceberg's JDBC catalog in the PostgreSQL database named
// by $COMMITLAB_PG and replaces the table's row (the run owns the table).
#include "catalog/real_catalogs.h"

#include <stdlib.h>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

#include "commitlab/catalogs/jdbc_catalog.h"
#include "commitlab/catalogs/rest_catalog.h"
#include "commitlab/catalogs/rest_catalog_server.h"

namespace commitlab::cli {
namespace {

class RestServerTable final : public scenarios::RealCatalogTable {
 public:
  ~RestServerTable() override {
    catalog_.reset();  // its connection goes before the server
    server_.reset();
    std::error_code ec;
    std::filesystem::remove_all(warehouse_, ec);
  }

  static Result<std::unique_ptr<scenarios::RealCatalogTable>> Open(const std::string& table) {
    auto t = std::unique_ptr<RestServerTable>(new RestServerTable(table));
    char dir[] = "/tmp/commitlab-rest-XXXXXX";
    if (::mkdtemp(dir) == nullptr)
      return Status::IOError(fmt::format("table {}: cannot create a warehouse folder for its REST catalog", table));
    t->warehouse_ = dir;
    Result<std::unique_ptr<catalogs::RestCatalogServer>> server =
        catalogs::RestCatalogServer::Start({.warehouse = t->warehouse_});
    if (!server.ok())
      return Status::InvalidArgument(
          fmt::format("table {}: its REST catalog server cannot start: {}", table, server.status().message()));
    t->server_ = std::move(*server);
    t->catalog_ =
        std::make_unique<catalogs::RestCatalog>(catalogs::RestEndpoint{.port = t->server_->port(), .table = table});
    COMMITLAB_RETURN_IF_ERROR(t->catalog_->CreateTable());
    return std::unique_ptr<scenarios::RealCatalogTable>(std::move(t));
  }

  iceberg::IcebergCatalog* catalog() override { return catalog_.get(); }
  Result<std::unique_ptr<iceberg::IcebergCatalog>> WriterCatalog(const std::string& writer, Env* env) override {
    return std::unique_ptr<iceberg::IcebergCatalog>(std::make_unique<catalogs::RestCatalog>(
        catalogs::RestEndpoint{.port = server_->port(), .table = table_, .writer = writer}, env));
  }

 private:
  explicit RestServerTable(std::string table) : table_(std::move(table)) {}
  const std::string table_;
  std::string warehouse_;
  std::unique_ptr<catalogs::RestCatalogServer> server_;
  std::unique_ptr<catalogs::RestCatalog> catalog_;
};

class JdbcTable final : public scenarios::RealCatalogTable {
 public:
  static Result<std::unique_ptr<scenarios::RealCatalogTable>> Open(const std::string& table) {
    const char* conninfo = std::getenv("COMMITLAB_PG");
    if (conninfo == nullptr || *conninfo == '\0')
      return Status::InvalidArgument(fmt::format(
          "table {}: catalog=jdbc needs a PostgreSQL database: set COMMITLAB_PG to a conninfo or postgres:// URI "
          "(with_postgres, built with the tests, starts a throwaway server and sets it)",
          table));
    auto t = std::unique_ptr<JdbcTable>(new JdbcTable(table, conninfo));
    Result<std::unique_ptr<catalogs::JdbcCatalog>> c =
        catalogs::JdbcCatalog::Open(t->conninfo_, {.name = table}, &t->files_);
    if (!c.ok()) return Status::InvalidArgument(fmt::format("table {}: catalog=jdbc: {}", table, c.status().message()));
    COMMITLAB_RETURN_IF_ERROR((*c)->DropTable());
    COMMITLAB_RETURN_IF_ERROR(
        (*c)->CreateTable(std::make_shared<const iceberg::TableMetadata>(iceberg::NewTableMetadata(table))));
    t->catalog_ = std::move(*c);
    return std::unique_ptr<scenarios::RealCatalogTable>(std::move(t));
  }

  iceberg::IcebergCatalog* catalog() override { return catalog_.get(); }
  Result<std::unique_ptr<iceberg::IcebergCatalog>> WriterCatalog(const std::string& writer, Env* env) override {
    (void)writer;  // the JDBC catalog does not name its clients
    COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<catalogs::JdbcCatalog> c,
                               catalogs::JdbcCatalog::Open(conninfo_, {.name = table_}, &files_, env));
    return std::unique_ptr<iceberg::IcebergCatalog>(std::move(c));
  }

 private:
  JdbcTable(std::string table, std::string conninfo) : table_(std::move(table)), conninfo_(std::move(conninfo)) {}
  const std::string table_;
  const std::string conninfo_;
  catalogs::MetadataFiles files_;  // the run's metadata files, shared by its clients, in memory
  std::unique_ptr<catalogs::JdbcCatalog> catalog_;
};

}  // namespace

void InstallRealCatalogs() {
  scenarios::InstallRealCatalogs(
      [](const std::string& kind, const std::string& table) -> Result<std::unique_ptr<scenarios::RealCatalogTable>> {
        if (kind == "rest-server") return RestServerTable::Open(table);
        if (kind == "jdbc") return JdbcTable::Open(table);
        return Status::InvalidArgument(fmt::format("table {}: catalog={} is not on a real server", table, kind));
      });
}

}  // namespace commitlab::cli
