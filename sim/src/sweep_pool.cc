// RunSweep: every (N, policy, run) of a sweep on a Boost.Asio thread pool. Each run writes only
// its own slot, so the rows do not depend on which thread ran what, or when.
// clang-format off
#include <utility>  // first: Boost 1.74's Asio uses std::exchange without including it (g++ 12)
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
// clang-format on
#include <malloc.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "commitlab/core/mutex.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::sim {

SweepResult RunSweep(const SweepConfig& config) {
  SweepResult result;
  result.config = config;
  result.config.progress = nullptr;
  const size_t policies = config.policies.size();
  const size_t runs = config.runs > 0 ? static_cast<size_t>(config.runs) : 0;
  const size_t cells = config.writer_counts.size() * policies;
  std::vector<RunOutcome> outcomes(cells * runs);
  const auto total = static_cast<int64_t>(outcomes.size());

  int threads = config.threads;
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  Mutex progress_mu;
  int64_t done = 0;  // guarded by progress_mu
  {
    boost::asio::thread_pool pool(static_cast<size_t>(threads));
    // Largest N first: the long runs start early and the short ones fill the gaps at the end.
    for (size_t ni = config.writer_counts.size(); ni-- > 0;) {
      for (size_t pi = 0; pi < policies; ++pi) {
        for (size_t run = 0; run < runs; ++run) {
          RunOutcome* slot = &outcomes[(ni * policies + pi) * runs + run];
          boost::asio::post(pool, [&config, &progress_mu, &done, total, slot, ni, pi, run] {
            const int writers = config.writer_counts[ni];
            const RetryPolicy& policy = config.policies[pi];
            const uint64_t seed = RunSeed(config.seed, config.experiment, writers, policy, static_cast<int>(run));
            *slot = config.experiment == Experiment::kBrooker
                        ? RunBrookerOnce(writers, policy, seed, config.latency)
                        : RunAppendersOnce(writers, config.commits, policy, seed, config.latency);
            if (config.progress) {
              MutexLock lock(&progress_mu);
              config.progress(++done, total);
            }
          });
        }
      }
    }
    pool.join();
  }

  for (size_t ni = 0; ni < config.writer_counts.size(); ++ni) {
    for (size_t pi = 0; pi < policies; ++pi) {
      const std::span<const RunOutcome> cell(outcomes.data() + (ni * policies + pi) * runs, runs);
      for (const RunOutcome& r : cell)
        if (!r.status.ok() && result.status.ok()) result.status = r.status;
      result.rows.push_back(Aggregate(config.writer_counts[ni], config.policies[pi], cell));
    }
  }
  return result;
}

void TuneAllocatorForSweeps() {
  // Chunks up to 4 MiB come from the arenas, not mmap, and the arenas are not trimmed below 512 MiB
  // of free top space: the fiber stacks a thread's cache cannot keep (fiber.cc) and each run's
  // larger vectors are then reused by the next run instead of mapped and unmapped every time.
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

}  // namespace commitlab::sim
