#include "rest_router.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <set>
#include <utility>

#include "rest_commit.h"

namespace commitlab::catalogs::internal {
namespace {

using Params = std::vector<std::string>;  // the values of a route's {placeholders}, in order
using Handler = std::function<RestReply(RestTables*, const Params&, const Target&, std::string_view)>;

struct Route_ {
  std::string_view method;
  std::string_view path;  // after /v1, with {placeholders}
  Handler handler;        // empty: the specification's, not served (406)
};

int Hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string Decode(std::string_view s, bool plus_is_space) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && Hex(s[i + 1]) >= 0 && Hex(s[i + 2]) >= 0) {
      out += static_cast<char>(Hex(s[i + 1]) * 16 + Hex(s[i + 2]));
      i += 2;
    } else {
      out += plus_is_space && s[i] == '+' ? ' ' : s[i];
    }
  }
  return out;
}

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t end = std::min(s.find(sep, start), s.size());
    if (end > start) out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

const std::vector<Route_>& Routes() {
  static const auto* const kAll = new std::vector<Route_>{
      {"GET", "/namespaces",
       [](RestTables* t, const Params&, const Target& q, std::string_view) {
         return t->ListNamespaces(q.Param("parent"));
       }},
      {"POST", "/namespaces",
       [](RestTables* t, const Params&, const Target&, std::string_view b) { return t->CreateNamespace(b); }},
      {"GET", "/namespaces/{namespace}",
       [](RestTables* t, const Params& p, const Target&, std::string_view) { return t->LoadNamespace(p[0]); }},
      {"HEAD", "/namespaces/{namespace}",
       [](RestTables* t, const Params& p, const Target&, std::string_view) { return t->NamespaceExists(p[0]); }},
      {"DELETE", "/namespaces/{namespace}",
       [](RestTables* t, const Params& p, const Target&, std::string_view) { return t->DropNamespace(p[0]); }},
      {"POST", "/namespaces/{namespace}/properties",
       [](RestTables* t, const Params& p, const Target&, std::string_view b) {
         return t->UpdateNamespaceProperties(p[0], b);
       }},
      {"GET", "/namespaces/{namespace}/tables",
       [](RestTables* t, const Params& p, const Target&, std::string_view) { return t->List(p[0]); }},
      {"POST", "/namespaces/{namespace}/tables",
       [](RestTables* t, const Params& p, const Target&, std::string_view b) { return t->Create(p[0], b); }},
      {"POST", "/namespaces/{namespace}/register",
       [](RestTables* t, const Params& p, const Target&, std::string_view b) { return t->Register(p[0], b); }},
      {"GET", "/namespaces/{namespace}/tables/{table}",
       [](RestTables* t, const Params& p, const Target& q, std::string_view) {
         return t->Load(p[0], p[1], q.if_none_match);
       }},
      {"HEAD", "/namespaces/{namespace}/tables/{table}",
       [](RestTables* t, const Params& p, const Target&, std::string_view) { return t->Exists(p[0], p[1]); }},
      {"DELETE", "/namespaces/{namespace}/tables/{table}",
       [](RestTables* t, const Params& p, const Target& q, std::string_view) {
         return t->Drop(p[0], p[1], q.Param("purgeRequested") == "true");
       }},
      {"POST", "/namespaces/{namespace}/tables/{table}",  // the commit: served by the server itself
       [](RestTables* t, const Params& p, const Target&, std::string_view b) { return t->Commit(p[0], p[1], b); }},
      {"POST", "/namespaces/{namespace}/tables/{table}/metrics",  // reports are taken and dropped
       [](RestTables*, const Params&, const Target&, std::string_view) {
         return RestReply{204, ""};
       }},
      {"POST", "/tables/rename",
       [](RestTables* t, const Params&, const Target&, std::string_view b) { return t->Rename(b); }},
      // The specification's, not served here.
      {"POST", "/oauth/tokens", {}},
      {"GET", "/namespaces/{namespace}/functions", {}},
      {"GET", "/namespaces/{namespace}/functions/{function}", {}},
      {"POST", "/namespaces/{namespace}/tables/{table}/plan", {}},
      {"GET", "/namespaces/{namespace}/tables/{table}/plan/{plan-id}", {}},
      {"DELETE", "/namespaces/{namespace}/tables/{table}/plan/{plan-id}", {}},
      {"POST", "/namespaces/{namespace}/tables/{table}/tasks", {}},
      {"POST", "/namespaces/{namespace}/tables/{table}/unregister", {}},
      {"GET", "/namespaces/{namespace}/tables/{table}/credentials", {}},
      {"POST", "/namespaces/{namespace}/tables/{table}/sign", {}},
      {"POST", "/transactions/commit", {}},
      {"GET", "/namespaces/{namespace}/views", {}},
      {"POST", "/namespaces/{namespace}/views", {}},
      {"GET", "/namespaces/{namespace}/views/{view}", {}},
      {"POST", "/namespaces/{namespace}/views/{view}", {}},
      {"DELETE", "/namespaces/{namespace}/views/{view}", {}},
      {"HEAD", "/namespaces/{namespace}/views/{view}", {}},
      {"POST", "/views/rename", {}},
      {"POST", "/namespaces/{namespace}/register-view", {}},
  };
  return *kAll;
}

