#include "commitlab/report/sweep_files.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "commitlab/report/sweep_charts.h"
#include "commitlab/report/sweep_summary.h"
#include "commitlab/report/sweep_tsv.h"

namespace commitlab::report {
namespace {

Status WriteFile(const std::filesystem::path& path, const std::string& text, std::vector<std::string>* written) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  if (!f) return Status::IOError(fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
  written->push_back(path.string());
  return Status::OK();
}

}  // namespace

Status WriteSweepOutputs(const std::string& dir, const sim::SweepResult* brooker, const sim::SweepResult* formats,
                         std::vector<std::string>* written) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError(fmt::format("cannot create {}: {}", dir, ec.message()));
  for (const sim::SweepResult* r : {brooker, formats}) {
    if (r == nullptr) continue;
    const std::string name = std::string(sim::ExperimentName(r->config.experiment));
    COMMITLAB_RETURN_IF_ERROR(WriteFile(fs::path(dir) / (name + ".tsv"), SweepTsv(*r), written));
    for (const SweepChart& c : SweepCharts(*r))
      COMMITLAB_RETURN_IF_ERROR(WriteFile(fs::path(dir) / c.file, c.svg, written));
  }
  return WriteFile(fs::path(dir) / "summary.md", SweepSummaryMarkdown(brooker, formats), written);
}

}  // namespace commitlab::report
