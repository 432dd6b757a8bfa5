#include "commitlab/sim/latency.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "commitlab/core/spec_parse.h"

namespace commitlab::sim {
namespace {

constexpr double kMaxMillis = 1e9;  // ~11.6 days: far beyond any latency, far from overflow
constexpr std::string_view kExpected = "expected const:MS, uniform:LO,HI, normal:MEAN,SD or exp:MEAN";

bool ParseMillis(std::string_view s, double* out) {
  s = TrimBlanks(s);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return !s.empty() && ec == std::errc() && ptr == s.data() + s.size() && std::isfinite(*out) && *out >= 0 &&
         *out <= kMaxMillis;
}

}  // namespace

std::string FormatDistribution(const Distribution& d) {
  switch (d.kind) {
    case Distribution::Kind::kConstant: return fmt::format("const:{}", d.a);
    case Distribution::Kind::kUniform: return fmt::format("uniform:{},{}", d.a, d.b);
    case Distribution::Kind::kNormal: return fmt::format("normal:{},{}", d.a, d.b);
    case Distribution::Kind::kExponential: return fmt::format("exp:{}", d.a);
  }
  return "?";
}

Result<Distribution> ParseDistribution(std::string_view text) {
  text = TrimBlanks(text);
  const Cut name_and_args = CutAtFirst(text, ':');
  const std::string_view name = name_and_args.head;
  const std::vector<std::string_view> args =
      name_and_args.tail ? SplitOn(*name_and_args.tail, ',') : std::vector<std::string_view>();
  Distribution d;
  size_t want = 0;
  std::string_view usage;
  if (name == "const" || name == "constant") {
    d.kind = Distribution::Kind::kConstant;
    want = 1;
    usage = "const:MS";
  } else if (name == "uniform") {
    d.kind = Distribution::Kind::kUniform;
    want = 2;
    usage = "uniform:LO,HI";
  } else if (name == "normal") {
    d.kind = Distribution::Kind::kNormal;
    want = 2;
    usage = "normal:MEAN,SD";
  } else if (name == "exp" || name == "exponential") {
    d.kind = Distribution::Kind::kExponential;
    want = 1;
    usage = "exp:MEAN";
  } else {
    return Status::InvalidArgument(fmt::format("unknown distribution \"{}\"; {}", name, kExpected));
  }
  if (args.size() != want)
    return Status::InvalidArgument(fmt::format("\"{}\": expected {} (milliseconds)", text, usage));
  double* slots[] = {&d.a, &d.b};
  for (size_t i = 0; i < want; ++i) {
    if (!ParseMillis(args[i], slots[i]))
      return Status::InvalidArgument(
          fmt::format("\"{}\": expected {} with milliseconds from 0 to 1e9, got \"{}\"", text, usage, args[i]));
  }
  if (d.kind == Distribution::Kind::kUniform && d.a > d.b)
    return Status::InvalidArgument(fmt::format("\"{}\": expected LO <= HI", text));
  return d;
}

Result<LatencyModel> ParseLatencyModel(std::string_view spec) {
  LatencyModel m;
  // Per slot (hop, op): the specificity of the key that set it, -1 for none.
  int level[2][kStorageOpCount];
  for (auto& hop : level)
    for (int& l : hop) l = -1;
  std::set<std::string, std::less<>> seen;
  for (std::string_view piece : SplitOn(spec, ';')) {
    piece = TrimBlanks(piece);
    if (piece.empty()) continue;
    auto error = [&](std::string_view what) {
      return Status::InvalidArgument(fmt::format("latency spec \"{}\": piece \"{}\": {}", spec, piece, what));
    };
    const std::optional<KeyValue> kv = SplitKeyValue(piece);
    if (!kv) return error("expected KEY=DIST, e.g. publish=normal:10,2");
    const std::string_view key = TrimBlanks(kv->key);
    const Cut op_and_hop = CutAtFirst(key, '.');
    const std::string_view op_name = op_and_hop.head;

    int op = -1;  // -1: every op
    if (op_name != "*") {
      for (int i = 0; i < kStorageOpCount; ++i)
        if (StorageOpName(static_cast<StorageOp>(i)) == op_name) op = i;
      if (op < 0) {
        std::string ops;
        for (int i = 0; i < kStorageOpCount; ++i) ops += fmt::format("{}, ", StorageOpName(static_cast<StorageOp>(i)));
        return error(fmt::format("unknown operation \"{}\"; expected {}or *", op_name, ops));
      }
    }
    bool hops[2] = {true, true};  // request, response
    if (const std::optional<std::string_view> hop_name = op_and_hop.tail) {
      if (*hop_name == "request") {
        hops[1] = false;
      } else if (*hop_name == "response") {
        hops[0] = false;
      } else {
        return error(fmt::format("unknown hop \"{}\"; expected request or response", *hop_name));
      }
    }
    if (!seen.emplace(key).second) return error(fmt::format("\"{}\" is given twice", key));
    Result<Distribution> dist = ParseDistribution(kv->value);
    if (!dist.ok()) return error(dist.status().message());

    const int specificity = (op >= 0 ? 2 : 0) + (op_and_hop.tail ? 1 : 0);
    for (int h = 0; h < 2; ++h) {
      if (!hops[h]) continue;
      for (int i = 0; i < kStorageOpCount; ++i) {
        if ((op >= 0 && i != op) || level[h][i] > specificity) continue;
        level[h][i] = specificity;
        (h == 0 ? m.request : m.response)[static_cast<size_t>(i)] = *dist;
      }
    }
  }
  return m;
}

std::string FormatLatencyModel(const LatencyModel& m) {
  bool uniform = true;
  for (size_t i = 0; i < kStorageOpCount; ++i)
    uniform = uniform && m.request[i] == m.request[0] && m.response[i] == m.request[0];
  if (uniform) return "*=" + FormatDistribution(m.request[0]);
  std::string out;
  for (size_t i = 0; i < kStorageOpCount; ++i) {
    const std::string_view op = StorageOpName(static_cast<StorageOp>(i));
    if (!out.empty()) out += ';';
    if (m.request[i] == m.response[i]) {
      out += fmt::format("{}={}", op, FormatDistribution(m.request[i]));
    } else {
      out += fmt::format("{0}.request={1};{0}.response={2}", op, FormatDistribution(m.request[i]),
                         FormatDistribution(m.response[i]));
    }
  }
  return out;
}

}  // namespace commitlab::sim
