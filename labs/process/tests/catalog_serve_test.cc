// `commitlab catalog serve` as a process, where the machine or another server gets in its way: a
// second server on the same warehouse, too few file descriptors, a restarted writer.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "commitlab/catalogs/rest_catalog.h"
#include "commitlab_binary.h"
#include "serve_process.h"

namespace commitlab::process {
namespace {

using test::RunCommitlab;
using test::ServeProcess;
using ::testing::HasSubstr;

class ServeProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/commitlab-serve-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

// A connected socket to 127.0.0.1:port whose reads give up after `timeout_s`; -1 on failure.
int Connect(int port, int timeout_s = 10) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  timeval tv{timeout_s, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The status line of the answer to GET `path` ("" when none came within `timeout_s`).
std::string StatusOfGet(int port, const std::string& path, int timeout_s = 10) {
  const int fd = Connect(port, timeout_s);
  if (fd < 0) return "";
  const std::string request = "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  std::string answer;
  if (::write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) answer.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return answer.substr(0, answer.find("\r\n"));
}

// What `commitlab ARGS` prints on stdout and stderr together, and its exit code.
test::CommandOutput RunWithStderr(const std::string& args) {
  test::CommandOutput r;
  std::FILE* p = ::popen((std::string(test::CommitlabBinary()) + " " + args + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST_F(ServeProcessTest, ASecondServerOnTheSameWarehouseIsRefusedAndNoAcknowledgedCommitIsLost) {
  const std::string warehouse = dir_ + "/catalog";
  ServeProcess first({"--warehouse", warehouse});
  ASSERT_GT(first.port(), 0) << "the first server did not say where it listens";
  const test::CommandOutput second = RunWithStderr("catalog serve --port 0 --warehouse " + warehouse);
  EXPECT_EQ(second.exit_code, 2) << second.out;
  EXPECT_THAT(second.out, HasSubstr("is served by another catalog server (pid " + std::to_string(first.pid()) + ")"));

  // Writer processes through the one server that serves it: every acknowledgement is in the table.
  const test::CommandOutput race =
      RunCommitlab({"catalog", "race", "--catalog", "rest://127.0.0.1:" + std::to_string(first.port()), "--writers",
                    "3", "--commits", "10", "--policy", "iceberg:retries=1000", "--warehouse", dir_ + "/w", "--json"});
  ASSERT_EQ(race.exit_code, 0) << race.out;
  const sim::Json r = sim::Json::parse(race.out, nullptr, false);
  EXPECT_EQ(r["acknowledged"], 30);
  EXPECT_EQ(r["live_files"], 30);
  EXPECT_TRUE(r["missing"].empty());
  first.Interrupt();
  EXPECT_EQ(first.Wait(), 0);
  // Once the first has stopped, the warehouse is free again.
  ServeProcess next({"--warehouse", warehouse});
  EXPECT_GT(next.port(), 0);
}

TEST_F(ServeProcessTest, AServerOutOfDescriptorsKeepsAcceptingOnceSomeAreFree) {
#if defined(COMMITLAB_UBSAN_VPTR)
  // UBSan reads an object's vptr through a probe that needs a free file descriptor (a pipe); in a
  // process out of descriptors every virtual call (Asio's error_code, shared_ptr) then reports a
  // false "invalid vptr" and aborts. The Release and debug builds run this test.
  GTEST_SKIP() << "needs a process without UBSan's vptr check: out of descriptors, the check itself fails";
#endif
  // 32 descriptors: the server's own take about ten, so most of the 100 connections below find
  // accept() failing with EMFILE.
  ServeProcess server({"--warehouse", dir_ + "/catalog"}, {"/bin/sh", "-c", "ulimit -n 32 && exec \"$0\" \"$@\""});
  ASSERT_GT(server.port(), 0) << "the server did not start under ulimit -n 32";
  std::vector<int> flood;
  for (int i = 0; i < 100; ++i)
    if (const int fd = Connect(server.port()); fd >= 0) flood.push_back(fd);
  EXPECT_EQ(flood.size(), 100u);
  EXPECT_EQ(StatusOfGet(server.port(), "/v1/config", 2), "")  // no descriptor to answer with
      << "the server answered while every descriptor was taken: the test did not exhaust them";
  for (int fd : flood) ::close(fd);
  // The idle connections end, their descriptors come back, and the server answers again.
  EXPECT_EQ(StatusOfGet(server.port(), "/v1/config"), "HTTP/1.1 200 OK");
  server.Interrupt();
  EXPECT_EQ(server.Wait(), 0);
}

TEST_F(ServeProcessTest, AWriterRestartedWithTheSameFlagsResumesWhereItStopped) {
  ServeProcess server({"--warehouse", dir_ + "/catalog"});
  ASSERT_GT(server.port(), 0);
  catalogs::RestCatalog setup({.port = static_cast<uint16_t>(server.port())});
  ASSERT_TRUE(setup.CreateTable().ok());
  const std::string uri = "rest://127.0.0.1:" + std::to_string(server.port());
  auto writer = [&](const std::string& commits) {
    return RunCommitlab(
        {"catalog", "writer", "--catalog", uri, "--warehouse", dir_ + "/w", "--user", "job-A", "--commits", commits});
  };
  ASSERT_EQ(writer("3").exit_code, 0);
  // The same flags again: nothing to do, every commit is there; then two more.
  const test::CommandOutput again = writer("3");
  EXPECT_EQ(again.exit_code, 0) << again.out;
  const test::CommandOutput more = writer("5");
  EXPECT_EQ(more.exit_code, 0) << more.out;
  Result<iceberg::MetadataRef> m = setup.Current();
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ((*m)->version, 5);
  EXPECT_EQ((*m)->LiveFiles().size(), 5u);
  EXPECT_EQ((*m)->LiveFiles().count("data/job-A-00005.parquet"), 1u);
}

}  // namespace
}  // namespace commitlab::process
