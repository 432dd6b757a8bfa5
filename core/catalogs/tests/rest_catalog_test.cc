// The REST catalog: the Beast server on a loopback port in this process, clients over real
// connections, the warehouse in a temporary folder.
#include "commitlab/catalogs/rest_catalog.h"

#include <boost/asio.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commitlab/catalogs/rest_catalog_server.h"
#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/apply.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/operation.h"
#include "threaded_appends.h"

namespace commitlab::catalogs {
namespace {

using iceberg::CasOutcome;
using iceberg::MetadataRef;
using ::testing::HasSubstr;

class RestCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/commitlab-rest-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    warehouse_ = dir;
    StartServer();
    ASSERT_TRUE(Client()->CreateTable().ok());
  }
  void TearDown() override {
    server_.reset();
    std::filesystem::remove_all(warehouse_);
  }
  void StartServer() {
    Result<std::unique_ptr<RestCatalogServer>> s = RestCatalogServer::Start(
        {.warehouse = warehouse_, .faults = [this](std::string_view writer, std::string_view point) {
           return hook_ ? hook_(writer, point) : RestFaultDecision{};
         }});
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(*s);
  }
  std::unique_ptr<RestCatalog> Client(std::string writer = "w") {
    return std::make_unique<RestCatalog>(RestEndpoint{.port = server_->port(), .writer = std::move(writer)});
  }
  // The metadata `base` becomes with one appended file, as a writer builds it.
  MetadataRef Append(const iceberg::TableMetadata& base, const std::string& name, int64_t snapshot_id) {
    iceberg::FileRef f =
        iceberg::MakeDataFile("data/" + name + ".parquet", {commitlab::Row{{"id", Value(int64_t{1})}}});
    Result<iceberg::TableMetadata> next = iceberg::ApplyOperation(
        iceberg::NewAppend(base, {f}), base,
        {.snapshot_id = snapshot_id, .metadata_location = iceberg::MetadataFilePath(base.version + 1, name)});
    EXPECT_TRUE(next.ok());
    return std::make_shared<iceberg::TableMetadata>(*next);
  }

  std::string warehouse_;
  std::function<RestFaultDecision(std::string_view, std::string_view)> hook_;
  std::unique_ptr<RestCatalogServer> server_;
};

TEST_F(RestCatalogTest, ATableIsCreatedOnceAndLoadsAtVersionZero) {
  std::unique_ptr<RestCatalog> c = Client();
  Result<MetadataRef> m = c->Current();
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ((*m)->version, 0);
  EXPECT_EQ((*m)->table_name, "db.tbl");
  Status again = c->CreateTable();
  EXPECT_EQ(again.code(), Code::kConflict);
  EXPECT_EQ(again.message(), "Table already exists: db.tbl");
  RestCatalog missing(RestEndpoint{.port = server_->port(), .table = "nope"});
  EXPECT_EQ(missing.Current().status().code(), Code::kNotFound);
}

TEST_F(RestCatalogTest, OfTwoCommitsOnTheSameBaseOneLandsAndTheOtherFailsARequirement) {
  std::unique_ptr<RestCatalog> a = Client("a"), b = Client("b");
  const MetadataRef empty = *a->Current();
  ASSERT_TRUE(b->Current().ok());
  iceberg::CasResult first = a->Commit(*empty, Append(*empty, "a1", 11));
  ASSERT_EQ(first.outcome, CasOutcome::kSwapped) << first.message;
  ASSERT_NE(first.current, nullptr);
  EXPECT_EQ(first.current->current_snapshot_id, 11);
  iceberg::CasResult second = b->Commit(*empty, Append(*empty, "b1", 22));
  EXPECT_EQ(second.outcome, CasOutcome::kLost);
  EXPECT_EQ(second.message, "Requirement failed: branch main was created concurrently");

  // Both now build on snapshot 11; b is first this time.
  const MetadataRef base = first.current;
  ASSERT_EQ(b->Commit(*base, Append(*base, "b2", 33)).outcome, CasOutcome::kSwapped);
  iceberg::CasResult stale = a->Commit(*base, Append(*base, "a2", 44));
  EXPECT_EQ(stale.outcome, CasOutcome::kLost);
  EXPECT_EQ(stale.message, "Requirement failed: branch main has changed: expected id 11 != 33");
  EXPECT_EQ(server_->commits(), 2);
}

