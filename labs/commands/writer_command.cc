// `commitlab writer`: one writer process on a table directory (labs/process/table_writer.h).
// Start several on one directory to race processes rather than threads; kill one with -9 and start
// it again with the same user: it resumes after its newest committed identifier.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cstdio>

#include "commands/cli.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/process/table_writer.h"
#include "commitlab/process/writer_json.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/latency.h"
#include "output/report_output.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
constexpr std::string_view kCommand = "writer";

// The ack must be out of the process before the next commit starts: a kill -9 right after it
// must not take it back.
void PrintAck(const process::Ack& ack, bool json) {
  const std::string line =
      json ? process::AckJson(ack).dump() + "\n"
           : fmt::format("ack {} identifier {} snapshot {}\n", ack.user, ack.identifier, ack.snapshot);
  WriteText(stdout, line);
  std::fflush(stdout);
}

void PrintSummary(const process::TableWriterResult& r) {
  fmt::print("{}: {}; {} commit(s) acknowledged{}\n", r.user,
             r.resumed_after == 0 ? std::string("no earlier commit of this user in the table")
                                  : fmt::format("resumed after its newest committed identifier, {}", r.resumed_after),
             r.acknowledged,
             r.acknowledged > 0 ? fmt::format(" (identifiers {}..{})", r.resumed_after + 1, r.last_identifier) : "");
  fmt::print("{}: {} attempt(s), {} atomic commit failure(s), {} unknown outcome(s), {} idempotent match(es)\n", r.user,
             r.stats.attempts, r.stats.atomic_failures, r.stats.unknown_outcomes, r.stats.idempotent_matches);
  for (const std::string& f : r.fired_faults) fmt::print("fault fired: {}\n", f);
  if (!r.error.empty()) fmt::print("{} stopped: {}\n", r.user, r.error.substr(0, r.error.find('\n')));
}

}  // namespace

int RunWriter(const std::vector<std::string>& args) {
  po::options_description options(
      "commitlab writer --dir D --user U (--commits M | --until I) [options]\n\n"
      "Joins the table in D (creating it if absent) and commits as user U, one new data file per commit,\n"
      "printing `ack U identifier I snapshot N` once each publish has returned. Identifiers continue\n"
      "after U's newest committed one. Exit 0: every commit acknowledged; 1: a commit failed; 2: bad\n"
      "input, a damaged table, or U held by another live process.\n\nOptions");
  process::TableWriterOptions o;
  int64_t commits = 0, until = 0;
  std::string policy_spec = "paimon", idempotency = "on", fsync = "off", latency_spec;
  std::vector<std::string> fault_specs;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("dir", po::value(&o.dir), "the table directory (created if absent)")
      ("user", po::value(&o.user), "commit user; one live process per user (a lock in D/lock/)")
      ("commits", po::value(&commits), "commit this many more times")
      ("until", po::value(&until), "commit until this identifier is committed (a restart with the same flags finishes the job)")
      ("policy", po::value(&policy_spec)->default_value("paimon"), "retry policy, e.g. paimon, none, exponential:base=5ms,cap=2s")
      ("idempotency-check", po::value(&idempotency)->default_value("on"), "on | off: look for our own snapshot after a failed publish")
      ("fsync", po::value(&fsync)->default_value("off"),
       "off | data | all: what survives a power loss (docs/multiprocess.md); every setting survives kill -9")
      ("seed", po::value(&o.seed)->default_value(1), "seed of the latency draws and p= faults (file names are unique per process whatever the seed)")
      ("latency", po::value(&latency_spec)->default_value(""), "storage latency slept for real, e.g. 'publish=uniform:1,3' (ms)")
      ("fault", po::value(&fault_specs)->composing(), "U:POINT:TRIGGER:EFFECT, e.g. job-A:publish.after:nth=2:unknown (repeatable)")
      ("json", "print each ack and the summary as JSON lines (docs/writer.schema.json)");
  // clang-format on
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (!vm.count("dir") || !vm.count("user")) return UsageError(kCommand, "--dir and --user are required");
  if (vm.count("commits")) o.commits = commits;
  if (vm.count("until")) o.until = until;
  Result<RetryPolicy> policy = ParseRetryPolicy(policy_spec);
  if (!policy.ok()) return UsageError(kCommand, fmt::format("--policy: {}", policy.status().message()));
  o.retry = *policy;
  if (idempotency != "on" && idempotency != "off")
    return UsageError(kCommand, fmt::format("--idempotency-check '{}' is not one of on, off", idempotency));
  o.idempotency_check = idempotency == "on";
  std::optional<Fsync> sync = ParseFsync(fsync);
  if (!sync) return UsageError(kCommand, fmt::format("--fsync '{}' is not one of off, data, all", fsync));
  o.fsync = *sync;
  if (!latency_spec.empty()) {
    Result<sim::LatencyModel> latency = sim::ParseLatencyModel(latency_spec);
    if (!latency.ok()) return UsageError(kCommand, fmt::format("--latency: {}", latency.status().message()));
    o.latency = *latency;
  }
  for (const std::string& spec : fault_specs) {
    Result<sim::FaultRule> rule = sim::ParseFaultRule(spec);
    if (!rule.ok()) return UsageError(kCommand, fmt::format("--fault: {}", rule.status().message()));
    o.faults.push_back(*rule);
  }

  const bool json = vm.count("json") > 0;
  Result<process::TableWriterResult> r =
      process::RunTableWriter(o, [json](const process::Ack& ack) { PrintAck(ack, json); });
  if (!r.ok()) {
    fmt::print(stderr, "commitlab writer: {}\n", r.status().message());
    return kExitUsage;
  }
  if (json) {
    sim::Json faults = fault_specs;
    sim::Json out = Envelope("commitlab-writer", 1, kCommand,
                             {{"dir", o.dir},
                              {"user", o.user},
                              {"commits", o.commits ? sim::Json(*o.commits) : sim::Json(nullptr)},
                              {"until", o.until ? sim::Json(*o.until) : sim::Json(nullptr)},
                              {"policy", FormatRetryPolicy(o.retry)},
                              {"idempotency_check", o.idempotency_check},
                              {"fsync", FsyncName(o.fsync)},
                              {"seed", o.seed},
                              {"latency", sim::FormatLatencyModel(o.latency)},
                              {"faults", std::move(faults)}});
    process::AddResultJson(*r, &out);
    PrintJsonLine(out);
  } else {
    PrintSummary(*r);
  }
  return r->error.empty() ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
