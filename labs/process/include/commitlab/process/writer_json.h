// The lines `commitlab writer --json` prints, and their reading back by ProcessRace: one
// {"ack":{...}} line per acknowledged commit, then one summary object.
#ifndef COMMITLAB_PROCESS_WRITER_JSON_H_
#define COMMITLAB_PROCESS_WRITER_JSON_H_

#include <optional>

#include "commitlab/process/table_writer.h"
#include "commitlab/sim/history.h"

namespace commitlab::process {

// {"ack":{"user":..,"identifier":..,"snapshot":..}}
sim::Json AckJson(const Ack& ack);
std::optional<Ack> ParseAckJson(const sim::Json& j);

// The members the summary adds to the report envelope: user, resumed_after, acknowledged,
// last_identifier, stats, records, fired_faults, ok, error.
void AddResultJson(const TableWriterResult& r, sim::Json* out);
// The same back; nullopt when `j` is not a writer summary.
std::optional<TableWriterResult> ParseResultJson(const sim::Json& j);

}  // namespace commitlab::process

#endif  // COMMITLAB_PROCESS_WRITER_JSON_H_
