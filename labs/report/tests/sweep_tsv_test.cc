#include "commitlab/report/sweep_tsv.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tiny_sweep.h"

namespace commitlab::report {
namespace {

using sim::Experiment;
using ::testing::HasSubstr;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(text.substr(start, nl - start));
  return out;
}

size_t Fields(const std::string& line) { return static_cast<size_t>(std::count(line.begin(), line.end(), '\t')) + 1; }

TEST(SweepTsvTest, HeaderThenOneRowPerPoint) {
  for (Experiment e : {Experiment::kBrooker, Experiment::kCapacity, Experiment::kFormats}) {
    sim::SweepResult r = sim::RunSweep(TinyConfig(e, 2));
    const std::vector<std::string> lines = Lines(SweepTsv(r));
    ASSERT_EQ(lines.size(), 1 + r.rows.size());
    EXPECT_EQ(lines[0], SweepTsvHeader(e));
    for (const std::string& line : lines) EXPECT_EQ(Fields(line), Fields(lines[0])) << line;
  }
  EXPECT_THAT(SweepTsvHeader(Experiment::kBrooker),
              HasSubstr("writers\tcapacity_rps\tpolicy\truns\tmean_calls\tmean_completion_ms"));
  EXPECT_THAT(SweepTsvHeader(Experiment::kFormats), HasSubstr("protocol\tcapacity_rps\tpolicy"));
  EXPECT_THAT(SweepTsvHeader(Experiment::kFormats), HasSubstr("commits_per_s\tcommits_per_s_p10\tcommits_per_s_p90"));
}

}  // namespace
}  // namespace commitlab::report
