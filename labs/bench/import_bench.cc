// `commitlab import`'s readers on synthetic logs (the shapes of synthetic_log.py, written here in a
// scratch folder once per size): the time to read N commits into a sink that counts them, per
// format. Counters: commits per second, and for Iceberg the passes' price: the time holding
// `memory_entries` log entries at a time over the time holding them all, measured in one loop
// (ImportOptions::memory_entries; the memory side is labs/bench/import_memory.sh).
//
//   BM_ImportDelta/<n>              a streaming query's appends, an OPTIMIZE every 10th commit
//   BM_ImportPaimon/<n>             two writers' APPENDs, a COMPACT every 10th
//   BM_ImportIcebergFolder/<n>/<e>  a metadata file per version, 10 snapshots kept
//   BM_ImportIcebergFile/<n>/<e>    one metadata file holding n snapshots
#include <unistd.h>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "commitlab/sim/import/import.h"

namespace commitlab {
namespace {

namespace fs = std::filesystem;
namespace imp = sim::import;
using Clock = std::chrono::steady_clock;

constexpr int64_t kT0 = 1704067200000;  // 2024-01-01, as synthetic_log.py

class Count final : public imp::ImportSink {
 public:
  Status Begin(const imp::ImportSource&) override { return Status::OK(); }
  Status Commit(imp::ImportedCommit) override {
    ++commits;
    return Status::OK();
  }
  Status Found(const imp::Finding&) override { return Status::OK(); }
  Status End(const imp::TableFacts&) override { return Status::OK(); }
  int64_t commits = 0;
};

// A folder for one log, made once per process and shape, removed at exit.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / fmt::format("commitlab-bench-import-{}", ::getpid());
  Scratch() { fs::remove_all(dir); }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

fs::path LogDir(const std::string& name) {
  static const Scratch scratch;
  return scratch.dir / name;
}

void Write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

fs::path DeltaLog(int64_t n) {
  const fs::path dir = LogDir(fmt::format("delta-{}", n));
  if (fs::exists(dir)) return dir;
  Write(dir / "_delta_log" / fmt::format("{:020}.json", 0),
        fmt::format("{{\"commitInfo\":{{\"timestamp\":{},\"operation\":\"CREATE TABLE\",\"engineInfo\":\"bench\"}}}}\n"
                    "{{\"metaData\":{{\"id\":\"b\",\"format\":{{\"provider\":\"parquet\",\"options\":{{}}}},"
                    "\"schemaString\":\"{{}}\",\"partitionColumns\":[],\"configuration\":{{}}}}}}\n"
                    "{{\"protocol\":{{\"minReaderVersion\":1,\"minWriterVersion\":2}}}}\n",
                    kT0));
  int64_t first_live = 1;
  for (int64_t v = 1; v < n; ++v) {
    std::string text = fmt::format(
        "{{\"commitInfo\":{{\"timestamp\":{},\"operation\":\"{}\",\"readVersion\":{},\"isBlindAppend\":{},"
        "\"engineInfo\":\"bench\"}}}}\n",
        kT0 + 1000 * v, v % 10 == 0 ? "OPTIMIZE" : "STREAMING UPDATE", v - 1, v % 10 != 0);
    if (v % 10 == 0) {
      for (int64_t f = first_live; f < v; ++f)
        text += fmt::format("{{\"remove\":{{\"path\":\"part-{}.parquet\",\"dataChange\":false}}}}\n", f);
      first_live = v;
      text += fmt::format(
          "{{\"add\":{{\"path\":\"part-{}.parquet\",\"partitionValues\":{{}},\"size\":1,"
          "\"modificationTime\":0,\"dataChange\":false}}}}\n",
          v);
    } else {
      text += fmt::format("{{\"txn\":{{\"appId\":\"q\",\"version\":{}}}}}\n", v);
      text += fmt::format(
          "{{\"add\":{{\"path\":\"part-{}.parquet\",\"partitionValues\":{{}},\"size\":1,"
          "\"modificationTime\":0,\"dataChange\":true}}}}\n",
          v);
    }
    Write(dir / "_delta_log" / fmt::format("{:020}.json", v), text);
  }
  return dir;
}

fs::path PaimonLog(int64_t n) {
  const fs::path dir = LogDir(fmt::format("paimon-{}", n));
  if (fs::exists(dir)) return dir;
  for (int64_t i = 1; i <= n; ++i) {
    Write(dir / "snapshot" / fmt::format("snapshot-{}", i),
          fmt::format("{{\"version\":3,\"id\":{},\"schemaId\":0,\"baseManifestList\":\"b-{}\",\"deltaManifestList\":"
                      "\"d-{}\",\"commitUser\":\"writer-{}\",\"commitIdentifier\":{},\"commitKind\":\"{}\","
                      "\"timeMillis\":{},\"totalRecordCount\":{},\"deltaRecordCount\":1}}",
                      i, i, i, i % 2, i, i % 10 == 0 ? "COMPACT" : "APPEND", kT0 + 1000 * i, i));
  }
  return dir;
}

std::string IcebergSnapshot(int64_t i) {
  return fmt::format(
      "{{\"sequence-number\":{},\"snapshot-id\":{},{}\"timestamp-ms\":{},\"summary\":{{\"operation\":\"append\","
      "\"added-data-files\":\"1\",\"spark.app.id\":\"app\"}},\"manifest-list\":\"snap-{}.avro\",\"schema-id\":0}}",
      i, 1000 + i, i > 1 ? fmt::format("\"parent-snapshot-id\":{},", 999 + i) : "", kT0 + 1000 * i, i);
}

// A format-v2 metadata file whose snapshots are first..last; the metadata-log names the 10
// versions before `version`.
std::string IcebergMetadata(int64_t version, int64_t first, int64_t last) {
  std::string snapshots;
  std::string log;
  for (int64_t i = first; i <= last; ++i) {
    snapshots += (i == first ? "" : ",") + IcebergSnapshot(i);
    log += fmt::format("{}{{\"timestamp-ms\":{},\"snapshot-id\":{}}}", i == first ? "" : ",", kT0 + 1000 * i, 1000 + i);
  }
  std::string metadata_log;
  for (int64_t v = std::max<int64_t>(1, version - 10); v < version; ++v)
    metadata_log += fmt::format("{}{{\"timestamp-ms\":{},\"metadata-file\":\"/t/metadata/v{}.metadata.json\"}}",
                                metadata_log.empty() ? "" : ",", kT0 + 1000 * v, v);
  return fmt::format(
      "{{\"format-version\":2,\"table-uuid\":\"u\",\"location\":\"/t\",\"last-sequence-number\":{},"
      "\"last-updated-ms\":{},\"last-column-id\":1,\"current-schema-id\":0,\"schemas\":[{{\"type\":\"struct\","
      "\"schema-id\":0,\"fields\":[]}}],\"default-spec-id\":0,\"partition-specs\":[{{\"spec-id\":0,\"fields\":[]}}],"
      "\"last-partition-id\":999,\"default-sort-order-id\":0,\"sort-orders\":[{{\"order-id\":0,\"fields\":[]}}],"
      "\"properties\":{{}},\"current-snapshot-id\":{},\"snapshots\":[{}],\"snapshot-log\":[{}],"
      "\"metadata-log\":[{}]}}",
      last, kT0 + 1000 * std::max(version, last), 1000 + last, snapshots, log, metadata_log);
}

fs::path IcebergFolder(int64_t n) {
  const fs::path dir = LogDir(fmt::format("iceberg-{}", n));
  if (fs::exists(dir)) return dir;
  for (int64_t v = 1; v <= n; ++v)
    Write(dir / "metadata" / fmt::format("v{}.metadata.json", v), IcebergMetadata(v, std::max<int64_t>(1, v - 9), v));
  return dir;
}

fs::path IcebergFile(int64_t n) {
  const fs::path file = LogDir(fmt::format("iceberg-file-{}", n)) / "v1.metadata.json";
  if (!fs::exists(file)) Write(file, IcebergMetadata(1, 1, n));
  return file;
}

// Imports `path` once; the commits read, or an error in `state`.
int64_t ImportOnce(benchmark::State& state, const fs::path& path, int64_t memory_entries) {
  Count sink;
  const Status st = imp::ImportLog({.path = path.string(), .format = {}, .memory_entries = memory_entries}, &sink);
  if (!st.ok()) state.SkipWithError(st.message().c_str());
  return sink.commits;
}

void ImportLoop(benchmark::State& state, const fs::path& path) {
  int64_t commits = 0;
  for (auto _ : state) commits += ImportOnce(state, path, 0);
  state.counters["commits_per_s"] = benchmark::Counter(static_cast<double>(commits), benchmark::Counter::kIsRate);
}

// Each iteration imports the log twice, holding every entry and then `memory_entries`: the ratio
// is what the bounded memory costs in time.
void PairedLoop(benchmark::State& state, const fs::path& path) {
  double all_s = 0;
  double few_s = 0;
  int64_t commits = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    commits += ImportOnce(state, path, int64_t{1} << 40);
    const auto t1 = Clock::now();
    ImportOnce(state, path, state.range(1));
    all_s += std::chrono::duration<double>(t1 - t0).count();
    few_s += std::chrono::duration<double>(Clock::now() - t1).count();
  }
  state.counters["commits_per_s"] = benchmark::Counter(static_cast<double>(commits), benchmark::Counter::kIsRate);
  state.counters["few/all"] = all_s > 0 ? few_s / all_s : 0;
}

void BM_ImportDelta(benchmark::State& state) { ImportLoop(state, DeltaLog(state.range(0))); }
void BM_ImportPaimon(benchmark::State& state) { ImportLoop(state, PaimonLog(state.range(0))); }
void BM_ImportIcebergFolder(benchmark::State& state) { PairedLoop(state, IcebergFolder(state.range(0))); }
void BM_ImportIcebergFile(benchmark::State& state) { PairedLoop(state, IcebergFile(state.range(0))); }

BENCHMARK(BM_ImportDelta)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImportPaimon)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImportIcebergFolder)->Args({1000, 100})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImportIcebergFile)->Args({1000, 100})->Args({10000, 1000})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace commitlab
