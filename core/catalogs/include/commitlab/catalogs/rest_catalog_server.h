// RestCatalogServer: commitlab's Iceberg REST catalog over HTTP/1.1 on Boost.Beast, for writers in
// other processes and for any client of the specification (open-api/rest-catalog-open-api.yaml):
// config (with the endpoints it serves), namespaces (create, list, load, exists, update
// properties, drop), tables (create, list, load, exists, drop, rename, register, report metrics)
// and the table commit with its requirements and updates (rest_tables.h). The specification's
// other operations (views, scan planning, credentials, multi-table transactions) answer 406
// UnsupportedOperationException; a path it does not have, 400 (src/rest_router.h).
//
// Listens on a loopback address only. One thread runs every connection, so commits are applied
// one at a time. No client can hold the server: a connection idle past the timeout is closed, a
// commit's body is bounded at 4 MiB and any other's at 1 MiB, bodies are read only while those in
// hand fit a 16 MiB budget (a request over it waits, unread, while the others are served), and a
// failed accept (out of descriptors) is tried again after 100 ms rather than ending the accept loop.
//
// Faults at the server, for the outcomes a client cannot tell apart: each commit asks the fault
// hook at catalog.before (nothing applied yet) and, once it is applied and stored, catalog.after. An error
// before answers 503 without applying (the client must treat it as unknown, the specification
// says); an error after closes the connection without answering, so the commit happened and the
// client never hears; a delay holds the request (other connections go on); a crash ends the
// process at once (std::_Exit), between the two a crash of the server before or after its write.
#ifndef COMMITLAB_CATALOGS_REST_CATALOG_SERVER_H_
#define COMMITLAB_CATALOGS_REST_CATALOG_SERVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "commitlab/catalogs/rest_tables.h"
#include "commitlab/core/status.h"

namespace commitlab::catalogs {

// What the fault hook decides for one hit: an error (Status), a crash (Code::kCrashed), a delay.
struct RestFaultDecision {
  Status status = Status::OK();
  int64_t delay_micros = 0;
};
// Called on the server's thread with the writer the request names (header X-Commitlab-Writer,
// "" without one) and the point (fault::kCatalogBefore or kCatalogAfter).
using RestFaultHook = std::function<RestFaultDecision(std::string_view writer, std::string_view point)>;

struct RestServerOptions {
  std::string warehouse = {};
  std::string address = "127.0.0.1";  // a loopback address, else Start refuses
  uint16_t port = 0;                  // 0: a free port, see port()
  RestFaultHook faults = {};
  int64_t idle_timeout_micros = int64_t{30} * 1'000'000;
};

class RestCatalogServer {
 public:
  // Listening when it returns, serving on its own thread. InvalidArgument for a non-loopback
  // address or a warehouse that cannot be created; IOError when the port cannot be bound.
  static Result<std::unique_ptr<RestCatalogServer>> Start(RestServerOptions options);
  ~RestCatalogServer();  // Stop()

  uint16_t port() const { return port_; }
  // Stops accepting and serving, and joins the thread; open connections are closed when the
  // server is destroyed. Idempotent.
  void Stop();
  int64_t requests() const { return requests_.load(); }
  int64_t commits() const { return commits_.load(); }
  // The bytes of request and answer bodies, both ways.
  int64_t body_bytes() const { return body_bytes_.load(); }
  // Accepts that failed (out of descriptors, say) and were tried again after a pause.
  int64_t accept_errors() const { return accept_errors_.load(); }

  class Impl;

 private:
  RestCatalogServer() = default;

  std::unique_ptr<Impl> impl_;
  std::thread thread_;
  uint16_t port_ = 0;
  std::atomic<int64_t> requests_{0};
  std::atomic<int64_t> commits_{0};  // commits applied
  std::atomic<int64_t> accept_errors_{0};
  std::atomic<int64_t> body_bytes_{0};
};

}  // namespace commitlab::catalogs

#endif  // COMMITLAB_CATALOGS_REST_CATALOG_SERVER_H_
