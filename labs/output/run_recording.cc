#include "output/run_recording.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

#include "commitlab/sim/explain.h"

namespace commitlab::cli {

Result<std::unique_ptr<RunRecording>> RunRecording::Start(Wants wants, const sim::Json& header) {
  std::unique_ptr<RunRecording> r(new RunRecording(std::move(wants)));
  r->path_ = RunHistoryPath(r->wants_.trace, r->wants_.timeline);
  if (!r->path_.empty()) {
    if (r->wants_.trace.empty()) r->scratch_ = std::make_unique<TemporaryFile>(r->path_);
    COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<HistoryFile> created, HistoryFile::Create(r->path_, header));
    r->file_ = std::move(created);
  } else if (r->wants_.explain) {
    r->memory_ = std::make_unique<sim::History>();
    r->memory_->Header(header);
  }
  return r;
}

RunRecording::~RunRecording() = default;

sim::History* RunRecording::history() {
  if (file_) return file_->history();
  return memory_.get();
}

Status RunRecording::Finish(std::string_view command, const sim::Json& footer) {
  if (file_) COMMITLAB_RETURN_IF_ERROR(file_->Finish(footer));
  if (memory_) memory_->Footer(footer);
  if (wants_.timeline.empty() && !wants_.explain) return Status::OK();
  if (!wants_.timeline.empty()) {
    // A timeline is only asked for with a history file (RunHistoryPath), which it reads line by line.
    Result<std::string> picture =
        DrawTimeline(command, path_, wants_.timeline, sim::TimelineOptions{.language = wants_.language});
    if (!picture.ok()) return Status::InvalidArgument(fmt::format("--timeline: {}", picture.status().message()));
    timeline_summary_ = *picture;
  }
  if (!wants_.explain) return Status::OK();
  // The history, read whole for the explanations.
  std::vector<sim::Json> lines;
  if (file_) {
    COMMITLAB_ASSIGN_OR_RETURN(std::vector<sim::Json> read, ReadHistoryFile(path_));
    lines = std::move(read);
  } else {
    for (const std::string& line : memory_->lines()) lines.push_back(sim::Json::parse(line));
  }
  Result<std::vector<sim::Explanation>> why = sim::ExplainHistory(lines, wants_.language);
  if (!why.ok()) return Status::InvalidArgument(fmt::format("--explain: {}", why.status().message()));
  explanation_ = sim::ExplanationText(*why, wants_.explain_max_per_kind, wants_.language);
  explanations_ = std::move(*why);
  return Status::OK();
}

}  // namespace commitlab::cli
