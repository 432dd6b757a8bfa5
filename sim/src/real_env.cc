#include "commitlab/sim/real_env.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <latch>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>
#include <type_traits>

#include "commitlab/core/retry_policy.h"

namespace commitlab::sim {
namespace {

// The calling thread's identity for one RealEnv, named by its id and not its address: a thread
// that outlives an env (a test's main thread) must not take a new env at the same address for the
// old one, with the old one's stream. Trivially destructible, so that glibc never allocates to
// register its destructor: out of memory, that registration aborts the process without a word.
struct ThreadWriter {
  uint64_t env_id = 0;                // 0: none
  const std::string* name = nullptr;  // a thread RunThreads started: its writer's name (RunThreads' argument)
  std::optional<Rng> rng;
};
static_assert(std::is_trivially_destructible_v<ThreadWriter>);
thread_local ThreadWriter t_writer;
std::atomic<uint64_t> next_env_id{1};

}  // namespace

RealEnv::RealEnv(uint64_t seed, FaultPlan* faults, LatencyModel latency)
    : id_(next_env_id.fetch_add(1)), seed_(seed), faults_(faults), latency_(latency) {}

void RealEnv::BeginStorageOp(StorageOp op) { SleepMicros(latency_.RequestMicros(op, rng())); }

void RealEnv::EndStorageOp(StorageOp op) { SleepMicros(latency_.ResponseMicros(op, rng())); }

int64_t RealEnv::NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_).count();
}

void RealEnv::SleepMicros(int64_t micros) {
  if (micros <= 0) return;
  if (max_wall_micros_ > 0) micros = std::min(micros, std::max<int64_t>(0, max_wall_micros_ - NowMicros()));
  if (micros > 0) std::this_thread::sleep_for(std::chrono::microseconds(micros));
}

Rng& RealEnv::rng() {
  if (t_writer.env_id != id_ || !t_writer.rng) {
    // A thread RunThreads did not start (a test's main thread): give it a stream of its own.
    t_writer = ThreadWriter();
    t_writer.env_id = id_;
    t_writer.rng.emplace(DeriveSeed(seed_, next_stream_.fetch_add(1) + 1, 0xfeed));
  }
  return *t_writer.rng;
}

Status RealEnv::FaultPoint(std::string_view name) {
  if (over_budget()) {
    if (t_writer.env_id == id_ && t_writer.name != nullptr) {
      MutexLock lock(&stopped_mu_);
      if (std::find(stopped_.begin(), stopped_.end(), *t_writer.name) == stopped_.end())
        stopped_.push_back(*t_writer.name);
    }
    return Status::Crashed(
        fmt::format("stopped: the run gave up after {} of wall-clock time (the --max-wall-time budget)",
                    FormatDurationMicros(max_wall_micros_)));
  }
  if (faults_ == nullptr) return Status::OK();
  FaultDecision d =
      faults_->Check(t_writer.env_id == id_ && t_writer.name != nullptr ? *t_writer.name : std::string(), name, rng());
  SleepMicros(d.delay_micros);
  return d.status;
}

std::vector<std::string> RealEnv::stopped_by_budget() const {
  MutexLock lock(&stopped_mu_);
  return stopped_;
}

Status RealEnv::RunThreads(std::vector<Writer> writers) {
  std::latch start(static_cast<std::ptrdiff_t>(writers.size()));
  std::atomic<bool> abandoned{false};
  std::vector<std::thread> threads;
  threads.reserve(writers.size());
  Status status;
  for (size_t i = 0; i < writers.size(); ++i) {
    try {
      threads.emplace_back([this, &start, &abandoned, &w = writers[i], i] {
        t_writer.env_id = id_;
        t_writer.name = &w.name;
        t_writer.rng.emplace(DeriveSeed(seed_, i));
        start.arrive_and_wait();  // release all writers at once so that they race
        if (!abandoned.load()) w.body();
        t_writer = ThreadWriter();
      });
    } catch (const std::exception& e) {
      // The OS refused a thread (ulimit -u or -v; system_error) or its stack (bad_alloc): release
      // the ones waiting, run none of them.
      const auto* sys = dynamic_cast<const std::system_error*>(&e);
      status = Status::IOError(fmt::format("cannot start a thread for writer {} ({} of {}): {}", writers[i].name, i + 1,
                                           writers.size(), sys != nullptr ? sys->code().message() : e.what()));
      abandoned = true;
      start.count_down(static_cast<std::ptrdiff_t>(writers.size() - i));
      break;
    }
  }
  for (std::thread& t : threads) t.join();
  return status;
}

}  // namespace commitlab::sim
