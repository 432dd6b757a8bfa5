// The routes of commitlab's REST catalog: each operation of the specification
// (open-api/rest-catalog-open-api.yaml) that it serves, to its RestTables handler; the ones it does
// not serve answer 406 UnsupportedOperationException, as the specification says; a path the
// specification does not have answers 400 "No route for request" (RESTCatalogAdapter).
#ifndef COMMITLAB_CATALOGS_SRC_REST_ROUTER_H_
#define COMMITLAB_CATALOGS_SRC_REST_ROUTER_H_

#include <string>
#include <string_view>
#include <vector>

#include "commitlab/catalogs/rest_tables.h"

namespace commitlab::catalogs::internal {

// The path's segments after the host, percent-decoded, without the query; and the query's
// parameters, decoded.
struct Target {
  std::string if_none_match = {};  // the request's If-None-Match header
  std::vector<std::string> segments;
  std::vector<std::pair<std::string, std::string>> query;
  std::string Param(std::string_view name) const;
};
Target ParseTarget(std::string_view target);

// "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}" and the like: the endpoints served,
// as GET /v1/config lists them (CatalogConfig.endpoints).
const std::vector<std::string>& ServedEndpoints();

// Whether `method target` is a table commit (updateTable), and which table.
bool IsTableCommit(std::string_view method, const Target& t, std::string* ns, std::string* table);

// Every request but a table commit.
RestReply Route(RestTables* tables, std::string_view method, std::string_view raw_target, const Target& t,
                std::string_view body);

}  // namespace commitlab::catalogs::internal

#endif  // COMMITLAB_CATALOGS_SRC_REST_ROUTER_H_
