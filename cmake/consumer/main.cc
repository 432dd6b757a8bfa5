// Runs a two-writer race through the installed library and prints what a user would check.
#include <cstdio>

#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/runner.h"

namespace {

// S2 第 5 讲's race (docs/lectures.md#s2-5-race), shortened: every lost race is retried.
constexpr const char* kScenario = R"(
title "Two jobs append concurrently and race for snapshot ids"
table name=t protocol=paimon primary-key=false buckets=1
writer name=job-A
writer name=job-B
sched random
seed 42
retry paimon
repeat 10: job-A: write rows=1; commit
repeat 10: job-B: write rows=1; commit
expect latest-snapshot 20
expect per-user job-A=10 job-B=10
)";

}  // namespace

int main() {
  auto scenario = commitlab::scenarios::ParseScenario(kScenario, "consumer.scn");
  if (!scenario.ok()) {
    std::fprintf(stderr, "%s\n", scenario.status().ToString().c_str());
    return 2;
  }
  auto report = commitlab::scenarios::RunScenario(*scenario, {});
  if (!report.ok()) {
    std::fprintf(stderr, "%s\n", report.status().ToString().c_str());
    return 2;
  }
  std::printf("latest snapshot %lld, lost races %lld, expectations %d passed, %d failed\n",
              static_cast<long long>(report->latest_snapshot()), static_cast<long long>(report->tally.atomic_failures),
              report->expectations_passed(), report->expectations_failed());
  return report->ok() ? 0 : 1;
}
