// What the catalog tests share: writers on OS threads, each through a catalog of its own, appending
// one file per commit with retries enough that every append must land whatever the interleaving.
#ifndef COMMITLAB_CATALOGS_TESTS_THREADED_APPENDS_H_
#define COMMITLAB_CATALOGS_TESTS_THREADED_APPENDS_H_

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/real_env.h"

namespace commitlab::catalogs::test {

// Runs `writers` threads of `commits` appends, writer i through open("w<i>"), and checks that each
// finished and that each lost race was retried (attempts = commits + lost swaps).
inline void ExpectThreadedAppendsLand(
    int writers, int commits, const std::function<std::unique_ptr<iceberg::IcebergCatalog>(std::string)>& open) {
  sim::RealEnv env(7);
  iceberg::InMemoryFileIO io;
  NullEventSink sink;
  Result<RetryPolicy> policy = ParseRetryPolicy("full-jitter:base=1ms,cap=20ms");
  ASSERT_TRUE(policy.ok());
  std::vector<std::unique_ptr<iceberg::IcebergCatalog>> catalogs;
  std::vector<iceberg::IcebergCommitter> committers;
  committers.reserve(static_cast<size_t>(writers));
  std::vector<sim::RealEnv::Writer> bodies;
  std::vector<Status> failures(static_cast<size_t>(writers));
  for (int i = 0; i < writers; ++i) {
    const std::string name = "w" + std::to_string(i);
    catalogs.push_back(open(name));
    ASSERT_NE(catalogs.back(), nullptr);
    committers.emplace_back(name, iceberg::IcebergCommitOptions{.retry = *policy}, &env, catalogs.back().get(), &io,
                            &sink);
    bodies.push_back(
        {name, [&, i] {
           iceberg::IcebergCommitter& c = committers[static_cast<size_t>(i)];
           for (int k = 0; k < commits; ++k) {
             iceberg::FileRef f = iceberg::MakeDataFile(c.NewDataFilePath(), {Row{{"id", Value(int64_t{k})}}});
             Status st = c.WriteDataFile(f);
             Result<iceberg::MetadataRef> base = st.ok() ? c.Refresh() : Result<iceberg::MetadataRef>(st);
             if (base.ok()) st = c.Commit(iceberg::NewAppend(**base, {f})).status();
             if (!st.ok()) {
               failures[static_cast<size_t>(i)] = base.ok() ? st : base.status();
               return;
             }
           }
         }});
  }
  ASSERT_TRUE(env.RunThreads(std::move(bodies)).ok());
  for (const Status& st : failures) EXPECT_TRUE(st.ok()) << st.ToString();
  for (const iceberg::IcebergCommitter& c : committers)
    EXPECT_EQ(c.stats().attempts, commits + c.stats().atomic_failures) << c.writer();
}

}  // namespace commitlab::catalogs::test

#endif  // COMMITLAB_CATALOGS_TESTS_THREADED_APPENDS_H_
