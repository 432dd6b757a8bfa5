#include "commitlab/core/paimon/user_claim.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace commitlab {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class UserClaimTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "commitlab-claim-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern + "/lock";
  }
  void TearDown() override { fs::remove_all(fs::path(dir_).parent_path()); }
  std::string dir_;
};

TEST_F(UserClaimTest, ASecondClaimOnOneUserIsRefusedWithTheHoldersPid) {
  Result<UserClaim> first = UserClaim::Take(dir_, "job-A");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  Result<UserClaim> second = UserClaim::Take(dir_, "job-A");
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), Code::kInvalidArgument);
  EXPECT_THAT(second.status().message(), HasSubstr("commit user job-A is taken by another live process"));
  EXPECT_THAT(second.status().message(), HasSubstr(fmt::format("pid {}", ::getpid())));
  EXPECT_TRUE(UserClaim::Take(dir_, "job-B").ok());  // another user is free
}

TEST_F(UserClaimTest, ReleasedClaimsCanBeTakenAgain) {
  { ASSERT_TRUE(UserClaim::Take(dir_, "job-A").ok()); }
  Result<UserClaim> again = UserClaim::Take(dir_, "job-A");
  ASSERT_TRUE(again.ok());
  UserClaim moved = std::move(again).value();  // a moved claim still holds
  EXPECT_FALSE(UserClaim::Take(dir_, "job-A").ok());
}

// The kernel drops the lock of a process that dies without cleaning up, as kill -9 leaves it.
TEST_F(UserClaimTest, AClaimDiesWithItsProcess) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Result<UserClaim> held = UserClaim::Take(dir_, "job-A");
    const char c = held.ok() ? 'y' : 'n';
    (void)!::write(ready[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  EXPECT_FALSE(UserClaim::Take(dir_, "job-A").ok());
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(UserClaim::Take(dir_, "job-A").ok());
  ::close(ready[0]);
  ::close(ready[1]);
}

TEST_F(UserClaimTest, UsersThatCannotNameALockFileAreRefused) {
  for (const char* bad : {"", ".hidden", "a/b", "a b", "..", "x\n"}) {
    EXPECT_FALSE(IsValidCommitUser(bad)) << bad;
    EXPECT_EQ(UserClaim::Take(dir_, bad).status().code(), Code::kInvalidArgument) << bad;
  }
  EXPECT_FALSE(IsValidCommitUser(std::string(101, 'a')));
  for (const std::string& good : {std::string("job-A"), std::string("compact.job_1"), std::string(100, 'a')})
    EXPECT_TRUE(IsValidCommitUser(good)) << good;
}

}  // namespace
}  // namespace commitlab
