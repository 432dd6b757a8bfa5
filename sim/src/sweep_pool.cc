// RunSweep: every (N, capacity, protocol, policy, run) of a sweep on a Boost.Asio thread pool. Each run writes only
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

namespace {

// One cell of a sweep: its indices into the config's lists.
struct Cell {
  size_t writers = 0, capacity = 0, protocol = 0, policy = 0;
};

}  // namespace

SweepResult RunSweep(const SweepConfig& config) {
  SweepResult result;
  result.config = config;
  result.config.progress = nullptr;
  const bool appenders = config.experiment == Experiment::kFormats;
  // Brooker's client is Paimon's committer whatever the config's protocol list says.
  const std::vector<Protocol> protocols = appenders ? config.protocols : std::vector<Protocol>{LectureProtocol()};
  result.config.protocols = protocols;
  std::vector<Cell> cells;  // in row order: writers x capacities x protocols x policies
  for (size_t ni = 0; ni < config.writer_counts.size(); ++ni)
    for (size_t ci = 0; ci < config.capacities.size(); ++ci)
      for (size_t ri = 0; ri < protocols.size(); ++ri)
        for (size_t pi = 0; pi < config.policies.size(); ++pi) cells.push_back({ni, ci, ri, pi});
  const size_t runs = config.runs > 0 ? static_cast<size_t>(config.runs) : 0;
  std::vector<RunOutcome> outcomes(cells.size() * runs);
  const auto total = static_cast<int64_t>(outcomes.size());

  int threads = config.threads;
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  Mutex progress_mu;
  int64_t done = 0;  // guarded by progress_mu
  {
    boost::asio::thread_pool pool(static_cast<size_t>(threads));
    // Largest N first: the long runs start early and the short ones fill the gaps at the end.
    for (size_t k = cells.size(); k-- > 0;) {
      for (size_t run = 0; run < runs; ++run) {
        RunOutcome* slot = &outcomes[k * runs + run];
        boost::asio::post(
            pool, [&config, &protocols, &progress_mu, &done, total, slot, cell = cells[k], run, appenders] {
              const int writers = config.writer_counts[cell.writers];
              const RetryPolicy& policy = config.policies[cell.policy];
              const StoreCapacity capacity{.requests_per_s = config.capacities[cell.capacity], .queue = config.queue};
              const uint64_t seed = RunSeed(config.seed, config.experiment, writers, policy, static_cast<int>(run));
              *slot = appenders ? RunAppendersOnce(writers, config.commits, policy, seed, config.latency,
                                                   protocols[cell.protocol], capacity)
                                : RunBrookerOnce(writers, policy, seed, config.latency, capacity);
              if (config.progress) {
                MutexLock lock(&progress_mu);
                config.progress(++done, total);
              }
            });
      }
    }
    pool.join();
  }

  for (size_t k = 0; k < cells.size(); ++k) {
    const Cell& c = cells[k];
    const std::span<const RunOutcome> runs_of_cell(outcomes.data() + k * runs, runs);
    for (const RunOutcome& r : runs_of_cell)
      if (!r.status.ok() && result.status.ok()) result.status = r.status;
    result.rows.push_back(Aggregate(config.writer_counts[c.writers], config.policies[c.policy], runs_of_cell,
                                    protocols[c.protocol], config.capacities[c.capacity]));
  }
  return result;
}

void TuneAllocatorForSweeps() {
  // For glibc's malloc (a build with COMMITLAB_MALLOC=system; mimalloc ignores it). Chunks up to
  // 4 MiB come from the arenas, not mmap, and the arenas are not trimmed below 512 MiB
  // of free top space: the fiber stacks a thread's cache cannot keep (fiber.cc) and each run's
  // larger vectors are then reused by the next run instead of mapped and unmapped every time.
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

}  // namespace commitlab::sim
