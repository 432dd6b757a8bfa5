#include "commitlab/sim/worker_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>
#include <utility>

#include "commitlab/core/check.h"

namespace commitlab::sim {

Result<std::unique_ptr<WorkerPool>> WorkerPool::Start(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::unique_ptr<WorkerPool> pool(new WorkerPool());
  pool->workers_.reserve(static_cast<size_t>(threads - 1));
  for (int i = 1; i < threads; ++i) {
    try {
      pool->workers_.emplace_back([p = pool.get()] { p->WorkerLoop(); });
    } catch (const std::system_error& e) {
      // The destructor stops and joins the workers already started.
      return Status::IOError(fmt::format("cannot start thread {} of {}: {} (lower --threads, or raise ulimit -u or -v)",
                                         i + 1, threads, e.code().message()));
    }
  }
  return pool;
}

WorkerPool::~WorkerPool() {
  {
    MutexLock lock(&mu_);
    stop_ = true;
  }
  cv_.SignalAll();
  for (std::thread& t : workers_) t.join();
}

void WorkerPool::Run(size_t n, const std::function<void(size_t)>& item) {
  {
    MutexLock lock(&mu_);
    COMMITLAB_CHECK(item_ == nullptr, "one WorkerPool::Run at a time");
    item_ = &item;
    size_ = n;
    next_ = 0;
    running_ = 0;
    error_ = nullptr;
    ++batch_;
  }
  cv_.SignalAll();
  Drain();
  std::exception_ptr error;
  {
    MutexLock lock(&mu_);
    while (next_ < size_ || running_ > 0) cv_.Wait(&mu_);
    item_ = nullptr;
    error = std::exchange(error_, nullptr);
  }
  if (error) std::rethrow_exception(error);
}

void WorkerPool::Drain() {
  for (;;) {
    const std::function<void(size_t)>* item = nullptr;
    size_t i = 0;
    {
      MutexLock lock(&mu_);
      if (item_ == nullptr || next_ >= size_) return;
      item = item_;
      i = next_++;
      ++running_;
    }
    std::exception_ptr error;
    try {
      (*item)(i);
    } catch (...) {
      error = std::current_exception();
    }
    bool last = false;
    {
      MutexLock lock(&mu_);
      if (error && !error_) error_ = error;
      --running_;
      last = next_ >= size_ && running_ == 0;
    }
    if (last) cv_.SignalAll();  // Run's caller waits for the batch's end
  }
}

void WorkerPool::WorkerLoop() {
  uint64_t seen = 0;
  for (;;) {
    {
      MutexLock lock(&mu_);
      while (!stop_ && (batch_ == seen || item_ == nullptr)) cv_.Wait(&mu_);
      if (stop_) return;
      seen = batch_;
    }
    Drain();
  }
}

}  // namespace commitlab::sim
