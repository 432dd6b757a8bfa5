#include "commitlab/catalogs/pg_connection.h"

#include <fmt/format.h>

#include <charconv>
#include <libpq-fe.h>
#include <string_view>

namespace commitlab::catalogs {
namespace {

// libpq's messages end in a newline.
std::string Trimmed(const char* message) {
  std::string s = message == nullptr ? "" : message;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

Result<std::unique_ptr<PgConnection>> PgConnection::Connect(const std::string& conninfo) {
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr) return Status::InvalidArgument("libpq could not allocate a connection");
  if (PQstatus(conn) != CONNECTION_OK) {
    // Not the conninfo itself: it may hold a password. libpq's reason names the host or socket.
    Status st = Status::InvalidArgument(fmt::format("cannot connect to PostgreSQL: {}", Trimmed(PQerrorMessage(conn))));
    PQfinish(conn);
    return st;
  }
  // The server's NOTICEs ("relation ... already exists, skipping") are not for our output.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  return std::unique_ptr<PgConnection>(new PgConnection(conn));
}

PgConnection::~PgConnection() { PQfinish(conn_); }

bool IsUniqueViolation(const Status& st) {
  return st.code() == Code::kConflict && st.message().find("[23505]") != std::string::npos;
}

void PgConnection::Drop() { PQreset(conn_); }

Status PgConnection::CreateIfMissing(std::string_view create_sql) {
  Result<PgRows> made = Exec(create_sql);
  if (!made.ok() && IsUniqueViolation(made.status())) made = Exec(create_sql);
  return made.status();
}

Result<PgRows> PgConnection::Exec(std::string_view sql, const std::vector<std::string>& params) {
  // A connection that broke earlier (a server restart, a dropped link) is opened again first.
  if (PQstatus(conn_) != CONNECTION_OK) PQreset(conn_);
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const std::string& p : params) values.push_back(p.c_str());
  const std::string text(sql);
  PGresult* res =
      PQexecParams(conn_, text.c_str(), static_cast<int>(params.size()), nullptr, values.data(), nullptr, nullptr, 0);
  const ExecStatusType status = res == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(res);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    // A dead connection is the unknown case: the statement may have run before the link broke.
    // libpq may still call the connection OK right after the server went away, so the SQLSTATE
    // decides: none (the client gave up on the link), class 08 (connection exception) or 57P
    // (the server shutting down or crashing).
    const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
    const std::string sqlstate = state != nullptr ? state : "";  // a copy: PQclear frees `state`
    const bool lost = PQstatus(conn_) != CONNECTION_OK || sqlstate.empty() || sqlstate.starts_with("08") ||
                      sqlstate.starts_with("57P");
    const std::string why = Trimmed(res != nullptr ? PQresultErrorMessage(res) : PQerrorMessage(conn_));
    PQclear(res);
    if (lost) return Status::IOError(fmt::format("PostgreSQL connection lost: {}", why));
    return Status::Conflict(fmt::format("PostgreSQL refused the statement [{}]: {}", sqlstate, why));
  }
  PgRows out;
  const char* affected = PQcmdTuples(res);
  if (affected != nullptr && *affected != '\0') {
    std::from_chars(affected, affected + std::char_traits<char>::length(affected), out.affected);
  }
  const int rows = PQntuples(res), cols = PQnfields(res);
  out.rows.reserve(static_cast<size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    std::vector<std::optional<std::string>>& row = out.rows.emplace_back();
    for (int c = 0; c < cols; ++c) {
      if (PQgetisnull(res, r, c)) {
        row.emplace_back(std::nullopt);
      } else {
        row.emplace_back(std::string(PQgetvalue(res, r, c), static_cast<size_t>(PQgetlength(res, r, c))));
      }
    }
  }
  PQclear(res);
  return out;
}

}  // namespace commitlab::catalogs
