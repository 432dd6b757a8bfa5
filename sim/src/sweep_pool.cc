// RunSweep: every (N, capacity, protocol, policy, run) of a sweep on a WorkerPool. Each run writes only its own
// slot, so the rows do not depend on which thread ran what, or when.
#include <malloc.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "commitlab/core/mutex.h"
#include "commitlab/sim/sweep.h"
#include "commitlab/sim/worker_pool.h"

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
  result.all_cells = static_cast<int64_t>(cells.size());
  std::vector<int64_t> numbers;  // each cell's index in the whole sweep
  for (size_t k = 0; k < cells.size(); ++k)
    if (config.shard_count <= 1 || static_cast<int>(k % static_cast<size_t>(config.shard_count)) == config.shard_index)
      numbers.push_back(static_cast<int64_t>(k));
  for (size_t k = 0; k < numbers.size(); ++k) cells[k] = cells[static_cast<size_t>(numbers[k])];
  cells.resize(numbers.size());
  const size_t runs = config.runs > 0 ? static_cast<size_t>(config.runs) : 0;
  std::vector<RunOutcome> outcomes(cells.size() * runs);
  const auto total = static_cast<int64_t>(outcomes.size());

  Result<std::unique_ptr<WorkerPool>> pool = WorkerPool::Start(config.threads);
  if (!pool.ok()) {
    result.status = pool.status();
    return result;
  }
  Mutex progress_mu;
  int64_t done = 0;  // guarded by progress_mu
  // Largest N first: the long runs start early and the short ones fill the gaps at the end.
  (*pool)->Run(outcomes.size(), [&](size_t i) {
    const size_t k = cells.size() - 1 - i / runs, run = i % runs;
    const Cell& cell = cells[k];
    const int writers = config.writer_counts[cell.writers];
    const RetryPolicy& policy = config.policies[cell.policy];
    const StoreCapacity capacity{.requests_per_s = config.capacities[cell.capacity], .queue = config.queue};
    const uint64_t seed = RunSeed(config.seed, config.experiment, writers, policy, static_cast<int>(run));
    outcomes[k * runs + run] = appenders ? RunAppendersOnce(writers, config.commits, policy, seed, config.latency,
                                                            protocols[cell.protocol], capacity)
                                         : RunBrookerOnce(writers, policy, seed, config.latency, capacity);
    if (config.progress) {
      MutexLock lock(&progress_mu);
      config.progress(++done, total);
    }
  });

  for (size_t k = 0; k < cells.size(); ++k) {
    const Cell& c = cells[k];
    const std::span<const RunOutcome> runs_of_cell(outcomes.data() + k * runs, runs);
    for (const RunOutcome& r : runs_of_cell)
      if (!r.status.ok() && result.status.ok()) result.status = r.status;
    result.rows.push_back(Aggregate(config.writer_counts[c.writers], config.policies[c.policy], runs_of_cell,
                                    protocols[c.protocol], config.capacities[c.capacity]));
    result.cells.push_back(numbers[k]);
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
