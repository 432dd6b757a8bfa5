// The REST catalog server as the specification has it: every operation it serves, called as any
// client would, with the answers the specification gives; every response recorded and validated
// against the OpenAPI document (third_party/iceberg/rest-catalog-open-api.yaml) by
// labs/tests/rest_spec_check.py.
// clang-format off
#include <utility>  // first: Boost.Asio's awaitable.hpp uses std::exchange without including it
// clang-format on
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "commitlab/catalogs/rest_catalog_server.h"  // first: Boost.Asio wants <utility> before it

namespace commitlab::catalogs {
namespace {

namespace http = boost::beast::http;
using nlohmann::json;
using ::testing::HasSubstr;

struct Answer {
  int status = 0;
  std::string body;
  std::string etag;
  json Json() const { return json::parse(body, nullptr, false); }
};

class RestSpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/commitlab-rest-spec-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    warehouse_ = dir;
    Result<std::unique_ptr<RestCatalogServer>> s = RestCatalogServer::Start({.warehouse = warehouse_ + "/w"});
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(*s);
  }
  void TearDown() override {
    server_.reset();
    std::filesystem::remove_all(warehouse_);
  }

  // One request on a connection of its own; the answer is recorded for the specification check.
  Answer Call(http::verb method, const std::string& target, const std::string& body = "",
              const std::string& if_none_match = "") {
    boost::asio::io_context io;
    boost::beast::tcp_stream stream(io);
    stream.connect({boost::asio::ip::make_address("127.0.0.1"), server_->port()});
    http::request<http::string_body> req{method, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::content_type, "application/json");
    if (!if_none_match.empty()) req.set(http::field::if_none_match, if_none_match);
    req.body() = body;
    req.prepare_payload();
    http::write(stream, req);
    boost::beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.skip(method == http::verb::head);
    http::read(stream, buffer, parser);
    Answer a{static_cast<int>(parser.get().result_int()), parser.get().body(),
             std::string(parser.get()[http::field::etag])};
    log_.push_back(
        {{"method", std::string(http::to_string(method))}, {"path", target}, {"status", a.status}, {"body", a.body}});
    return a;
  }
  Answer Get(const std::string& t) { return Call(http::verb::get, t); }
  Answer Post(const std::string& t, const json& body) { return Call(http::verb::post, t, body.dump()); }

  // Runs the specification check on what was recorded: its report, and *invalid the count.
  std::string CheckAgainstSpecification(int* exit_code) {
    const std::string log = warehouse_ + "/responses.jsonl";
    std::ofstream out(log);
    for (const json& line : log_) out << line.dump() << "\n";
    out.close();
    const std::string command =
        std::string("/usr/bin/python3 ") + COMMITLAB_SPEC_CHECK + " " + COMMITLAB_SPEC_YAML + " " + log + " 2>&1";
    std::string report;
    std::FILE* p = ::popen(command.c_str(), "r");
    char buf[4096];
    for (size_t n; p != nullptr && (n = std::fread(buf, 1, sizeof buf, p)) > 0;) report.append(buf, n);
    const int status = p != nullptr ? ::pclose(p) : -1;
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return report;
  }

  // The steps of the one session the first test runs (each a function of its own).
  void Namespaces();
  void CreateAndAppend();
  void EvolveAndRemove();
  void RenameRegisterDrop();

  std::string warehouse_;
  std::unique_ptr<RestCatalogServer> server_;
  std::vector<json> log_;
  std::string uuid_;  // the table's, once created
};

const json kSchema = {{"type", "struct"},
                      {"schema-id", 0},
                      {"fields", {{{"id", 1}, {"name", "id"}, {"required", true}, {"type", "long"}}}}};

json SpecSnapshot(int64_t id, std::optional<int64_t> parent, int64_t sequence) {
  json s = {{"snapshot-id", id},
            {"sequence-number", sequence},
            {"timestamp-ms", 1'700'000'000'000},
            {"manifest-list", "/tmp/nowhere/snap-" + std::to_string(id) + ".avro"},
            {"summary", {{"operation", "append"}, {"added-data-files", "1"}}},
            {"schema-id", 0}};
  if (parent) s["parent-snapshot-id"] = *parent;
  return s;
}

