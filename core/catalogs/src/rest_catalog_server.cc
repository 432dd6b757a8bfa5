#include "commitlab/catalogs/rest_catalog_server.h"

#include <fcntl.h>

#include <boost/asio.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "beast_http.h"
#include "commitlab/core/env.h"
#include "rest_router.h"

namespace commitlab::catalogs {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// What a request may cost. Parsing a JSON body costs some 17 times its size, on the server's one
// thread: a commit's body (the spec's snapshot objects, or commitlab's with its files' rows) is
// bounded at 4 MiB, any other at 1 MiB, and bodies are read only while all those being read or
// served fit in kBodyBudget; a request over the budget waits (its connection unread) while the
// others go on.
constexpr uint64_t kMaxCommitBodyBytes = uint64_t{4} << 20;
constexpr uint64_t kMaxBodyBytes = uint64_t{1} << 20;
constexpr uint64_t kBodyBudget = uint64_t{16} << 20;
// After a failed accept (EMFILE: out of descriptors) the acceptor tries again after this long,
// rather than spinning or giving up: the connections that hold descriptors end and free them.
constexpr auto kAcceptBackoff = std::chrono::milliseconds(100);

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

  ~Impl() { stopping_ = true; }  // before io_ and its sessions go

  uint16_t port() const { return port_; }
  void Run() { io_.run(); }
  void Stop() {
    asio::post(io_, [this] {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
      accept_timer_.cancel();
      io_.stop();
    });
  }

 private:
  class Session;

  void Accept();
  // Runs `read` (now, or once enough of the body budget is free) with `need` bytes charged to it.
  void WhenBudgetAllows(uint64_t need, std::function<void()> read);
  void ReleaseBudget(uint64_t charge);

  RestFaultDecision Fault(std::string_view writer, std::string_view point) {
    if (!options_.faults) return {};
    RestFaultDecision d = options_.faults(writer, point);
    if (d.status.code() == Code::kCrashed) {
      // A crash of the server process: no destructor, no flush, as kill -9 would leave it.
      std::_Exit(137);
    }
    return d;
  }

  // Whether a request to `target` is a commit, which may carry a larger body.
  static bool IsCommitTarget(http::verb method, beast::string_view target) {
    std::string ns, table;
    const internal::Target t = internal::ParseTarget(std::string_view(target.data(), target.size()));
    return method == http::verb::post && internal::IsTableCommit("POST", t, &ns, &table);
  }

  // Every request but a table commit.
  RestReply Route(const http::request<http::string_body>& req, const internal::Target& t) {
    const beast::string_view method = req.method_string(), target = req.target();
    return internal::Route(tables_.get(), std::string_view(method.data(), method.size()),
                           std::string_view(target.data(), target.size()), t, req.body());
  }

  RestReply Commit(const std::string& ns, const std::string& table, const std::string& body) {
    RestReply reply = tables_->Commit(ns, table, body);
    if (reply.status == 200) owner_->commits_.fetch_add(1);
    return reply;
  }

  RestCatalogServer* const owner_;
  const RestServerOptions options_;
  const std::unique_ptr<RestTables> tables_;
  // The body budget, on the io thread only. Declared before io_: sessions that io_'s handlers
  // hold give their charge back as io_ is destroyed.
  struct Waiting {
    uint64_t need;
    std::function<void()> read;
  };
  uint64_t in_flight_ = 0;  // body bytes charged to requests being read or served
  std::deque<Waiting> waiting_;
  bool stopping_ = false;
  asio::io_context io_{1};
  tcp::acceptor acceptor_;
  asio::steady_timer accept_timer_{io_};
  uint16_t port_ = 0;
};

