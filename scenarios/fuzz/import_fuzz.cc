// libFuzzer target for `commitlab import`'s readers: the input as a Delta commit file, as an Iceberg
// metadata file and as a Paimon snapshot file, each imported into a history and a scenario. A log
// that cannot be read is InvalidArgument naming the file; nothing crashes, hangs or throws.
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "commitlab/sim/history.h"
#include "commitlab/sim/import/import.h"
#include "commitlab/sim/import/import_scenario.h"
#include "commitlab/sim/import/import_sinks.h"
#include "fuzz_check.h"

namespace {

namespace fs = std::filesystem;
namespace imp = commitlab::sim::import;

// One scratch folder per process, holding one table of each format; removed when the process ends.
struct ScratchDir {
  std::string path;
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "commitlab-import-fuzz-XXXXXX").string();
    const char* made = ::mkdtemp(pattern.data());
    commitlab::fuzz::Check(made != nullptr);
    path = made;
    for (const char* sub : {"delta/_delta_log", "iceberg", "paimon/snapshot"}) {
      fs::create_directories(fs::path(path) / sub);
    }
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

const std::string& Scratch() {
  static const ScratchDir dir;
  return dir.path;
}

void ImportOne(const std::string& table, const std::string& file, std::string_view text) {
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  commitlab::sim::History history;
  imp::HistorySink sink(&history, {{"command", "import"}});
  imp::ScenarioSink scenario({.commits = 3});
  imp::FanOut fan({&sink, &scenario});
  const commitlab::Status st = imp::ImportLog({.path = table, .format = {}}, &fan);
  if (!st.ok()) {
    commitlab::fuzz::Check(st.code() == commitlab::Code::kInvalidArgument);
    commitlab::fuzz::Check(st.message().starts_with(Scratch()));
    return;
  }
  commitlab::Result<std::string> text_of = scenario.Text();
  commitlab::fuzz::Check(text_of.ok() || text_of.status().code() == commitlab::Code::kInvalidArgument);
}

// An Iceberg reader holding two entries at a time (the snapshot-log joined part by part) answers
// as the one holding them all.
void ImportInParts(const std::string& table) {
  commitlab::sim::History whole_history;
  commitlab::sim::History parts_history;
  imp::HistorySink whole(&whole_history, {{"command", "import"}});
  imp::HistorySink parts(&parts_history, {{"command", "import"}});
  const commitlab::Status a = imp::ImportLog({.path = table, .format = {}}, &whole);
  const commitlab::Status b = imp::ImportLog({.path = table, .format = {}, .memory_entries = 2}, &parts);
  commitlab::fuzz::Check(a.ok() == b.ok() && a.message() == b.message());
  commitlab::fuzz::Check(!a.ok() || whole_history.lines() == parts_history.lines());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = commitlab::fuzz::AsText(data, size);
  const std::string& dir = Scratch();
  ImportOne(dir + "/delta", dir + "/delta/_delta_log/00000000000000000000.json", text);
  ImportOne(dir + "/iceberg/v1.metadata.json", dir + "/iceberg/v1.metadata.json", text);
  ImportInParts(dir + "/iceberg/v1.metadata.json");
  ImportOne(dir + "/paimon", dir + "/paimon/snapshot/snapshot-1", text);
  return 0;
}