// The placeholders' values when `segments` (after v1) match `path`.
std::optional<Params> Match(std::string_view path, const std::vector<std::string>& segments) {
  const std::vector<std::string> pattern = Split(path, '/');
  if (pattern.size() != segments.size()) return std::nullopt;
  Params params;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i].starts_with('{')) {
      params.push_back(segments[i]);
    } else if (pattern[i] != segments[i]) {
      return std::nullopt;
    }
  }
  return params;
}

// The segments after /v1 and the optional {prefix} (which this catalog does not need: a client that
// names a warehouse sends one, and it is the same catalog).
std::optional<std::vector<std::string>> AfterV1(const Target& t) {
  const std::vector<std::string>& s = t.segments;
  if (s.empty() || s[0] != "v1") return std::nullopt;
  static const std::set<std::string, std::less<>> kRoots = {"config", "oauth",        "namespaces",
                                                            "tables", "transactions", "views"};
  const size_t skip = s.size() >= 3 && kRoots.count(s[1]) == 0 ? 2 : 1;
  return std::vector<std::string>(s.begin() + static_cast<std::ptrdiff_t>(skip), s.end());
}

RestReply Config() {
  nlohmann::json body = {{"defaults", nlohmann::json::object()},
                         {"overrides", nlohmann::json::object()},
                         {"endpoints", ServedEndpoints()}};
  return {200, body.dump()};
}

}  // namespace

std::string Target::Param(std::string_view name) const {
  for (const auto& [k, v] : query)
    if (k == name) return v;
  return "";
}

Target ParseTarget(std::string_view target) {
  Target t;
  const size_t q = target.find('?');
  for (const std::string& s : Split(target.substr(0, q), '/')) t.segments.push_back(Decode(s, false));
  if (q != std::string_view::npos)
    for (const std::string& kv : Split(target.substr(q + 1), '&')) {
      const size_t eq = kv.find('=');
      t.query.emplace_back(Decode(kv.substr(0, eq), true),
                           eq == std::string::npos ? "" : Decode(kv.substr(eq + 1), true));
    }
  return t;
}

const std::vector<std::string>& ServedEndpoints() {
  static const auto* const kAll = [] {
    auto* out = new std::vector<std::string>{"GET /v1/config"};
    for (const Route_& r : Routes())
      if (r.handler) out->push_back(fmt::format("{} /v1/{{prefix}}{}", r.method, r.path));
    return out;
  }();
  return *kAll;
}

bool IsTableCommit(std::string_view method, const Target& t, std::string* ns, std::string* table) {
  const std::optional<std::vector<std::string>> s = AfterV1(t);
  if (method != "POST" || !s || s->size() != 4 || (*s)[0] != "namespaces" || (*s)[2] != "tables") return false;
  *ns = (*s)[1];
  *table = (*s)[3];
  return true;
}

RestReply Route(RestTables* tables, std::string_view method, std::string_view raw_target, const Target& t,
                std::string_view body) {
  if (t.segments.size() == 2 && t.segments[0] == "v1" && t.segments[1] == "config" && method == "GET") return Config();
  if (const std::optional<std::vector<std::string>> rest = AfterV1(t)) {
    for (const Route_& r : Routes()) {
      if (r.method != method) continue;
      std::optional<Params> params = Match(r.path, *rest);
      if (!params) continue;
      if (!r.handler)
        return RestError(406, "UnsupportedOperationException",
                         fmt::format("{} /v1{} is not served by this catalog", method, r.path));
      return r.handler(tables, *params, t, body);
    }
  }
  // RESTCatalogServlet: the path without its leading '/'.
  std::string_view path = raw_target.substr(0, raw_target.find('?'));
  if (path.starts_with('/')) path.remove_prefix(1);
  return RestError(400, "BadRequestException", fmt::format("No route for request: {} {}", method, path));
}

}  // namespace commitlab::catalogs::internal
