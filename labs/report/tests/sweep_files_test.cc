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
  sim::SweepResult formats = sim::RunSweep(TinyConfig(sim::Experiment::kFormats, 2));
  std::vector<std::string> written;
  ASSERT_TRUE(WriteSweepOutputs(dir.string(), &brooker, &formats, &written).ok());
  for (const char* f :
       {"brooker.tsv", "formats.tsv", "brooker-calls.svg", "brooker-completion.svg", "formats-commits-per-s.svg",
        "formats-attempts-per-commit.svg", "formats-p99-latency.svg", "summary.md"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(dir / f)) << f;
    EXPECT_NE(std::find(written.begin(), written.end(), (dir / f).string()), written.end()) << f;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace commitlab::report
