#include "commitlab/sim/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <new>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "commitlab/core/mutex.h"

namespace commitlab::sim {
namespace {

TEST(WorkerPoolTest, EveryItemRunsOnceOverManyBatches) {
  Result<std::unique_ptr<WorkerPool>> pool = WorkerPool::Start(4);
  ASSERT_TRUE(pool.ok()) << pool.status().ToString();
  EXPECT_EQ((*pool)->threads(), 4);
  for (size_t n : {size_t{0}, size_t{1}, size_t{3}, size_t{100}, size_t{1000}}) {
    std::vector<std::atomic<int>> runs(n);
    (*pool)->Run(n, [&](size_t i) { runs[i].fetch_add(1); });
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(runs[i].load(), 1) << "item " << i << " of " << n;
  }
}

TEST(WorkerPoolTest, ItemsRunOnTheWorkersAndTheCaller) {
  Result<std::unique_ptr<WorkerPool>> pool = WorkerPool::Start(3);
  ASSERT_TRUE(pool.ok());
  Mutex mu;
  std::set<std::thread::id> seen;
  std::atomic<int> waiting{0};
  // Each of the first three items waits until all three have started: they must be on three threads.
  (*pool)->Run(3, [&](size_t) {
    {
      MutexLock lock(&mu);
      seen.insert(std::this_thread::get_id());
    }
    waiting.fetch_add(1);
    while (waiting.load() < 3) std::this_thread::yield();
  });
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_TRUE(seen.contains(std::this_thread::get_id()));
}

// An item that throws (out of memory in a worker) does not end the process: the caller gets it, once
// every other item has run.
TEST(WorkerPoolTest, TheFirstExceptionReachesTheCallerAfterTheBatch) {
  Result<std::unique_ptr<WorkerPool>> pool = WorkerPool::Start(2);
  ASSERT_TRUE(pool.ok());
  std::atomic<int> ran{0};
  EXPECT_THROW((*pool)->Run(50,
                            [&](size_t i) {
                              ran.fetch_add(1);
                              if (i == 7) throw std::bad_alloc();
                            }),
               std::bad_alloc);
  EXPECT_EQ(ran.load(), 50);
  (*pool)->Run(5, [&](size_t) { ran.fetch_add(1); });  // the pool still works
  EXPECT_EQ(ran.load(), 55);
}

TEST(WorkerPoolTest, OneThreadRunsEverythingOnTheCaller) {
  Result<std::unique_ptr<WorkerPool>> pool = WorkerPool::Start(1);
  ASSERT_TRUE(pool.ok());
  std::set<std::thread::id> seen;
  (*pool)->Run(10, [&](size_t) { seen.insert(std::this_thread::get_id()); });
  EXPECT_EQ(seen, std::set<std::thread::id>{std::this_thread::get_id()});
}

}  // namespace
}  // namespace commitlab::sim