// Config and the namespaces' operations.
void RestSpecTest::Namespaces() {
  const Answer config = Get("/v1/config");
  ASSERT_EQ(config.status, 200);
  EXPECT_THAT(config.Json()["endpoints"].dump(), HasSubstr("POST /v1/{prefix}/namespaces/{namespace}/tables/{table}"));
  EXPECT_THAT(config.Json()["endpoints"].dump(), HasSubstr("HEAD /v1/{prefix}/namespaces/{namespace}"));

  EXPECT_EQ(Post("/v1/namespaces", {{"namespace", {"ns1"}}, {"properties", {{"owner", "a"}}}}).status, 200);
  const Answer twice = Post("/v1/namespaces", {{"namespace", {"ns1"}}});
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(twice.Json()["error"]["type"], "AlreadyExistsException");
  EXPECT_EQ(Post("/v1/namespaces", {{"namespace", {"ns1", "inner"}}}).status, 200);
  EXPECT_EQ(Get("/v1/namespaces").Json()["namespaces"], json::array({{"ns1"}}));
  EXPECT_EQ(Get("/v1/namespaces?parent=ns1").Json()["namespaces"], json::array({{"ns1", "inner"}}));
  EXPECT_EQ(Get("/v1/namespaces/ns1").Json()["properties"]["owner"], "a");
  EXPECT_EQ(Call(http::verb::head, "/v1/namespaces/ns1").status, 204);
  EXPECT_EQ(Call(http::verb::head, "/v1/namespaces/nope").status, 404);
  EXPECT_EQ(Get("/v1/namespaces/nope").Json()["error"]["type"], "NoSuchNamespaceException");
  const Answer props = Post("/v1/namespaces/ns1/properties", {{"removals", {"x"}}, {"updates", {{"k", "v"}}}});
  EXPECT_EQ(props.status, 200);
  EXPECT_EQ(props.Json()["missing"], json::array({"x"}));
  EXPECT_EQ(props.Json()["updated"], json::array({"k"}));
}

// A table created with all its parts, and appends shaped as the specification shapes them.
void RestSpecTest::CreateAndAppend() {
  // Create with schema, partition spec, sort order and properties: all kept.
  const Answer created =
      Post("/v1/namespaces/ns1/tables", {{"name", "t"},
                                         {"schema", kSchema},
                                         {"partition-spec", {{"spec-id", 0}, {"fields", json::array()}}},
                                         {"write-order", {{"order-id", 0}, {"fields", json::array()}}},
                                         {"properties", {{"write.format.default", "parquet"}}}});
  ASSERT_EQ(created.status, 200) << created.body;
  const json m = created.Json()["metadata"];
  uuid_ = m["table-uuid"];
  const std::string& uuid = uuid_;
  EXPECT_EQ(uuid.size(), 36u);
  EXPECT_EQ(uuid[14], '4');
  EXPECT_EQ(m["schemas"][0]["fields"][0]["name"], "id");
  EXPECT_EQ(m["last-column-id"], 1);
  EXPECT_EQ(m["properties"]["write.format.default"], "parquet");
  EXPECT_EQ(m["current-snapshot-id"], -1);
  EXPECT_EQ(Post("/v1/namespaces/ns1/tables", {{"name", "t"}, {"schema", kSchema}}).status, 409);
  EXPECT_EQ(Post("/v1/namespaces/nope/tables", {{"name", "t"}, {"schema", kSchema}}).status, 404);
  EXPECT_EQ(Get("/v1/namespaces/ns1/tables").Json()["identifiers"],
            json::array({{{"namespace", {"ns1"}}, {"name", "t"}}}));
  EXPECT_EQ(Call(http::verb::head, "/v1/namespaces/ns1/tables/t").status, 204);
  EXPECT_EQ(Call(http::verb::head, "/v1/namespaces/ns1/tables/u").status, 404);
  const Answer loaded = Get("/v1/namespaces/ns1/tables/t");
  EXPECT_EQ(loaded.status, 200);
  // The version a client has already: 304 Not Modified, no body.
  ASSERT_FALSE(loaded.etag.empty());
  const Answer unchanged = Call(http::verb::get, "/v1/namespaces/ns1/tables/t", "", loaded.etag);
  EXPECT_EQ(unchanged.status, 304);
  EXPECT_EQ(unchanged.body, "");

  // An append as the specification shapes it, then the same commit again: its requirement fails.
  const json append = {
      {"requirements",
       {{{"type", "assert-table-uuid"}, {"uuid", uuid}},
        {{"type", "assert-ref-snapshot-id"}, {"ref", "main"}, {"snapshot-id", nullptr}}}},
      {"updates",
       {{{"action", "add-snapshot"}, {"snapshot", SpecSnapshot(100, std::nullopt, 1)}},
        {{"action", "set-snapshot-ref"}, {"ref-name", "main"}, {"type", "branch"}, {"snapshot-id", 100}}}}};
  const Answer committed = Post("/v1/namespaces/ns1/tables/t", append);
  ASSERT_EQ(committed.status, 200) << committed.body;
  EXPECT_EQ(committed.Json()["metadata"]["current-snapshot-id"], 100);
  EXPECT_EQ(committed.Json()["metadata"]["snapshot-log"].size(), 1u);
  EXPECT_EQ(committed.Json()["metadata"]["metadata-log"].size(), 1u);
  const Answer again = Post("/v1/namespaces/ns1/tables/t", append);
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(again.Json()["error"]["message"], "Requirement failed: branch main was created concurrently");
}

