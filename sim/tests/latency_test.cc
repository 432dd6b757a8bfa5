#include "commitlab/sim/latency.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace commitlab::sim {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using Kind = Distribution::Kind;

Distribution Dist(std::string_view text) {
  Result<Distribution> d = ParseDistribution(text);
  EXPECT_TRUE(d.ok()) << d.status().ToString();
  return d.ok() ? *d : Distribution();
}

std::vector<int64_t> Draws(const Distribution& d, uint64_t seed, int n = 2000) {
  Rng rng(seed);
  std::vector<int64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(d.DrawMicros(rng));
  return out;
}

TEST(LatencyTest, DefaultModelIsZeroAndDrawsNothing) {
  LatencyModel m;
  Rng rng(1);
  Rng untouched(1);
  for (int op = 0; op < kStorageOpCount; ++op) {
    EXPECT_EQ(m.RequestMicros(static_cast<StorageOp>(op), rng), 0);
    EXPECT_EQ(m.ResponseMicros(static_cast<StorageOp>(op), rng), 0);
  }
  EXPECT_EQ(rng.Next(), untouched.Next());
  EXPECT_EQ(FormatLatencyModel(m), "*=const:0");
  Result<LatencyModel> empty = ParseLatencyModel("");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, m);
}

TEST(LatencyTest, ConstantIsExactAndDrawsNothing) {
  Rng rng(3);
  Rng untouched(3);
  EXPECT_EQ(Dist("const:1.5").DrawMicros(rng), 1500);
  EXPECT_EQ(Dist("constant:0.001").DrawMicros(rng), 1);
  EXPECT_EQ(rng.Next(), untouched.Next());
}

TEST(LatencyTest, UniformStaysWithinItsBoundsAndCoversThem) {
  // 1001 possible values: 20000 draws miss an end with probability ~e^-20 under any seed.
  const std::vector<int64_t> d = Draws(Dist("uniform:2,3"), 9, 20000);
  EXPECT_EQ(*std::min_element(d.begin(), d.end()), 2000);
  EXPECT_EQ(*std::max_element(d.begin(), d.end()), 3000);
  const std::vector<int64_t> fine = Draws(Dist("uniform:0,0.002"), 9);
  EXPECT_EQ(*std::min_element(fine.begin(), fine.end()), 0);
  EXPECT_EQ(*std::max_element(fine.begin(), fine.end()), 2);
}

TEST(LatencyTest, NormalIsFoldedAtZero) {
  // Mean 0: half the raw draws are negative; folded, none is, and the mean is sd * sqrt(2/pi).
  const std::vector<int64_t> d = Draws(Dist("normal:0,4"), 5, 20000);
  EXPECT_GE(*std::min_element(d.begin(), d.end()), 0);
  double sum = 0;
  for (int64_t x : d) sum += static_cast<double>(x);
  EXPECT_NEAR(sum / static_cast<double>(d.size()), 4000 * std::sqrt(2 / 3.141592653589793), 100);
}

TEST(LatencyTest, ExponentialIsNonNegativeWithItsMean) {
  const std::vector<int64_t> d = Draws(Dist("exp:2"), 5, 20000);
  EXPECT_GE(*std::min_element(d.begin(), d.end()), 0);
  double sum = 0;
  for (int64_t x : d) sum += static_cast<double>(x);
  EXPECT_NEAR(sum / static_cast<double>(d.size()), 2000, 60);
}

TEST(LatencyTest, DrawsAreDeterministicPerSeed) {
  for (std::string_view spec : {"uniform:0,5", "normal:10,2", "exp:3"}) {
    EXPECT_EQ(Draws(Dist(spec), 42, 100), Draws(Dist(spec), 42, 100)) << spec;
    EXPECT_NE(Draws(Dist(spec), 42, 100), Draws(Dist(spec), 43, 100)) << spec;
  }
}

