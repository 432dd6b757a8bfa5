#include "commitlab/catalogs/rest_catalog.h"

#include <fcntl.h>
#include <sys/socket.h>

#include <boost/asio.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <optional>
#include <set>
#include <utility>

#include "beast_http.h"
#include "commitlab/core/iceberg/metadata_json.h"

namespace commitlab::catalogs {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using nlohmann::json;

namespace {

constexpr uint64_t kMaxAnswerBytes = uint64_t{256} << 20;

// The ErrorModel's message, or the body itself when it is not one.
std::string ErrorMessage(const std::string& body) {
  const json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_object() && j.contains("error") && j["error"].is_object() && j["error"].contains("message") &&
      j["error"]["message"].is_string())
    return j["error"]["message"];
  // Not an ErrorModel: the start of the body, as valid UTF-8.
  return json(body.substr(0, 200)).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

Result<RestEndpoint> ParseRestUri(std::string_view uri) {
  std::string_view rest = uri;
  for (std::string_view scheme : {"rest://", "http://"})
    if (rest.substr(0, scheme.size()) == scheme) rest.remove_prefix(scheme.size());
  if (rest.size() == uri.size())
    return Status::InvalidArgument(fmt::format("catalog \"{}\": expected rest://HOST:PORT", uri));
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  const size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || rest.find('/') != std::string_view::npos)
    return Status::InvalidArgument(fmt::format("catalog \"{}\": expected rest://HOST:PORT", uri));
  RestEndpoint e;
  e.host = std::string(rest.substr(0, colon));
  const std::string_view port = rest.substr(colon + 1);
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535)
    return Status::InvalidArgument(fmt::format("catalog \"{}\": the port must be 1..65535", uri));
  e.port = static_cast<uint16_t>(value);
  return e;
}

// One kept-alive connection; every operation bounded by the endpoint's timeout.
class RestCatalog::Connection {
 public:
  // Answers are read 64 KiB at a time (a flat_buffer grows by 512 bytes otherwise: a table's
  // metadata took hundreds of reads).
  explicit Connection(const RestEndpoint& e) : endpoint_(e), stream_(io_) { buffer_.reserve(64 << 10); }

