#include "commitlab/catalogs/jdbc_catalog.h"

#include <fmt/format.h>

#include <filesystem>
#include <utility>

#include "commitlab/catalogs/rest_tables.h"
#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"
#include "commitlab/core/iceberg/metadata_json.h"

namespace commitlab::catalogs {
namespace {

// JdbcUtil.CREATE_CATALOG_TABLE (V0: without iceberg_type).
constexpr std::string_view kCreateTable =
    "CREATE TABLE IF NOT EXISTS iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT "
    "NULL, table_name VARCHAR(255) NOT NULL, metadata_location VARCHAR(1000), previous_metadata_location "
    "VARCHAR(1000), PRIMARY KEY (catalog_name, table_namespace, table_name))";
// JdbcUtil.DO_COMMIT_SQL.
constexpr std::string_view kDoCommit =
    "UPDATE iceberg_tables SET metadata_location = $1, previous_metadata_location = $2 WHERE catalog_name = $3 AND "
    "table_namespace = $4 AND table_name = $5 AND metadata_location = $2";
constexpr std::string_view kGetLocation =
    "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = $1 AND table_namespace = $2 AND table_name = $3";
constexpr std::string_view kInsert =
    "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
    "previous_metadata_location) VALUES ($1, $2, $3, $4, NULL)";

// JdbcUtil.DROP_TABLE_SQL.
constexpr std::string_view kDropTable =
    "DELETE FROM iceberg_tables WHERE catalog_name = $1 AND table_namespace = $2 AND table_name = $3";
constexpr size_t kMaxMetadataBytes = size_t{256} << 20;

}  // namespace

std::string MetadataFiles::AbsoluteFolder(const std::string& folder) {
  std::error_code ec;
  std::string abs = std::filesystem::absolute(folder, ec).lexically_normal().string();
  while (abs.size() > 1 && abs.back() == '/') abs.pop_back();
  return ec ? folder : abs;
}

std::string MetadataFiles::Absolute(const std::string& location) const {
  if (root_.empty() || location.starts_with('/')) return location;
  return root_ + "/" + location;
}

std::string MetadataFiles::Relative(const std::string& location) const {
  if (root_.empty() || !location.starts_with(root_ + "/")) return location;
  return location.substr(root_.size() + 1);
}

Status MetadataFiles::Put(const iceberg::MetadataRef& m) {
  if (!folder_.empty()) {
    const std::string path = folder_ + "/" + m->location;
    std::error_code ec;
    std::filesystem::create_directories(FolderOf(path), ec);
    if (ec) return Status::IOError(fmt::format("cannot create the folder of {}: {}", path, ec.message()));
    std::string text;
    {
      MutexLock l(&encode_mu_);
      text = iceberg::EncodeMetadata(*m, &texts_);
    }
    COMMITLAB_RETURN_IF_ERROR(WriteFileAtomically(path, text));
  }
  MutexLock l(&mu_);
  files_[m->location] = m;
  return Status::OK();
}

Result<iceberg::MetadataRef> MetadataFiles::Get(const std::string& absolute_or_relative, const std::string& table) {
  const std::string location = Relative(absolute_or_relative);
  {
    MutexLock l(&mu_);
    auto it = files_.find(location);
    if (it != files_.end()) return it->second;
  }
  if (folder_.empty() || location.find("..") != std::string::npos || location.starts_with('/'))
    return Status::NotFound(fmt::format("File does not exist: {}", absolute_or_relative));
  const std::string path = folder_ + "/" + location;
  Result<std::string> text = ReadRegularFile(path, kMaxMetadataBytes);
  if (!text.ok())
    return text.status().code() == Code::kNotFound ? Status::NotFound(fmt::format("File does not exist: {}", path))
                                                   : text.status();
  iceberg::MetadataRef newest;  // the newest version held, which lends its snapshots
  {
    MutexLock l(&mu_);
    newest = newest_;
  }
  COMMITLAB_ASSIGN_OR_RETURN(
      iceberg::MetadataRef m,
      iceberg::DecodeMetadata(*text, path, {.location = location, .table_name = table}, newest.get()));
  MutexLock l(&mu_);
  files_[location] = m;
  if (newest_ == nullptr || m->version > newest_->version) newest_ = m;
  return m;
}

Result<std::unique_ptr<JdbcCatalog>> JdbcCatalog::Open(const std::string& conninfo, JdbcTable table,
                                                       MetadataFiles* files, Env* env) {
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> conn, PgConnection::Connect(conninfo));
  if (Status st = conn->CreateIfMissing(kCreateTable); !st.ok()) return st;
  return std::unique_ptr<JdbcCatalog>(new JdbcCatalog(std::move(conn), std::move(table), files, env));
}