TEST(LatencyTest, MostSpecificKeyWinsWhateverTheOrder) {
  Result<LatencyModel> m =
      ParseLatencyModel("publish=normal:10,2; read-latest=const:1;*=uniform:0,2;publish.response=const:7");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  auto req = [&](StorageOp op) { return m->request[static_cast<size_t>(op)]; };
  auto resp = [&](StorageOp op) { return m->response[static_cast<size_t>(op)]; };
  EXPECT_EQ(req(StorageOp::kPublish), (Distribution{Kind::kNormal, 10, 2}));
  EXPECT_EQ(resp(StorageOp::kPublish), (Distribution{Kind::kConstant, 7, 0}));
  EXPECT_EQ(req(StorageOp::kReadLatest), (Distribution{Kind::kConstant, 1, 0}));
  EXPECT_EQ(resp(StorageOp::kReadLatest), (Distribution{Kind::kConstant, 1, 0}));
  EXPECT_EQ(req(StorageOp::kWriteManifest), (Distribution{Kind::kUniform, 0, 2}));
  EXPECT_EQ(resp(StorageOp::kReadSnapshot), (Distribution{Kind::kUniform, 0, 2}));

  EXPECT_EQ(FormatLatencyModel(*m),
            "read-latest=const:1;read-snapshot=uniform:0,2;write-manifest=uniform:0,2;"
            "publish.request=normal:10,2;publish.response=const:7;write-data=uniform:0,2;check-data=uniform:0,2");
  Result<LatencyModel> again = ParseLatencyModel(FormatLatencyModel(*m));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *m);

  Result<LatencyModel> star_hop = ParseLatencyModel("*.request=exp:1;*=const:2;write-manifest.request=const:3");
  ASSERT_TRUE(star_hop.ok());
  EXPECT_EQ(star_hop->request[static_cast<size_t>(StorageOp::kPublish)], (Distribution{Kind::kExponential, 1, 0}));
  EXPECT_EQ(star_hop->response[static_cast<size_t>(StorageOp::kPublish)], (Distribution{Kind::kConstant, 2, 0}));
  EXPECT_EQ(star_hop->request[static_cast<size_t>(StorageOp::kWriteManifest)], (Distribution{Kind::kConstant, 3, 0}));
  EXPECT_EQ(FormatLatencyModel(*ParseLatencyModel("*=uniform:0.5,2")), "*=uniform:0.5,2");
}

TEST(LatencyTest, ErrorsNameThePieceAndWhatWasExpected) {
  struct Case {
    std::string_view spec;
    std::string_view message;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"publish", "piece \"publish\": expected KEY=DIST"},
           {"commit=const:1", "piece \"commit=const:1\": unknown operation \"commit\"; expected read-latest"},
           {"publish.reply=const:1", "unknown hop \"reply\"; expected request or response"},
           {"publish=gamma:1",
            "unknown distribution \"gamma\"; expected const:MS, uniform:LO,HI, normal:MEAN,SD or "
            "exp:MEAN"},
           {"publish=uniform:1", "\"uniform:1\": expected uniform:LO,HI (milliseconds)"},
           {"publish=uniform:3,1", "\"uniform:3,1\": expected LO <= HI"},
           {"publish=normal:10,-2", "expected normal:MEAN,SD with milliseconds from 0 to 1e9, got \"-2\""},
           {"publish=exp:x", "got \"x\""},
           {"publish=const:1;publish=const:2", "\"publish\" is given twice"},
       }) {
    Result<LatencyModel> m = ParseLatencyModel(c.spec);
    ASSERT_FALSE(m.ok()) << c.spec;
    EXPECT_EQ(m.status().code(), Code::kInvalidArgument);
    EXPECT_THAT(m.status().message(), StartsWith(fmt::format("latency spec \"{}\": piece \"", c.spec)));
    EXPECT_THAT(m.status().message(), HasSubstr(c.message)) << c.spec;
  }
}

}  // namespace
}  // namespace commitlab::sim
