#include "commitlab/catalogs/rest_catalog_server.h"

#include <fcntl.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "commitlab/core/env.h"

namespace commitlab::catalogs {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr uint64_t kMaxBodyBytes = uint64_t{64} << 20;

// The parts of a target after /v1/namespaces/: {ns} or {ns, tables} or {ns, tables, table}.
std::vector<std::string> Segments(beast::string_view t) {
  std::string_view target(t.data(), t.size());
  std::vector<std::string> out;
  if (const size_t q = target.find('?'); q != std::string_view::npos) target = target.substr(0, q);
  size_t start = 0;
  while (start <= target.size()) {
    const size_t end = std::min(target.find('/', start), target.size());
    if (end > start) out.emplace_back(target.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

class RestCatalogServer::Impl {
 public:
  Impl(RestCatalogServer* owner, RestServerOptions options, std::unique_ptr<RestTables> tables)
      : owner_(owner), options_(std::move(options)), tables_(std::move(tables)), acceptor_(io_) {}

  Status Listen() {
    boost::system::error_code ec;
    const asio::ip::address address = asio::ip::make_address(options_.address, ec);
    if (ec || !address.is_loopback())
      return Status::InvalidArgument(fmt::format(
          "--address {}: the catalog listens on a loopback address only (127.0.0.1 or ::1)", options_.address));
    const tcp::endpoint endpoint(address, options_.port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    // Asio opens sockets without SOCK_CLOEXEC: a process started from here must not hold the port.
    if (!ec) ::fcntl(acceptor_.native_handle(), F_SETFD, FD_CLOEXEC);
    if (ec)
      return Status::IOError(fmt::format("cannot listen on {}:{}: {}", options_.address, options_.port, ec.message()));
    port_ = acceptor_.local_endpoint().port();
    Accept();
    return Status::OK();
  }

  uint16_t port() const { return port_; }
  void Run() { io_.run(); }
  void Stop() {
    asio::post(io_, [this] {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
      io_.stop();
    });
  }

 private:
  class Session;

  void Accept();

  RestFaultDecision Fault(std::string_view writer, std::string_view point) {
    if (!options_.faults) return {};
    RestFaultDecision d = options_.faults(writer, point);
    if (d.status.code() == Code::kCrashed) {
      // A crash of the server process: no destructor, no flush, as kill -9 would leave it.
      std::_Exit(137);
    }
    return d;
  }

  // The table a commit request names, in *ns and *table; false for any other request.
  static bool IsCommit(const http::request<http::string_body>& req, std::string* ns, std::string* table) {
    const std::vector<std::string> parts = Segments(req.target());
    if (req.method() != http::verb::post || parts.size() != 5 || parts[0] != "v1" || parts[1] != "namespaces" ||
        parts[3] != "tables")
      return false;
    *ns = parts[2];
    *table = parts[4];
    return true;
  }

  // Every request but a commit.
  RestReply Route(const http::request<http::string_body>& req) {
    const std::vector<std::string> parts = Segments(req.target());
    const bool get = req.method() == http::verb::get;
    const bool post = req.method() == http::verb::post;
    if (parts.size() == 2 && parts[0] == "v1" && parts[1] == "config" && get)
      return {200, R"({"defaults":{},"overrides":{}})"};
    if (parts.size() >= 4 && parts[0] == "v1" && parts[1] == "namespaces" && parts[3] == "tables") {
      if (parts.size() == 4 && post) return tables_->Create(parts[2], req.body());
      if (parts.size() == 5 && get) return tables_->Load(parts[2], parts[4]);
    }
    return RestError(404, "NoSuchRouteException",
                     fmt::format("{} {} is not a route of this catalog", std::string(req.method_string()),
                                 std::string(req.target())));
  }

  RestReply Commit(const std::string& ns, const std::string& table, const std::string& body) {
    RestReply reply = tables_->Commit(ns, table, body);
    if (reply.status == 200) owner_->commits_.fetch_add(1);
    return reply;
  }

  RestCatalogServer* const owner_;
  const RestServerOptions options_;
  const std::unique_ptr<RestTables> tables_;
  asio::io_context io_{1};
  tcp::acceptor acceptor_;
  uint16_t port_ = 0;
};

// One connection: read a request, answer it, and again while the client keeps it alive.
class RestCatalogServer::Impl::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Impl* server, tcp::socket socket)
      : server_(server), stream_(std::move(socket)), timer_(stream_.get_executor()) {}

  void Read() {
    parser_.emplace();
    parser_->body_limit(kMaxBodyBytes);
    stream_.expires_after(std::chrono::microseconds(server_->options_.idle_timeout_micros));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

 private:
  void OnRead(beast::error_code ec) {
    if (ec == http::error::body_limit) return Refuse(413, "the request body is larger than this catalog takes");
    if (ec && ec.category() == beast::error_code(http::error::bad_target).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message)
      return Refuse(400, fmt::format("not an HTTP request: {}", ec.message()));
    if (ec) return Close();  // the client closed or timed out
    request_ = parser_->release();
    Guarded([this] { Serve(); });
  }

  // Runs `step` of serving a request; an exception (a bug, not the client's) answers 500 and the
  // server goes on.
  void Guarded(const std::function<void()>& step) {
    try {
      step();
    } catch (const std::exception& e) {
      Answer(RestError(500, "ServiceFailureException", e.what()), false);
    }
  }

  // Answers a request that could not be read, and closes.
  void Refuse(int status, std::string_view message) {
    request_ = {};
    request_.version(11);
    request_.keep_alive(false);
    Answer(RestError(status, "BadRequestException", message), false);
  }

  void Serve() {
    server_->owner_->requests_.fetch_add(1);
    std::string ns, table;
    if (!Impl::IsCommit(request_, &ns, &table)) return Answer(server_->Route(request_), false);
    const auto header = request_.find("X-Commitlab-Writer");
    writer_ = header == request_.end() ? "" : std::string(header->value());
    const RestFaultDecision before = server_->Fault(writer_, fault::kCatalogBefore);
    After(before.delay_micros,
          [self = shared_from_this(), before, ns, table] { self->Guarded([&] { self->Apply(before, ns, table); }); });
  }

  // The commit, once catalog.before has let it through.
  void Apply(const RestFaultDecision& before, const std::string& ns, const std::string& table) {
    if (!before.status.ok()) {
      return Answer(RestError(503, "ServiceUnavailableException",
                              fmt::format("{} (nothing was applied)", before.status.message())),
                    false);
    }
    RestReply reply = server_->Commit(ns, table, request_.body());
    // catalog.after is the point past an applied commit, as the JDBC catalog's is past its swap.
    const RestFaultDecision after =
        reply.status == 200 ? server_->Fault(writer_, fault::kCatalogAfter) : RestFaultDecision{};
    After(after.delay_micros, [self = shared_from_this(), reply = std::move(reply),
                               drop = !after.status.ok()]() mutable { self->Answer(std::move(reply), drop); });
  }

  // Runs `next` after `delay_micros` without holding the thread (other connections go on).
  void After(int64_t delay_micros, std::function<void()> next) {
    if (delay_micros <= 0) return next();
    stream_.expires_never();
    timer_.expires_after(std::chrono::microseconds(delay_micros));
    timer_.async_wait([next = std::move(next)](beast::error_code) { next(); });
  }

  // Sends `reply`, or with `drop` closes the connection without answering.
  void Answer(RestReply reply, bool drop) {
    if (drop) return Close();
    response_ = {static_cast<http::status>(reply.status), request_.version()};
    response_.set(http::field::server, "commitlab-rest-catalog");
    response_.set(http::field::content_type, "application/json");
    response_.keep_alive(request_.keep_alive());
    response_.body() = std::move(reply.body);
    response_.prepare_payload();
    stream_.expires_after(std::chrono::microseconds(server_->options_.idle_timeout_micros));
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec || !self->response_.keep_alive()) return self->Close();
      self->Read();
    });
  }

  void Close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  Impl* const server_;
  beast::tcp_stream stream_;
  asio::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string writer_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
};

void RestCatalogServer::Impl::Accept() {
  acceptor_.async_accept(io_, [this](boost::system::error_code ec, tcp::socket socket) {
    if (ec) return;  // closed by Stop
    ::fcntl(socket.native_handle(), F_SETFD, FD_CLOEXEC);
    std::make_shared<Session>(this, std::move(socket))->Read();
    Accept();
  });
}

Result<std::unique_ptr<RestCatalogServer>> RestCatalogServer::Start(RestServerOptions options) {
  Result<std::unique_ptr<RestTables>> tables = RestTables::Open(options.warehouse, options.seed);
  if (!tables.ok()) return tables.status();
  std::unique_ptr<RestCatalogServer> server(new RestCatalogServer());
  server->impl_ = std::make_unique<Impl>(server.get(), std::move(options), std::move(*tables));
  COMMITLAB_RETURN_IF_ERROR(server->impl_->Listen());
  server->port_ = server->impl_->port();
  server->thread_ = std::thread([impl = server->impl_.get()] { impl->Run(); });
  return server;
}

RestCatalogServer::~RestCatalogServer() { Stop(); }

void RestCatalogServer::Stop() {
  if (!thread_.joinable()) return;
  impl_->Stop();
  thread_.join();
}

}  // namespace commitlab::catalogs
