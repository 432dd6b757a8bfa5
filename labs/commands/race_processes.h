// `commitlab race --processes N`: the race with each writer its own OS process on one table
// directory (labs/process/process_race.h), judged by reading the directory back: the same report
// as the threaded race's, built from the processes' acknowledgements and the table's files.
#ifndef COMMITLAB_LABS_RACE_PROCESSES_H_
#define COMMITLAB_LABS_RACE_PROCESSES_H_

#include "commitlab/process/process_race.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/table_dir_check.h"

namespace commitlab::cli {

// The run report of a process race: the chain and leftovers from `table`, each writer's counters
// summed over its processes (a killed process reports none), the checker's verdict on every
// acknowledgement, and each problem `table` found.
scenarios::RunReport ProcessRaceReport(const process::ProcessRaceResult& race, const sim::TableDirReport& table,
                                       const scenarios::RunPlan& plan);

// "kills: 7 (job-A 3, job-B 2, job-C 2); every restart resumed after its user's newest commit"
std::string KillsLine(const process::ProcessRaceResult& race);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_RACE_PROCESSES_H_
