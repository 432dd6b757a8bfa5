// Small sweeps for the report tests: real results that run in milliseconds.
#ifndef COMMITLAB_REPORT_TESTS_TINY_SWEEP_H_
#define COMMITLAB_REPORT_TESTS_TINY_SWEEP_H_

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::report {

inline RetryPolicy Policy(std::string_view spec) {
  Result<RetryPolicy> p = ParseRetryPolicy(spec);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : RetryPolicy{};
}

// Two N (or capacities) x three policies x four runs; formats with its three protocols.
inline sim::SweepConfig TinyConfig(sim::Experiment e, int threads) {
  sim::SweepConfig c = sim::DefaultSweepConfig(e);
  c.writer_counts = e == sim::Experiment::kFormats ? std::vector<int>{2, 3} : std::vector<int>{3, 7};
  if (e == sim::Experiment::kCapacity) c.writer_counts = {5}, c.capacities = {200, 2000};
  c.policies = {DefaultRetryPolicy(RetryKind::kNone), DefaultRetryPolicy(RetryKind::kFullJitter),
                PaimonDefaultPolicy()};
  c.runs = 4;
  c.commits = 3;
  c.seed = 11;
  c.threads = threads;
  return c;
}

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_TESTS_TINY_SWEEP_H_