TEST_F(RestCatalogTest, ARestartedServerServesTheTableFromItsWarehouse) {
  std::unique_ptr<RestCatalog> c = Client();
  const MetadataRef empty = *c->Current();
  const MetadataRef one = c->Commit(*empty, Append(*empty, "x", 5)).current;
  ASSERT_NE(one, nullptr);
  server_.reset();
  StartServer();
  Result<MetadataRef> back = Client()->Current();
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->version, 1);
  EXPECT_EQ((*back)->location, one->location);
  ASSERT_EQ((*back)->LiveFiles().size(), 1u);
  EXPECT_EQ((*back)->LiveFiles().begin()->first, "data/x.parquet");
}

TEST_F(RestCatalogTest, A503BeforeTheCommitAndADroppedAnswerAfterItAreBothUnknownToTheWriter) {
  hook_ = [](std::string_view writer, std::string_view point) {
    if (writer == "before" && point == fault::kCatalogBefore) return RestFaultDecision{Status::IOError("injected")};
    if (writer == "after" && point == fault::kCatalogAfter) return RestFaultDecision{Status::IOError("injected")};
    return RestFaultDecision{};
  };
  std::unique_ptr<RestCatalog> before = Client("before"), after = Client("after"), reader = Client("reader");
  const MetadataRef empty = *reader->Current();

  iceberg::CasResult refused = before->Commit(*empty, Append(*empty, "p", 1));
  EXPECT_EQ(refused.outcome, CasOutcome::kUnknown);
  EXPECT_THAT(refused.message, HasSubstr("Service failed: 503: injected (nothing was applied)"));
  EXPECT_EQ((*reader->Current())->version, 0);  // and indeed nothing was

  iceberg::CasResult dropped = after->Commit(*empty, Append(*empty, "q", 2));
  EXPECT_EQ(dropped.outcome, CasOutcome::kUnknown);
  EXPECT_THAT(dropped.message, HasSubstr("no answer"));
  const MetadataRef now = *reader->Current();
  EXPECT_EQ(now->version, 1);  // it was applied all the same
  EXPECT_EQ(now->current_snapshot_id, 2);
}

TEST_F(RestCatalogTest, AServerThatIsNotThereIsUnknownOnlyIfTheCommitWasSent) {
  std::unique_ptr<RestCatalog> c = Client();
  const MetadataRef empty = *c->Current();  // the client knows the table: the commit is what fails
  server_.reset();
  iceberg::CasResult r = c->Commit(*empty, Append(*empty, "z", 3));
  EXPECT_EQ(r.outcome, CasOutcome::kUnknown);
  EXPECT_THAT(r.message, HasSubstr("(the commit was never sent)"));
  EXPECT_THAT(r.message, HasSubstr("cannot connect"));
}

// What a client sends raw, and the status line of the answer ("" when none came).
std::string RawExchange(uint16_t port, const std::string& request) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket socket(io);
  boost::system::error_code ec;
  socket.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) return "";
  boost::asio::write(socket, boost::asio::buffer(request), ec);
  std::string answer;
  char buf[4096];
  for (size_t n; (n = socket.read_some(boost::asio::buffer(buf), ec)) > 0 || !ec;) answer.append(buf, n);
  return answer.substr(0, answer.find("\r\n"));
}

