// A Paimon table in a run: its snapshot store (in memory, a directory, or an object store made
// once the run's Env exists), the claims on its commit users of a directory table, the outcome
// recorder its checks read, and afterwards the chain read back and checked (sim/checker.h). The
// writers' side is paimon_writer.cc.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_TABLE_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_TABLE_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/mutex.h"
#include "commitlab/core/paimon/dir_store.h"
#include "commitlab/core/paimon/store.h"
#include "commitlab/core/paimon/user_claim.h"
#include "commitlab/sim/checker.h"
#include "protocols/protocol.h"

namespace commitlab::scenarios::internal {

// Saved committables, by checkpoint name. Any writer may commit a checkpoint another saved, so
// they are shared by the run's Paimon tables (and locked, for OS threads).
class Checkpoints final : public ProtocolRunState {
 public:
  void Save(const std::string& name, Committable c);
  std::optional<Committable> Get(const std::string& name) const;

 private:
  mutable Mutex mu_;
  std::map<std::string, Committable> saved_ GUARDED_BY(mu_);
};

class PaimonTableRun final : public TableRun {
 public:
  explicit PaimonTableRun(const TableRunContext& ctx);

  Status Open() override;
  void AddSinks(std::vector<EventSink*>* sinks) override { sinks->push_back(&recorder_); }
  void Start(Env* env) override;
  std::unique_ptr<TableLookup> MakeLookup() override;
  std::unique_ptr<ProtocolWriter> MakeWriter(ProtocolContext ctx) override;
  void ShowSnapshots(std::optional<int64_t> id, const std::function<void(const Snapshot&)>& show) override;
  void Report(TableReport* out, std::vector<sim::Violation>* violations, std::vector<std::string>* run_errors) override;

  const Table& table() const { return ctx_.scenario->tables[ctx_.table]; }
  SnapshotStore* store() { return store_.get(); }
  Checkpoints* checkpoints() { return checkpoints_; }
  // After Report: whether a snapshot of the chain names file `name` (a manifest or a data file).
  bool Referenced(std::string_view name) const {
    return std::binary_search(referenced_.begin(), referenced_.end(), name);
  }

 private:
  // Takes a claim (core/paimon/user_claim.h) on each commit user of the table, a directory table.
  Status ClaimUsers(const DirStore& store);

  const TableRunContext ctx_;
  Checkpoints* const checkpoints_;
  std::unique_ptr<SnapshotStore> store_;
  std::vector<UserClaim> claims_;  // a directory table's: held until the run ends
  sim::OutcomeRecorder recorder_;
  int64_t shown_ = 0;  // the newest snapshot ShowSnapshots showed
  // After Report: the chain read back (shared with the report), and every file a snapshot of it
  // names, sorted: views of the chain's own strings, not a set of copies.
  SnapshotChain chain_;
  std::vector<std::string_view> referenced_;
};

// paimon_writer.cc
std::unique_ptr<ProtocolWriter> MakePaimonWriter(ProtocolContext ctx, PaimonTableRun* table);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_TABLE_H_
