#include "commitlab/core/status.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace commitlab {
namespace {

TEST(StatusTest, OkHasNoCodeNorMessage) {
  const Status ok = Status::OK();
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), Code::kOk);
  EXPECT_EQ(ok.message(), "");
  EXPECT_EQ(ok.ToString(), "OK");
}

TEST(StatusTest, ErrorKeepsItsCodeAndMessage) {
  const Status st = Status::Conflict("File deletion conflicts detected! Give up committing.");
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Code::kConflict);
  EXPECT_EQ(st.message(), "File deletion conflicts detected! Give up committing.");
  EXPECT_EQ(st.ToString(), "Conflict: File deletion conflicts detected! Give up committing.");
}

TEST(StatusTest, CopiesAreIndependentAndAssignmentReplaces) {
  Status a = Status::IOError("disk");
  Status b = a;  // a deep copy: a's state is not shared
  a = Status::NotFound("gone");
  EXPECT_EQ(b.code(), Code::kIOError);
  EXPECT_EQ(b.message(), "disk");
  EXPECT_EQ(a.code(), Code::kNotFound);
  b = Status::OK();
  EXPECT_TRUE(b.ok());
  b = a;
  EXPECT_EQ(b.ToString(), "NotFound: gone");
  const Status& same = b;
  b = same;  // self-assignment keeps the value
  EXPECT_EQ(b.ToString(), "NotFound: gone");
}

TEST(StatusTest, MoveCarriesTheError) {
  Status a = Status::Crashed("injected");
  const Status b = std::move(a);
  EXPECT_EQ(b.code(), Code::kCrashed);
  EXPECT_EQ(b.message(), "injected");
}

TEST(StatusTest, ResultHoldsAValueOrAnError) {
  const Result<int> value = 7;
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, 7);
  const Result<int> error = Status::InvalidArgument("bad");
  EXPECT_FALSE(error.ok());
  EXPECT_EQ(error.status().message(), "bad");
}

// Misuse of a Result is a bug in commitlab, caught where it happens in every build.
TEST(ResultDeathTest, AnOkStatusWithoutAValueIsRefused) {
  EXPECT_DEATH({ [[maybe_unused]] Result<int> r = Status::OK(); }, "a Result made from a Status needs an error");
}

TEST(ResultDeathTest, TheValueOfAFailedResultIsRefused) {
  Result<int> r = Status::NotFound("no such snapshot");
  EXPECT_DEATH({ [[maybe_unused]] int v = *r; }, "read the value of a failed Result; test ok\\(\\) first");
}

}  // namespace
}  // namespace commitlab