Status JdbcCatalog::CreateTable(const iceberg::MetadataRef& initial) {
  // A table of the format: a random uuid, and its files' folder as its location.
  iceberg::MetadataRef table = initial;
  if (initial->Fields().uuid.empty() || initial->Fields().location.empty()) {
    auto m = std::make_shared<iceberg::TableMetadata>(*initial);
    auto f = std::make_shared<iceberg::TableFields>(initial->Fields());
    if (f->uuid.empty()) f->uuid = NewTableUuid();
    if (f->location.empty()) f->location = files_->root();
    m->fields = std::move(f);
    table = std::move(m);
  }
  COMMITLAB_RETURN_IF_ERROR(files_->Put(table));
  MutexLock l(&mu_);
  // metadata_location is absolute, as JdbcTableOperations writes it.
  Result<PgRows> r = conn_->Exec(kInsert, {table_.catalog, table_.ns, table_.name, files_->Absolute(table->location)});
  if (!r.ok() && IsUniqueViolation(r.status()))
    return Status::Conflict(fmt::format("Table already exists: {}", qualified_));
  if (!r.ok()) return r.status();
  if (r->affected != 1)
    return Status::IOError(fmt::format("Failed to create table {} in catalog {}", qualified_, table_.catalog));
  return Status::OK();
}

Status JdbcCatalog::DropTable() {
  MutexLock l(&mu_);
  return conn_->Exec(kDropTable, {table_.catalog, table_.ns, table_.name}).status();
}

Result<std::string> JdbcCatalog::Location() {
  COMMITLAB_ASSIGN_OR_RETURN(PgRows r, conn_->Exec(kGetLocation, {table_.catalog, table_.ns, table_.name}));
  if (r.rows.empty() || !r.rows[0][0])
    return Status::NotFound(fmt::format("Table does not exist: {} in catalog {}", qualified_, table_.catalog));
  return *r.rows[0][0];
}

Result<iceberg::MetadataRef> JdbcCatalog::Current() {
  Result<std::string> location = [this] {
    MutexLock l(&mu_);
    return Location();
  }();
  if (!location.ok()) return location.status();
  return files_->Get(*location, qualified_);
}

iceberg::CasResult JdbcCatalog::CompareAndSwap(int64_t expected_version, iceberg::MetadataRef new_metadata) {
  using iceberg::CasOutcome;
  if (new_metadata == nullptr || new_metadata->version != expected_version + 1 || new_metadata->metadata_log.empty()) {
    return {CasOutcome::kUnknown,
            fmt::format("Invalid metadata for version {} of table {}", expected_version + 1, qualified_)};
  }
  // The new metadata logs the file it was built from: the location the writer read.
  const std::string& old_location = new_metadata->metadata_log.back();
  // The metadata JSON is written before the swap (doCommit step 1); when it cannot be, the swap is
  // never tried, and the writer is not told it may retry (a RuntimeIOException upstream).
  if (Status st = files_->Put(new_metadata); !st.ok())
    return {CasOutcome::kUnknown, fmt::format("{} (the swap was not tried)", st.message())};
  MutexLock l(&mu_);
  if (env_ != nullptr) {
    if (Status st = env_->FaultPoint(fault::kCatalogBefore); !st.ok()) {
      conn_->Drop();
      return {CasOutcome::kUnknown,
              fmt::format("PostgreSQL connection lost before the statement was sent ({})", st.message())};
    }
  }
  // The UPDATE's WHERE is the check that the row still names the metadata the writer read: no
  // SELECT before it (the writer's refresh read the row already).
  Result<PgRows> r = conn_->Exec(kDoCommit, {files_->Absolute(new_metadata->location), files_->Absolute(old_location),
                                             table_.catalog, table_.ns, table_.name});
  if (!r.ok()) return {CasOutcome::kUnknown, r.status().message()};
  if (r->affected != 1)
    return {CasOutcome::kLost, fmt::format("Failed to update table {} from catalog {}", qualified_, table_.catalog)};
  if (env_ != nullptr) {
    if (Status st = env_->FaultPoint(fault::kCatalogAfter); !st.ok()) {
      conn_->Drop();
      return {CasOutcome::kUnknown,
              fmt::format("PostgreSQL connection lost before the answer to the statement ({})", st.message())};
    }
  }
  return {CasOutcome::kSwapped, ""};
}

}  // namespace commitlab::catalogs
