#include "commitlab/report/sweep_files.h"

#include <fmt/format.h>

#include <filesystem>

#include "commitlab/report/replace_files.h"
#include "commitlab/report/sweep_charts.h"
#include "commitlab/report/sweep_summary.h"
#include "commitlab/report/sweep_tsv.h"

namespace commitlab::report {

Status WriteSweepOutputs(const std::string& dir, const SweepResults& results, std::vector<std::string>* written) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError(fmt::format("cannot create {}: {}", dir, ec.message()));
  std::vector<FileText> files;
  for (const sim::SweepResult* r : {results.brooker, results.capacity, results.formats}) {
    if (r == nullptr) continue;
    const std::string name = std::string(sim::ExperimentName(r->config.experiment));
    files.push_back({fs::path(dir) / (name + ".tsv"), SweepTsv(*r)});
    for (SweepChart& c : SweepCharts(*r)) files.push_back({fs::path(dir) / c.file, std::move(c.svg)});
  }
  files.push_back({fs::path(dir) / "summary.md", SweepSummaryMarkdown(results)});
  COMMITLAB_RETURN_IF_ERROR(ReplaceFiles(files));
  for (const FileText& f : files) written->push_back(f.path.string());
  return Status::OK();
}

}  // namespace commitlab::report
