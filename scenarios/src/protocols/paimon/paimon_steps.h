// The steps of a Paimon table's writers (scenarios/README.md, "Steps"): what the parser makes of
// each step line, read by the writer (paimon_writer.cc) with OpAs / OpIf.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_STEPS_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_STEPS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/scenarios/scenario.h"

namespace commitlab::scenarios {

// write: a new L0 data file, pending in the writer until it commits or checkpoints.
struct WriteOp final : StepOpBase<WriteOp> {
  std::string_view name() const override { return "write"; }
  // Fresh keys in a later iteration of its repeat (given ones: the parser expands the line).
  std::unique_ptr<StepOp> Advanced(int64_t keys, int64_t) const override {
    auto next = std::make_unique<WriteOp>(*this);
    next->min_key += keys;
    next->max_key += keys;
    return next;
  }

  int64_t rows = 1;
  // Given with keys=LO..HI, or else the table's next fresh keys in file order, so the same file
  // always gives the same keys whatever the schedule.
  int64_t min_key = 0;
  int64_t max_key = 0;
  std::string partition;  // "" or "dt=2024-01-01/hr=1"
  int32_t bucket = 0;
};

// commit: the pending files (and pending compaction) as one committable with `identifier`
// (Paimon: an APPEND snapshot, then a COMPACT snapshot when a compaction is pending); or, with
// `checkpoint`, the saved committable of that name, as a Flink committer does once the checkpoint
// completes.
struct CommitOp final : StepOpBase<CommitOp> {
  std::string_view name() const override { return "commit"; }
  bool publishes() const override { return true; }
  bool shares_state() const override { return !checkpoint.empty(); }  // another writer's checkpoint
  bool told_by_its_log() const override { return true; }
  // The next identifiers in a later iteration of its repeat; a checkpoint's commit names another
  // checkpoint each time, so its line is expanded.
  std::unique_ptr<StepOp> Advanced(int64_t, int64_t identifiers) const override {
    if (!checkpoint.empty()) return nullptr;
    auto next = std::make_unique<CommitOp>(*this);
    next->identifier += identifiers;
    return next;
  }

  int64_t identifier = 0;  // given, else the writer's previous identifier + 1; the checkpoint's
  std::string checkpoint;  // "" or the name of a checkpoint saved on an earlier line
  // Runs conflict detection on the APPEND too, as TableCommitImpl.commit(..., checkAppendFiles)
  // does; a plain commit of fresh files skips it (FileStoreCommitImpl.commit).
  bool check_append_files = false;
  // For this commit only, FileStoreCommit.ignoreEmptyCommit(...); unset: the table's setting.
  std::optional<bool> ignore_empty_commit;
  // `overwrite=PARTITION|all`: FileStoreCommit.overwrite of that partition ("" = all), an
  // OVERWRITE snapshot that first deletes the target's live files.
  std::optional<std::string> overwrite;
};

// compact: rewrite chosen files of one bucket from one level into one file of another level; the
// result is pending until the next commit or checkpoint.
struct CompactOp final : StepOpBase<CompactOp> {
  std::string_view name() const override { return "compact"; }
  size_t list_entries() const override { return files.size(); }

  std::string partition;
  int32_t bucket = 0;
  int32_t from_level = 0;
  int32_t to_level = 0;
  // Indexes into the writer's view of from_level when the step runs (oldest file first), or all.
  bool all_files = true;
  std::vector<int32_t> files;
  // The output file's key range and row count; by default the union of the inputs' ranges and the
  // sum of their rows.
  std::optional<int64_t> min_key;
  std::optional<int64_t> max_key;
  std::optional<int64_t> rows;
};

// checkpoint: Flink's prepareCommit. The pending files and compaction become a committable with
// `identifier`, saved under `name`; the writer has nothing pending afterwards.
struct CheckpointOp final : StepOpBase<CheckpointOp> {
  std::string_view name() const override { return "checkpoint"; }
  bool shares_state() const override { return true; }  // saved for any writer

  std::string checkpoint;  // unique in the scenario; "name[i]" when saved inside a repeat
  int64_t identifier = 0;  // given, else the writer's previous identifier + 1
};

// filter-and-commit: Paimon's filterAndCommit of saved committables after a restart: those whose
// identifier this commit user has already committed are dropped, the rest committed in order.
struct FilterAndCommitOp final : StepOpBase<FilterAndCommitOp> {
  std::string_view name() const override { return "filter-and-commit"; }
  bool publishes() const override { return true; }
  bool shares_state() const override { return true; }
  size_t list_entries() const override { return checkpoints.size(); }

  std::vector<std::string> checkpoints;  // strictly increasing identifiers
};

// delete-data-files: removes from the table's directory, behind the table's back, the data files
// the saved checkpoints' committables name (new files and compaction inputs and outputs).
struct DeleteDataFilesOp final : StepOpBase<DeleteDataFilesOp> {
  std::string_view name() const override { return "delete-data-files"; }
  bool shares_state() const override { return true; }
  size_t list_entries() const override { return checkpoints.size(); }

  std::vector<std::string> checkpoints;
};

// restart: the writer's job fails over: a new committer with the same commit user; pending files
// and compaction are lost, saved checkpoints and the identifier counter survive.
struct RestartOp final : StepOpBase<RestartOp> {
  std::string_view name() const override { return "restart"; }
  bool shares_state() const override { return true; }
  bool resumes_after_failure() const override { return true; }
};

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_STEPS_H_
