#include "commitlab/report/sweep_files.h"

#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tiny_sweep.h"

namespace commitlab::report {
namespace {

TEST(WriteSweepOutputsTest, WritesTsvPlotsAndSummary) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("commitlab-sweep-test-{}", getpid());
  std::filesystem::remove_all(dir);
  sim::SweepResult brooker = sim::RunSweep(TinyConfig(sim::Experiment::kBrooker, 2));
  sim::SweepResult capacity = sim::RunSweep(TinyConfig(sim::Experiment::kCapacity, 2));
  sim::SweepResult formats = sim::RunSweep(TinyConfig(sim::Experiment::kFormats, 2));
  std::vector<std::string> written;
  ASSERT_TRUE(WriteSweepOutputs(dir.string(), {&brooker, &capacity, &formats}, &written).ok());
  std::vector<std::string> expected = {"brooker.tsv", "capacity.tsv", "formats.tsv", "summary.md",
                                       "formats-protocols-commits-per-s.svg"};
  for (const char* prefix : {"brooker", "capacity"})
    for (const char* chart : {"calls", "completion", "gave-up", "calls-per-success", "latency-per-success"})
      expected.push_back(fmt::format("{}-{}.svg", prefix, chart));
  expected.push_back("capacity-throttled.svg");
  for (const char* protocol : {"paimon", "iceberg", "delta"})
    for (const char* chart : {"commits-per-s", "attempts-per-commit", "p99-latency", "gave-up"})
      expected.push_back(fmt::format("formats-{}-{}.svg", protocol, chart));
  for (const std::string& f : expected) {
    EXPECT_TRUE(std::filesystem::is_regular_file(dir / f)) << f;
    EXPECT_NE(std::find(written.begin(), written.end(), (dir / f).string()), written.end()) << f;
  }
  EXPECT_EQ(written.size(), expected.size());
  // Every plot the summary links to was written.
  const std::string summary = SweepSummaryMarkdown({&brooker, &capacity, &formats});
  for (size_t at = summary.find("]("); at != std::string::npos; at = summary.find("](", at + 1)) {
    const std::string link = summary.substr(at + 2, summary.find(')', at) - at - 2);
    EXPECT_TRUE(std::filesystem::is_regular_file(dir / link)) << link;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace commitlab::report