// Every other update, and the numbers a commit may not carry.
void RestSpecTest::EvolveAndRemove() {
  // Schema, spec, order, properties, location and a tag in one commit.
  const json evolve = {
      {"requirements",
       {{{"type", "assert-current-schema-id"}, {"current-schema-id", 0}},
        {{"type", "assert-last-assigned-field-id"}, {"last-assigned-field-id", 1}},
        {{"type", "assert-default-spec-id"}, {"default-spec-id", 0}},
        {{"type", "assert-default-sort-order-id"}, {"default-sort-order-id", 0}},
        {{"type", "assert-last-assigned-partition-id"}, {"last-assigned-partition-id", 999}}}},
      {"updates",
       {{{"action", "add-schema"},
         {"schema",
          {{"type", "struct"},
           {"fields",
            {{{"id", 1}, {"name", "id"}, {"required", true}, {"type", "long"}},
             {{"id", 2}, {"name", "v"}, {"required", false}, {"type", "string"}}}}}}},
        {{"action", "set-current-schema"}, {"schema-id", -1}},
        {{"action", "add-spec"},
         {"spec",
          {{"fields", {{{"source-id", 1}, {"field-id", 1000}, {"name", "id_b"}, {"transform", "bucket[4]"}}}}}}},
        {{"action", "set-default-spec"}, {"spec-id", -1}},
        {{"action", "add-sort-order"},
         {"sort-order",
          {{"fields",
            {{{"source-id", 1}, {"transform", "identity"}, {"direction", "asc"}, {"null-order", "nulls-first"}}}}}}},
        {{"action", "set-default-sort-order"}, {"sort-order-id", -1}},
        {{"action", "set-properties"}, {"updates", {{"a", "1"}, {"b", "2"}}}},
        {{"action", "remove-properties"}, {"removals", {"b"}}},
        {{"action", "set-snapshot-ref"}, {"ref-name", "v1"}, {"type", "tag"}, {"snapshot-id", 100}},
        {{"action", "set-location"}, {"location", warehouse_ + "/elsewhere"}}}}};
  const Answer evolved = Post("/v1/namespaces/ns1/tables/t", evolve);
  ASSERT_EQ(evolved.status, 200) << evolved.body;
  const json e = evolved.Json()["metadata"];
  EXPECT_EQ(e["current-schema-id"], 1);
  EXPECT_EQ(e["last-column-id"], 2);
  EXPECT_EQ(e["default-spec-id"], 1);
  EXPECT_EQ(e["last-partition-id"], 1000);
  EXPECT_EQ(e["default-sort-order-id"], 1);
  EXPECT_EQ(e["properties"], json({{"a", "1"}, {"write.format.default", "parquet"}}));
  EXPECT_EQ(e["refs"]["v1"]["type"], "tag");
  EXPECT_EQ(e["location"], warehouse_ + "/elsewhere");
  EXPECT_EQ(Post("/v1/namespaces/ns1/tables/t", evolve).status, 409);  // the schema changed since

  // A second snapshot, then the first removed.
  const json second = {
      {"requirements", {{{"type", "assert-ref-snapshot-id"}, {"ref", "main"}, {"snapshot-id", 100}}}},
      {"updates",
       {{{"action", "add-snapshot"}, {"snapshot", SpecSnapshot(200, 100, 2)}},
        {{"action", "set-snapshot-ref"}, {"ref-name", "main"}, {"type", "branch"}, {"snapshot-id", 200}},
        {{"action", "remove-snapshot-ref"}, {"ref-name", "v1"}},
        {{"action", "remove-snapshots"}, {"snapshot-ids", {100}}}}}};
  const Answer removed = Post("/v1/namespaces/ns1/tables/t", second);
  ASSERT_EQ(removed.status, 200) << removed.body;
  EXPECT_EQ(removed.Json()["metadata"]["snapshots"].size(), 1u);

  // Numbers that would wedge the table are refused, naming the field.
  const Answer top =
      Post("/v1/namespaces/ns1/tables/t",
           {{"requirements", json::array()},
            {"updates", {{{"action", "add-snapshot"}, {"snapshot", SpecSnapshot(300, 200, INT64_MAX)}}}}});
  EXPECT_EQ(top.status, 400);
  EXPECT_THAT(top.Json()["error"]["message"].get<std::string>(), HasSubstr("field sequence-number"));
  const Answer negative = Post("/v1/namespaces/ns1/tables/t",
                               {{"requirements", json::array()},
                                {"updates", {{{"action", "add-snapshot"}, {"snapshot", SpecSnapshot(-5, 200, 3)}}}}});
  EXPECT_EQ(negative.status, 400);
  EXPECT_THAT(negative.Json()["error"]["message"].get<std::string>(), HasSubstr("field snapshot-id must be positive"));
}