  // Whether the connection is open and the server has not closed its end (an idle timeout): a
  // peek that would block finds it quiet and open; end of file or an error, closed.
  bool Usable() {
    if (!stream_.socket().is_open()) return false;
    char byte = 0;
    const ssize_t n = ::recv(stream_.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }

  Status Connect() {
    Close();
    boost::system::error_code ec;
    const asio::ip::address address = asio::ip::make_address(endpoint_.host, ec);
    if (ec) return Status::InvalidArgument(fmt::format("catalog host {}: not an IP address", endpoint_.host));
    ec = Run([&](auto done) { stream_.async_connect(tcp::endpoint(address, endpoint_.port), done); });
    if (ec)
      return Status::IOError(fmt::format("cannot connect to {}:{}: {}", endpoint_.host, endpoint_.port, ec.message()));
    // Asio opens sockets without SOCK_CLOEXEC: a process started from here must not hold the connection.
    ::fcntl(stream_.socket().native_handle(), F_SETFD, FD_CLOEXEC);
    // No Nagle: a request's body must not wait for the acknowledgement of its header.
    stream_.socket().set_option(tcp::no_delay(true), ec);
    return Status::OK();
  }

  boost::system::error_code Write(http::request<http::string_body>& req) {
    return Run([&](auto done) { http::async_write(stream_, req, [done](beast::error_code ec, size_t) { done(ec); }); });
  }

  boost::system::error_code Read(http::response<http::string_body>* res) {
    http::response_parser<http::string_body> parser;
    parser.body_limit(kMaxAnswerBytes);
    const boost::system::error_code ec = Run([&](auto done) {
      http::async_read(stream_, buffer_, parser, [done](beast::error_code e, size_t) { done(e); });
    });
    if (!ec) *res = parser.release();
    return ec;
  }

  void Close() {
    boost::system::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
    buffer_.clear();
  }

 private:
  // Starts one asynchronous operation under the timeout and runs it to its end.
  template <typename Start>
  boost::system::error_code Run(Start start) {
    boost::system::error_code result = asio::error::timed_out;
    stream_.expires_after(std::chrono::microseconds(endpoint_.timeout_micros));
    start([&result](boost::system::error_code ec) { result = ec; });
    io_.restart();
    io_.run();
    return result;
  }

  const RestEndpoint endpoint_;
  asio::io_context io_{1};
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
};

RestCatalog::RestCatalog(RestEndpoint endpoint, Env* env)
    : endpoint_(std::move(endpoint)),
      qualified_(endpoint_.ns + "." + endpoint_.table),
      env_(env),
      conn_(std::make_unique<Connection>(endpoint_)) {}

RestCatalog::~RestCatalog() = default;

Result<RestCatalog::Reply> RestCatalog::Send(std::string_view method, const std::string& target,
                                             const std::string& body, bool* sent, const std::string& if_none_match) {
  *sent = false;
  if (!conn_->Usable()) COMMITLAB_RETURN_IF_ERROR(conn_->Connect());
  http::request<http::string_body> req{http::string_to_verb(beast::string_view(method.data(), method.size())), target,
                                       11};
  req.set(http::field::host, fmt::format("{}:{}", endpoint_.host, endpoint_.port));
  req.set(http::field::content_type, "application/json");
  if (!endpoint_.writer.empty()) req.set("X-Commitlab-Writer", endpoint_.writer);
  if (!if_none_match.empty()) req.set(http::field::if_none_match, if_none_match);
  req.keep_alive(true);
  req.body() = body;
  req.prepare_payload();
  *sent = true;  // from here the server may have it, whatever happens next
  if (boost::system::error_code ec = conn_->Write(req)) {
    conn_->Close();
    return Status::IOError(fmt::format("{} {}: the request failed: {}", method, target, ec.message()));
  }
  http::response<http::string_body> res;
  if (boost::system::error_code ec = conn_->Read(&res)) {
    conn_->Close();
    return Status::IOError(fmt::format("{} {}: no answer: {}", method, target, ec.message()));
  }
  if (!res.keep_alive()) conn_->Close();
  ++requests_;
  bytes_ += static_cast<int64_t>(req.body().size() + res.body().size());
  const auto etag = res.find(http::field::etag);
  return Reply{static_cast<int>(res.result_int()), std::move(res.body()),
               etag == res.end() ? "" : std::string(etag->value())};
}

Result<iceberg::MetadataRef> RestCatalog::ReadLoadResult(const std::string& body, const std::string& where,
                                                         const std::string& etag) {
  // The last version read lends the snapshots it has: each load rebuilds only the new ones.
  COMMITLAB_ASSIGN_OR_RETURN(iceberg::MetadataRef m,
                             iceberg::DecodeLoadResult(body, where, qualified_, last_.get(), &read_));
  uuid_ = m->Fields().uuid;
  last_ = m;
  etag_ = etag;
  return m;
}

Status RestCatalog::CheckEndpoints(const std::vector<std::string>& needed) {
  if (!served_) {
    bool sent = false;
    COMMITLAB_ASSIGN_OR_RETURN(Reply r, Send("GET", "/v1/config", "", &sent));
    if (r.status != 200) return Status::IOError(fmt::format("GET /v1/config: {}: {}", r.status, ErrorMessage(r.body)));
    const json j = json::parse(r.body, nullptr, /*allow_exceptions=*/false);
    served_.emplace();
    // Without "endpoints" a server serves the specification's default set, which has these.
    if (j.is_object() && j.contains("endpoints") && j["endpoints"].is_array()) {
      for (const json& e : j["endpoints"])
        if (e.is_string()) served_->insert(e.get<std::string>());
    } else {
      served_->insert(needed.begin(), needed.end());
    }
  }
  for (const std::string& e : needed)
    if (served_->count(e) == 0 && served_->count("*") == 0)
      return Status::InvalidArgument(
          fmt::format("the catalog at {}:{} does not serve {} (its /v1/config lists {} endpoint(s))", endpoint_.host,
                      endpoint_.port, e, served_->size()));
  return Status::OK();
}

Status RestCatalog::CreateTable() {
  MutexLock l(&mu_);
  COMMITLAB_RETURN_IF_ERROR(
      CheckEndpoints({"POST /v1/{prefix}/namespaces", "POST /v1/{prefix}/namespaces/{namespace}/tables"}));
  bool sent = false;
  // The namespace first: there already is fine (409 AlreadyExistsException).
  COMMITLAB_ASSIGN_OR_RETURN(
      Reply ns, Send("POST", "/v1/namespaces", json({{"namespace", json::array({endpoint_.ns})}}).dump(), &sent));
  if (ns.status != 200 && ns.status != 409)
    return Status::IOError(fmt::format("create namespace {}: {}: {}", endpoint_.ns, ns.status, ErrorMessage(ns.body)));
  // commitlab's tables have a schema without columns: their rows are the engine's, not typed.
  const json body = {{"name", endpoint_.table},
                     {"schema", {{"type", "struct"}, {"schema-id", 0}, {"fields", json::array()}}}};
  COMMITLAB_ASSIGN_OR_RETURN(Reply r,
                             Send("POST", fmt::format("/v1/namespaces/{}/tables", endpoint_.ns), body.dump(), &sent));
  if (r.status == 409) return Status::Conflict(ErrorMessage(r.body));
  if (r.status != 200)
    return Status::IOError(fmt::format("create table {}: {}: {}", qualified_, r.status, ErrorMessage(r.body)));
  return ReadLoadResult(r.body, "createTable", r.etag).status();
}

Result<iceberg::MetadataRef> RestCatalog::Current() {
  MutexLock l(&mu_);
  return Load();
}

Result<iceberg::MetadataRef> RestCatalog::Load() {
  COMMITLAB_RETURN_IF_ERROR(CheckEndpoints({"GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                                            "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}"}));
  bool sent = false;
  const std::string target = fmt::format("/v1/namespaces/{}/tables/{}", endpoint_.ns, endpoint_.table);
  // The version this client read last, unless the table moved since (304 Not Modified).
  Result<Reply> r = Send("GET", target, "", &sent, last_ != nullptr ? etag_ : "");
  if (!r.ok()) return r.status();
  if (r->status == 304 && last_ != nullptr) return last_;
  if (r->status == 404) return Status::NotFound(ErrorMessage(r->body));
  if (r->status != 200)
    return Status::IOError(fmt::format("load table {}: {}: {}", qualified_, r->status, ErrorMessage(r->body)));
  return ReadLoadResult(r->body, "loadTable " + qualified_, r->etag);
}

iceberg::CasResult RestCatalog::CompareAndSwap(int64_t, iceberg::MetadataRef) {
  return {iceberg::CasOutcome::kUnknown, "a REST catalog takes commits as requirements and updates, not a swap"};
}

iceberg::CasResult RestCatalog::Commit(const iceberg::TableMetadata& base, iceberg::MetadataRef next) {
  using iceberg::CasOutcome;
  if (next == nullptr) return {CasOutcome::kUnknown, fmt::format("Invalid metadata for table {}", qualified_)};
  MutexLock l(&mu_);
  if (uuid_.empty()) {
    // The uuid comes with a load; a commit before any is built on a base loaded elsewhere.
    Result<iceberg::MetadataRef> loaded = Load();
    if (!loaded.ok())
      return {CasOutcome::kUnknown,
              fmt::format("cannot load {} (the commit was never sent): {}", qualified_, loaded.status().message())};
  }
  json requirements =
      json::array({{{"type", "assert-table-uuid"}, {"uuid", base.Fields().uuid.empty() ? uuid_ : base.Fields().uuid}}});
  json updates = json::array();
  const bool moves_main = next->current_snapshot_id != base.current_snapshot_id;
  const bool sets_schema = next->current_schema_id != base.current_schema_id;
  if (moves_main) {
    requirements.push_back(
        {{"type", "assert-ref-snapshot-id"},
         {"ref", "main"},
         {"snapshot-id", base.current_snapshot_id ? json(*base.current_snapshot_id) : json(nullptr)}});
  }
  if (sets_schema)
    requirements.push_back({{"type", "assert-current-schema-id"}, {"current-schema-id", base.current_schema_id}});
  std::set<int64_t> in_base;  // not FindSnapshot for each: snapshots x snapshots
  for (const iceberg::SnapshotRef& s : base.snapshots) in_base.insert(s->snapshot_id);
  for (const iceberg::SnapshotRef& s : next->snapshots)
    if (in_base.count(s->snapshot_id) == 0)
      updates.push_back(
          {{"action", "add-snapshot"}, {"snapshot", json::parse(iceberg::EncodeSnapshot(*s, base.Fields().location))}});
  if (moves_main && next->current_snapshot_id)
    updates.push_back({{"action", "set-snapshot-ref"},
                       {"ref-name", "main"},
                       {"type", "branch"},
                       {"snapshot-id", *next->current_snapshot_id}});
  if (sets_schema) updates.push_back({{"action", "set-current-schema"}, {"schema-id", next->current_schema_id}});
  std::set<int64_t> kept;
  for (const iceberg::SnapshotRef& s : next->snapshots) kept.insert(s->snapshot_id);
  json removed = json::array();
  for (const iceberg::SnapshotRef& s : base.snapshots)
    if (kept.count(s->snapshot_id) == 0) removed.push_back(s->snapshot_id);
  if (!removed.empty()) updates.push_back({{"action", "remove-snapshots"}, {"snapshot-ids", removed}});

  const std::string target = fmt::format("/v1/namespaces/{}/tables/{}", endpoint_.ns, endpoint_.table);
  if (env_ != nullptr) {
    if (Status st = env_->FaultPoint(fault::kCatalogBefore); !st.ok())
      return {CasOutcome::kUnknown, fmt::format("Service failed: 503: {} (the commit was never sent)", st.message())};
  }
  bool sent = false;
  Result<Reply> r = Send("POST", target, json({{"requirements", requirements}, {"updates", updates}}).dump(), &sent);
  if (!r.ok()) {
    return {CasOutcome::kUnknown,
            sent ? r.status().message() : fmt::format("{} (the commit was never sent)", r.status().message())};
  }
  if (r->status == 200) {
    if (env_ != nullptr) {
      if (Status st = env_->FaultPoint(fault::kCatalogAfter); !st.ok()) {
        conn_->Close();
        return {CasOutcome::kUnknown,
                fmt::format("POST {}: no answer: {} (the server applied the commit)", target, st.message())};
      }
    }
    Result<iceberg::MetadataRef> now = ReadLoadResult(r->body, "updateTable " + qualified_, r->etag);
    if (!now.ok()) return {CasOutcome::kUnknown, now.status().message()};
    return {CasOutcome::kSwapped, "", *now};
  }
  if (r->status == 409) return {CasOutcome::kLost, ErrorMessage(r->body)};
  // 500, 502, 503, 504: CommitStateUnknownException "Service failed: <code>: <msg>".
  return {CasOutcome::kUnknown, fmt::format("Service failed: {}: {}", r->status, ErrorMessage(r->body))};
}

}  // namespace commitlab::catalogs