TEST_F(RestCatalogTest, RequestsThatAreNotWellFormedAreAnsweredAndTheServerGoesOn) {
  const uint16_t port = server_->port();
  // A target that is not UTF-8 is echoed in the 404 with the bytes replaced.
  EXPECT_EQ(RawExchange(port, "GET /v1/namespaces/\xff/tables/t HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
            "HTTP/1.1 404 Not Found");
  EXPECT_EQ(RawExchange(port, "HELLO\r\n\r\n"), "HTTP/1.1 400 Bad Request");
  const std::string deep = std::string(5000, '[') + std::string(5000, ']');
  const std::string body = R"({"requirements":)" + deep + R"(,"updates":[]})";
  EXPECT_EQ(RawExchange(port,
                        "POST /v1/namespaces/db/tables/tbl HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                        "Content-Length: " +
                            std::to_string(body.size()) + "\r\n\r\n" + body),
            "HTTP/1.1 400 Bad Request");
  EXPECT_EQ(RawExchange(
                port, "POST /v1/namespaces/db/tables/tbl HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\n\r\n"),
            "HTTP/1.1 413 Payload Too Large");
  EXPECT_TRUE(Client()->Current().ok());
}

TEST_F(RestCatalogTest, FourThreadsAppendingThroughTheServerLandEveryCommit) {
  test::ExpectThreadedAppendsLand(4, 10, [this](std::string writer) {
    return std::unique_ptr<iceberg::IcebergCatalog>(Client(std::move(writer)));
  });
  const MetadataRef last = *Client()->Current();
  EXPECT_EQ(last->version, 40);
  EXPECT_EQ(last->LiveFiles().size(), 40u);
  EXPECT_EQ(server_->commits(), 40);
}

TEST(RestTablesTest, RequestsThatAreNotCommitsAre400AndNamesCannotLeaveTheWarehouse) {
  char dir[] = "/tmp/commitlab-rest-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  Result<std::unique_ptr<RestTables>> t = RestTables::Open(dir);
  ASSERT_TRUE(t.ok());
  constexpr char kSchema[] = R"("schema":{"type":"struct","fields":[]})";
  EXPECT_EQ((*t)->Create("db", std::string(R"({"name":"tbl",)") + kSchema + "}").status, 404);  // no namespace yet
  ASSERT_EQ((*t)->CreateNamespace(R"({"namespace":["db"]})").status, 200);
  ASSERT_EQ((*t)->Create("db", std::string(R"({"name":"tbl",)") + kSchema + "}").status, 200);
  EXPECT_EQ((*t)->Create("db", R"({"name":"noschema"})").status, 400);
  EXPECT_EQ((*t)->Commit("db", "tbl", "not json").status, 400);
  EXPECT_EQ((*t)->Commit("db", "tbl", R"({"requirements":[{"type":"assert-nothing"}],"updates":[]})").status, 400);
  EXPECT_EQ((*t)->Commit("db", "tbl", R"({"requirements":[],"updates":[{"action":"drop-everything"}]})").status, 400);
  EXPECT_EQ((*t)->Load("..", "tbl").status, 404);
  EXPECT_EQ((*t)->Create("db", std::string(R"({"name":"../escape",)") + kSchema + "}").status, 400);
  EXPECT_EQ(
      (*t)->Commit("db", "tbl", R"({"requirements":[],"updates":[{"action":"set-snapshot-ref","ref-name":5}]})").status,
      400);
  RestReply wrong_uuid =
      (*t)->Commit("db", "tbl", R"({"requirements":[{"type":"assert-table-uuid","uuid":"x"}],"updates":[]})");
  EXPECT_EQ(wrong_uuid.status, 409);
  // UpdateRequirement.AssertTableUUID: the table's uuid, then the one asserted.
  EXPECT_THAT(wrong_uuid.body, HasSubstr("Requirement failed: UUID does not match: expected "));
  EXPECT_THAT(wrong_uuid.body, HasSubstr(" != x"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace commitlab::catalogs