// Metrics, rename, register, drops, and what is not served.
void RestSpecTest::RenameRegisterDrop() {
  EXPECT_EQ(Post("/v1/namespaces/ns1/tables/t/metrics", {{"report-type", "commit-report"}}).status, 204);
  EXPECT_EQ(Post("/v1/tables/rename", {{"source", {{"namespace", {"ns1"}}, {"name", "t"}}},
                                       {"destination", {{"namespace", {"ns1"}}, {"name", "t2"}}}})
                .status,
            204);
  EXPECT_EQ(Get("/v1/namespaces/ns1/tables/t").status, 404);
  EXPECT_EQ(Get("/v1/namespaces/ns1/tables/t2").Json()["metadata"]["current-snapshot-id"], 200);

  // Upstream's own metadata file, registered.
  const Answer registered = Post(
      "/v1/namespaces/ns1/register",
      {{"name", "up"}, {"metadata-location", std::string(COMMITLAB_ICEBERG_FIXTURES) + "/TableMetadataV2Valid.json"}});
  ASSERT_EQ(registered.status, 200) << registered.body;
  EXPECT_EQ(registered.Json()["metadata"]["table-uuid"], "9c12d441-03fe-4693-9a96-a0705ddf69c1");

  EXPECT_EQ(Call(http::verb::delete_, "/v1/namespaces/ns1").status, 409);  // NamespaceNotEmptyException
  EXPECT_EQ(Call(http::verb::delete_, "/v1/namespaces/ns1/tables/t2").status, 204);
  EXPECT_EQ(Call(http::verb::delete_, "/v1/namespaces/ns1/tables/up?purgeRequested=false").status, 204);
  EXPECT_EQ(Call(http::verb::delete_, "/v1/namespaces/ns1/tables/up").status, 404);
  EXPECT_EQ(Call(http::verb::delete_, "/v1/namespaces/ns1").status, 204);
  EXPECT_EQ(Call(http::verb::head, "/v1/namespaces/ns1").status, 404);

  // The specification's operations not served here, and a path it does not have.
  EXPECT_EQ(Get("/v1/namespaces/ns1/views").Json()["error"]["type"], "UnsupportedOperationException");
  EXPECT_EQ(Post("/v1/transactions/commit", {{"table-changes", json::array()}}).status, 406);
  const Answer nowhere = Get("/v1/nowhere");
  EXPECT_EQ(nowhere.status, 400);
  EXPECT_EQ(nowhere.Json()["error"]["message"], "No route for request: GET v1/nowhere");
}

TEST_F(RestSpecTest, NamespacesAndTablesGoThroughEveryOperationAsTheSpecificationSays) {
  Namespaces();
  CreateAndAppend();
  EvolveAndRemove();
  RenameRegisterDrop();

  int exit_code = -1;
  const std::string report = CheckAgainstSpecification(&exit_code);
  EXPECT_EQ(exit_code, 0) << report;
  EXPECT_THAT(report, HasSubstr(" 0 invalid"));
}

TEST_F(RestSpecTest, TwoServersNeverGiveTwoTablesTheSameUuid) {
  Result<std::unique_ptr<RestCatalogServer>> other = RestCatalogServer::Start({.warehouse = warehouse_ + "/w2"});
  ASSERT_TRUE(other.ok());
  ASSERT_EQ(Post("/v1/namespaces", {{"namespace", {"db"}}}).status, 200);
  const json a = Post("/v1/namespaces/db/tables", {{"name", "t"}, {"schema", kSchema}}).Json();
  server_.swap(*other);  // the same requests to the other server
  ASSERT_EQ(Post("/v1/namespaces", {{"namespace", {"db"}}}).status, 200);
  const json b = Post("/v1/namespaces/db/tables", {{"name", "t"}, {"schema", kSchema}}).Json();
  EXPECT_NE(a["metadata"]["table-uuid"], b["metadata"]["table-uuid"]);
  EXPECT_NE(a["metadata-location"], b["metadata-location"]);
}

}  // namespace
}  // namespace commitlab::catalogs
