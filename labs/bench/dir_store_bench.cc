// The directory store's commit against the bare publish it is built on, paired in one loop so the
// ratio holds on a noisy machine: each iteration times one bare publish (a small temp file +
// renameat2(RENAME_NOREPLACE)) and then one Paimon commit of one data file through DirStore (read
// the latest snapshot, write a manifest, publish, write the LATEST hint). Counters: bare_us and
// commit_us per operation, and commit/bare.
//
//   BM_CommitVsBarePublish/<fsync>/<hint>   fsync: 0 off, 1 data, 2 all; hint: 0 in place, 1 rename
#include <fcntl.h>
#include <unistd.h>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/dir_store.h"
#include "commitlab/sim/real_env.h"

namespace commitlab {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

fs::path ScratchDir(std::string_view what) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("commitlab-bench-{}-{}", what, ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// What every publish in the store rests on, with nothing else: write, close, renameat2.
bool BarePublish(const fs::path& dir, int64_t id, bool sync) {
  const std::string tmp = (dir / fmt::format(".snapshot-{}.tmp", id)).string();
  const std::string target = (dir / fmt::format("snapshot-{}", id)).string();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  static constexpr char kBody[] = "{\"version\":3,\"id\":1,\"commitUser\":\"bench\",\"commitIdentifier\":1}\n";
  bool ok = ::write(fd, kBody, sizeof kBody - 1) == static_cast<ssize_t>(sizeof kBody - 1);
  if (sync) ok = ok && ::fsync(fd) == 0;
  ok = ::close(fd) == 0 && ok;
  return ok && ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0;
}

Committable OneFileAppend(int64_t id) {
  DataFile f{.name = fmt::format("data-{}.parquet", id), .min_key = id, .max_key = id, .row_count = 1};
  return Committable{.identifier = id, .append_changes = {{ChangeKind::kAdd, f}}};
}

void BM_CommitVsBarePublish(benchmark::State& state) {
  const Fsync fsync = static_cast<Fsync>(state.range(0));
  const LatestHintWrite hint = static_cast<LatestHintWrite>(state.range(1));
  const fs::path bare_dir = ScratchDir("bare");
  const fs::path table_dir = ScratchDir("table");
  auto store = DirStore::Open(table_dir.string(), {.fsync = fsync, .latest_hint = hint});
  if (!store.ok()) {
    state.SkipWithError(store.status().message().c_str());
    return;
  }
  sim::RealEnv env(1);
  NullEventSink sink;
  paimon::Committer committer("bench", {}, &env, store->get(), &sink);
  Clock::duration bare{}, commit{};
  int64_t id = 0;
  for (auto _ : state) {
    ++id;
    const Clock::time_point t0 = Clock::now();
    const bool published = BarePublish(bare_dir, id, fsync != Fsync::kOff);
    const Clock::time_point t1 = Clock::now();
    Result<int> committed = committer.Commit(OneFileAppend(id));
    const Clock::time_point t2 = Clock::now();
    if (!published || !committed.ok() || *committed != 1) {
      state.SkipWithError(committed.ok() ? "bare publish failed" : committed.status().message().c_str());
      break;
    }
    bare += t1 - t0;
    commit += t2 - t1;
  }
  const double n = static_cast<double>(std::max<int64_t>(id, 1));
  const double bare_us = std::chrono::duration<double, std::micro>(bare).count() / n;
  const double commit_us = std::chrono::duration<double, std::micro>(commit).count() / n;
  state.counters["bare_us"] = bare_us;
  state.counters["commit_us"] = commit_us;
  state.counters["commit/bare"] = bare_us > 0 ? commit_us / bare_us : 0;
  state.SetLabel(
      fmt::format("fsync={} hint={}", FsyncName(fsync), hint == LatestHintWrite::kInPlace ? "in-place" : "rename"));
  fs::remove_all(bare_dir);
  fs::remove_all(table_dir);
}
BENCHMARK(BM_CommitVsBarePublish)->ArgsProduct({{0, 1, 2}, {0, 1}})->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace commitlab
