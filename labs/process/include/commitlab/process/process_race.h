// ProcessRace: N `commitlab writer` processes on one table directory, started together, each
// committing identifiers 1..commits as its own user (job-A, job-B, ...). Optionally kills a
// writer with SIGKILL at seeded random moments and starts it again with the same arguments: the
// restart resumes after its user's newest committed identifier. Collects every acknowledgement
// each process printed before it ended or was killed.
#ifndef COMMITLAB_PROCESS_PROCESS_RACE_H_
#define COMMITLAB_PROCESS_PROCESS_RACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "commitlab/core/commit_stats.h"
#include "commitlab/core/status.h"
#include "commitlab/process/table_writer.h"
#include "commitlab/sim/checker.h"

namespace commitlab::process {

struct ProcessRaceOptions {
  std::string commitlab;  // the binary started as `<commitlab> writer ...`
  std::string dir;
  int writers = 3;
  int64_t commits = 30;  // per writer: each runs with --until <commits>
  // Appended to every writer's arguments: --policy, --latency, --fault, --fsync, --seed, ...
  std::vector<std::string> writer_args = {};
  int kills = 0;  // SIGKILLs to deliver; fewer happen when the writers finish first
  uint64_t kill_seed = 1;
  int64_t max_kill_delay_micros = 20'000;  // each kill comes 0..this after the previous one
  // A writer that hangs must not hang the race: past this, every writer is killed and the race
  // fails.
  int64_t timeout_micros = int64_t{600} * 1'000'000;
};

// One writer user across all its processes.
struct WriterProcesses {
  std::string user = {};
  int starts = 0;
  int killed = 0;                               // processes of this user that died of our SIGKILL
  std::vector<Ack> acks = {};                   // in the order printed, over every process
  CommitStats stats = {};                       // summed over the processes that finished (a killed one reports none)
  std::vector<sim::CommitRecord> records = {};  // from the processes that finished
  std::vector<std::string> fired_faults = {};
  // The last process's end: "" when it finished every commit, else why not (its error, or its
  // exit status and what it wrote to stderr).
  std::string error = {};
  Code error_code = Code::kOk;  // the last process's failure, from its summary (kOk without one)
  int exit_code = 0;            // the last process's exit code
  bool summarized = false;      // the last process printed its summary
};

struct ProcessRaceResult {
  std::vector<WriterProcesses> writers = {};
  int kills = 0;  // SIGKILLs that ended a writer (one sent to a writer already exiting does not)
};

// InvalidArgument when a process cannot be started. A writer that fails is in its entry.
Result<ProcessRaceResult> RunProcessRace(const ProcessRaceOptions& options);

// The arguments of one writer process (without the binary).
std::vector<std::string> WriterArgs(const ProcessRaceOptions& options, const std::string& user);

}  // namespace commitlab::process

#endif  // COMMITLAB_PROCESS_PROCESS_RACE_H_
