#include "hunt/shard.h"

#include <sys/resource.h>

#include <fmt/format.h>

#include <charconv>

namespace commitlab::cli {
namespace {

bool ParseInt(std::string_view s, int* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

}  // namespace

Result<Shard> ParseShard(std::string_view text) {
  const size_t slash = text.find('/');
  Shard s;
  if (slash == std::string_view::npos || !ParseInt(text.substr(0, slash), &s.index) ||
      !ParseInt(text.substr(slash + 1), &s.count))
    return Status::InvalidArgument(fmt::format("--shard '{}' is not I/N (shard I of N, I from 0)", text));
  if (s.count < 1 || s.count > kMaxShards)
    return Status::InvalidArgument(fmt::format("--shard '{}': N must be 1..{}", text, kMaxShards));
  if (s.index < 0 || s.index >= s.count)
    return Status::InvalidArgument(fmt::format(
        "--shard '{}': I must be 0..{} (shards count from 0, as JOB_COMPLETION_INDEX and sbatch --array=0-{} do)", text,
        s.count - 1, s.count - 1));
  return s;
}

std::string FormatShard(const Shard& s) { return fmt::format("{}/{}", s.index, s.count); }

std::optional<SeedBlock> ShardSeeds(uint64_t first, uint64_t last, const Shard& s) {
  // n = last - first + 1 may be 2^64: n = q*N + r, computed from n - 1 without overflow; then
  // floor(n*i/N) = q*i + floor(r*i/N), where r*i < N^2 fits.
  const auto count = static_cast<uint64_t>(s.count);
  uint64_t q = (last - first) / count, r = (last - first) % count + 1;
  if (r == count) {
    ++q;
    r = 0;
  }
  auto start = [&](uint64_t i) { return q * i + r * i / count; };
  const uint64_t from = start(static_cast<uint64_t>(s.index));
  const uint64_t to = start(static_cast<uint64_t>(s.index) + 1);  // exclusive, from first
  if (from == to) return std::nullopt;
  return SeedBlock{.first = first + from, .last = first + (to - 1)};
}

sim::Json ShardMember(const Shard& s, std::string_view kind, std::string_view scenario_sha256, sim::Json job,
                      sim::Json covers, sim::Json partial) {
  return {{"index", s.index},
          {"count", s.count},
          {"kind", kind},
          {"scenario_sha256", scenario_sha256},
          {"job", std::move(job)},
          {"covers", std::move(covers)},
          {"cpu_seconds", CpuSeconds()},
          {"partial", std::move(partial)}};
}

double CpuSeconds() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

}  // namespace commitlab::cli