// One connection: read a request, answer it, and again while the client keeps it alive.
class RestCatalogServer::Impl::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Impl* server, tcp::socket socket)
      : server_(server), stream_(std::move(socket)), timer_(stream_.get_executor()) {}

  void Read() {
    Release();
    parser_.emplace();
    parser_->body_limit(kMaxCommitBodyBytes);  // the largest; lowered per route once the target is known
    stream_.expires_after(std::chrono::microseconds(server_->options_.idle_timeout_micros));
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](beast::error_code ec, size_t) { self->OnHeader(ec); });
  }

  ~Session() { Release(); }

 private:
  // Whether `ec` ended the read because the client sent something that is not HTTP (answered 400),
  // rather than closing or going quiet.
  static bool NotHttp(beast::error_code ec) {
    return ec.category() == beast::error_code(http::error::bad_target).category() && ec != http::error::end_of_stream &&
           ec != http::error::partial_message;
  }

  void OnHeader(beast::error_code ec) {
    if (ec == http::error::body_limit) return Refuse(413, "the request body is larger than this catalog takes");
    if (ec && NotHttp(ec)) return Refuse(400, fmt::format("not an HTTP request: {}", ec.message()));
    if (ec) return Close();  // the client closed or timed out
    const auto& header = parser_->get();
    const uint64_t limit = Impl::IsCommitTarget(header.method(), header.target()) ? kMaxCommitBodyBytes : kMaxBodyBytes;
    const boost::optional<uint64_t> length = parser_->content_length();
    if (length && *length > limit)
      return Refuse(
          413, fmt::format("the request body ({} bytes) is larger than the {} bytes this route takes", *length, limit));
    parser_->body_limit(limit);  // a chunked body is held to it as it arrives
    const uint64_t need = parser_->is_done() ? 0 : length.value_or(limit);
    stream_.expires_never();  // a request waiting for the budget is not idle
    server_->WhenBudgetAllows(need, [self = shared_from_this(), need] {
      self->charge_ = need;
      self->ReadBody();
    });
  }

  void ReadBody() {
    stream_.expires_after(std::chrono::microseconds(server_->options_.idle_timeout_micros));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    if (ec == http::error::body_limit) return Refuse(413, "the request body is larger than this catalog takes");
    if (ec && NotHttp(ec)) return Refuse(400, fmt::format("not an HTTP request: {}", ec.message()));
    if (ec) return Close();  // the client closed or timed out
    request_ = parser_->release();
    parser_.reset();
    Guarded([this] { Serve(); });
  }

  // Gives this request's share of the body budget back, once its body is no longer needed.
  void Release() {
    if (charge_ > 0) server_->ReleaseBudget(std::exchange(charge_, 0));
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
    const beast::string_view method = request_.method_string(), target = request_.target();
    internal::Target t = internal::ParseTarget(std::string_view(target.data(), target.size()));
    if (const auto tag = request_.find(http::field::if_none_match); tag != request_.end())
      t.if_none_match = std::string(tag->value());
    if (!internal::IsTableCommit(std::string_view(method.data(), method.size()), t, &ns, &table))
      return Answer(server_->Route(request_, t), false);
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
    server_->owner_->body_bytes_.fetch_add(static_cast<int64_t>(request_.body().size() + reply.body.size()));
    request_.body().clear();
    request_.body().shrink_to_fit();
    Release();
    if (drop) return Close();
    response_ = {static_cast<http::status>(reply.status), request_.version()};
    response_.set(http::field::server, "commitlab-rest-catalog");
    response_.set(http::field::content_type, "application/json");
    response_.keep_alive(request_.keep_alive());
    if (!reply.etag.empty()) response_.set(http::field::etag, reply.etag);
    // A HEAD or 204 answer has no body (the status says it all).
    if (request_.method() != http::verb::head && reply.status != 204) response_.body() = std::move(reply.body);
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
  uint64_t charge_ = 0;  // of the server's body budget
  std::string writer_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
};

void RestCatalogServer::Impl::Accept() {
  acceptor_.async_accept(io_, [this](boost::system::error_code ec, tcp::socket socket) {
    if (!acceptor_.is_open()) return;  // closed by Stop
    if (ec) {
      // EMFILE, ENFILE, ENOBUFS, ECONNABORTED: the listening socket is fine, this connection is
      // not (yet). It waits in the backlog while the server backs off and tries again.
      owner_->accept_errors_.fetch_add(1);
      accept_timer_.expires_after(kAcceptBackoff);
      accept_timer_.async_wait([this](boost::system::error_code) { Accept(); });
      return;
    }
    ::fcntl(socket.native_handle(), F_SETFD, FD_CLOEXEC);
    // Nagle's algorithm holds an answer's last segment until the client acknowledges the one
    // before, which it delays (40 ms): every answer past one segment (a table's metadata past
    // 64 KiB on loopback) would wait for it.
    boost::system::error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    std::make_shared<Session>(this, std::move(socket))->Read();
    Accept();
  });
}

void RestCatalogServer::Impl::WhenBudgetAllows(uint64_t need, std::function<void()> read) {
  // First come, first served: a large body is not overtaken for ever by small ones.
  if (waiting_.empty() && (in_flight_ + need <= kBodyBudget || in_flight_ == 0)) {
    in_flight_ += need;
    return read();
  }
  waiting_.push_back({need, std::move(read)});
}

void RestCatalogServer::Impl::ReleaseBudget(uint64_t charge) {
  in_flight_ -= charge;
  if (stopping_) return;
  while (!waiting_.empty() && (in_flight_ + waiting_.front().need <= kBodyBudget || in_flight_ == 0)) {
    Waiting next = std::move(waiting_.front());
    waiting_.pop_front();
    in_flight_ += next.need;
    asio::post(io_, std::move(next.read));
  }
}

Result<std::unique_ptr<RestCatalogServer>> RestCatalogServer::Start(RestServerOptions options) {
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<RestTables> tables, RestTables::Open(options.warehouse));
  std::unique_ptr<RestCatalogServer> server(new RestCatalogServer());
  server->impl_ = std::make_unique<Impl>(server.get(), std::move(options), std::move(tables));
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
