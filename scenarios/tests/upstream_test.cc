// The cases taken from the engines' own test suites (scenarios/upstream/): each names its upstream
// test file and method and pins upstream's asserted outcome on every schedule, not just its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/runner.h"

namespace commitlab::scenarios {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> UpstreamFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(COMMITLAB_SOURCE_DIR) / "scenarios" / "upstream"))
    if (entry.path().extension() == ".scn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string Problems(const RunReport& r) {
  std::string out;
  for (const ExpectationResult& e : r.expectations)
    if (!e.passed) out += e.where + ": " + e.text + " (saw " + e.seen + ")\n";
  for (const std::string& e : r.run_errors) out += "run error: " + e + "\n";
  for (const ViolationReport& v : r.violations)
    if (!v.expected) out += "violation: " + v.violation.ToString() + "\n";
  return out;
}

class UpstreamTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(UpstreamTest, NamesItsUpstreamTest) {
  Result<Scenario> s = LoadScenarioFile(GetParam().string());
  ASSERT_TRUE(s.ok()) << s.status().message();
  // "OWNER/REPO path/to/TestFile.java, method": the file and method a reader can open. (Checked by
  // hand: <regex> trips GCC 12's -Wmaybe-uninitialized in the sanitizer builds.)
  const std::string& src = s->source;
  const size_t space = src.find(' ');
  const size_t comma = src.find(", ");
  ASSERT_NE(space, std::string::npos) << src;
  ASSERT_NE(comma, std::string::npos) << src;
  const std::string repo = src.substr(0, space);
  const std::string path = src.substr(space + 1, comma - space - 1);
  EXPECT_TRUE(repo == "apache/paimon" || repo == "apache/iceberg" || repo == "delta-io/delta") << src;
  EXPECT_TRUE(path.find('/') != std::string::npos && path.find(' ') == std::string::npos &&
              (path.ends_with(".java") || path.ends_with(".scala")))
      << src;
  EXPECT_GT(src.size(), comma + 2) << "a method after the file: " << src;
  const std::string engine = GetParam().filename().string().substr(0, GetParam().filename().string().find('_'));
  EXPECT_EQ(repo, engine == "delta" ? "delta-io/delta" : "apache/" + engine) << "the file name starts with its engine";
  EXPECT_FALSE(s->expectations.empty());
}

TEST_P(UpstreamTest, HoldsOnItsOwnScheduleOnTwentySeedsAndOnThreads) {
  Result<Scenario> s = LoadScenarioFile(GetParam().string());
  ASSERT_TRUE(s.ok()) << s.status().message();
  Result<RunReport> own = RunScenario(*s, {});
  ASSERT_TRUE(own.ok()) << own.status().message();
  EXPECT_TRUE(own->ok()) << Problems(*own);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RunOptions o;
    o.seed = seed;
    o.sched = "random";
    Result<RunReport> r = RunScenario(*s, o);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->ok()) << "seed " << seed << ":\n" << Problems(*r);
  }
  RunOptions threads;
  threads.sched = "free";
  Result<RunReport> t = RunScenario(*s, threads);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_TRUE(t->ok()) << "threads:\n" << Problems(*t);
}

std::string Name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string n = info.param.stem().string();
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(Files, UpstreamTest, ::testing::ValuesIn(UpstreamFiles()), Name);

}  // namespace
}  // namespace commitlab::scenarios
