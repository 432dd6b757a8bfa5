#include "cas_protocol.h"

#include <fmt/format.h>

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cas_register.h"
#include "commitlab/core/env.h"
#include "commitlab/core/mutex.h"
#include "protocols/protocol.h"
#include "protocols/registry.h"
#include "run/runner_history.h"

namespace commitlab::toy {
namespace {

using scenarios::Counters;
using scenarios::Op;
using scenarios::Step;
using scenarios::StepOpBase;
using scenarios::StepResult;
using scenarios::Table;
using scenarios::TableReport;
using namespace scenarios::internal;  // the protocol interface

// ---- Steps ----

struct ReadRegisterOp final : StepOpBase<ReadRegisterOp> {
  std::string_view name() const override { return "read"; }
};
struct CasOp final : StepOpBase<CasOp> {
  std::string_view name() const override { return "cas"; }
  bool publishes() const override { return true; }
};
struct SetOp final : StepOpBase<SetOp> {
  std::string_view name() const override { return "set"; }
  bool publishes() const override { return true; }
};

// Who wrote `version` of the register ("" for none).
std::string WriterOf(const std::vector<std::string>& writers, int64_t version) {
  if (version < 1 || version > static_cast<int64_t>(writers.size())) return "";
  return writers[static_cast<size_t>(version - 1)];
}

constexpr std::array<std::string_view, 3> kSteps = {"read", "cas", "set"};
constexpr std::array<std::string_view, 1> kOperations = {"increment"};

// ---- The table ----

class CasTable final : public TableRun {
 public:
  Status Open() override { return Status::OK(); }
  std::unique_ptr<TableLookup> MakeLookup() override;
  std::unique_ptr<ProtocolWriter> MakeWriter(ProtocolContext ctx) override;

  CasRegister* reg() { return &register_; }
  // A writer was told its increment landed as `version`.
  void Acknowledged(const std::string& user, int64_t version) {
    MutexLock lock(&mu_);
    acknowledged_.emplace_back(user, version);
  }

  // Every acknowledged increment is in the register: its value counts them all, and each
  // acknowledged version was written by the writer told of it.
  void Report(TableReport* out, std::vector<sim::Violation>* violations, std::vector<std::string>*) override {
    MutexLock lock(&mu_);
    const std::vector<std::string> writers = register_.writers();
    for (size_t v = 1; v <= writers.size(); ++v) {
      out->chain.push_back({.id = static_cast<int64_t>(v),
                            .parent_id = static_cast<int64_t>(v) - 1,
                            .commit_user = writers[v - 1],
                            .kind = CommitKind::kAppend,
                            .total_records = 1,
                            .delta_records = 1});
      out->operations.emplace_back("increment");
    }
    out->latest_snapshot = static_cast<int64_t>(writers.size());
    const int64_t value = register_.Get().value;
    if (value != static_cast<int64_t>(acknowledged_.size())) {
      violations->push_back({"lost_update", fmt::format("lost update: register {} is {}, but {} increment(s) were "
                                                        "acknowledged",
                                                        out->name, value, acknowledged_.size())});
    }
    for (const auto& [user, version] : acknowledged_) {
      if (WriterOf(writers, version) == user) continue;
      violations->push_back({"lost", fmt::format("{} was told it wrote version {}, which it did not", user, version)});
    }
  }

 private:
  CasRegister register_;
  Mutex mu_;
  std::vector<std::pair<std::string, int64_t>> acknowledged_ GUARDED_BY(mu_);
};

class CasLookup final : public TableLookup {
 public:
  explicit CasLookup(CasRegister* reg) : reg_(reg) {}
  std::string CommittedBy(int64_t id) override {
    const std::vector<std::string> writers = reg_->writers();
    return WriterOf(writers, id);
  }
  std::optional<Touch> LastTouch(const std::string&, int64_t) override { return std::nullopt; }

 private:
  CasRegister* const reg_;
};

std::unique_ptr<TableLookup> CasTable::MakeLookup() { return std::make_unique<CasLookup>(&register_); }

// ---- A writer ----

class CasWriter final : public ProtocolWriter {
 public:
  CasWriter(ProtocolContext ctx, CasTable* table) : ctx_(std::move(ctx)), table_(table) {}

  Status Run(const Step& step, StepResult* r) override {
    if (scenarios::OpIs<ReadRegisterOp>(step.op)) {
      Result<CasRegister::Read> read = Read();
      if (!read.ok()) return read.status();
      read_ = *read;
      r->committed = read_->value;
      r->detail = fmt::format("read {} at version {}", read_->value, read_->version);
      return Status::OK();
    }
    if (scenarios::OpIs<SetOp>(step.op)) return Set(r);
    return Cas(r);
  }

  Counters counters() const override { return counters_; }

 private:
  Result<CasRegister::Read> Read() {
    Env* env = ctx_.env;
    COMMITLAB_RETURN_IF_ERROR(env->FaultPoint(fault::kReadLatestBefore));
    env->BeginStorageOp(StorageOp::kReadLatest);
    if (ctx_.history != nullptr) ctx_.history->BeforeEffect(scenarios::EffectGate::Effect::kRead);
    const CasRegister::Read read = table_->reg()->Get();
    if (ctx_.history != nullptr) ctx_.history->Read(read.version);
    env->EndStorageOp(StorageOp::kReadLatest);
    return read;
  }

  // One publish: the CAS from what was read (or, for `set`, a blind write). kPublished or lost.
  Result<bool> Publish(const CasRegister::Read& read, bool compare, int64_t* version) {
    Env* env = ctx_.env;
    COMMITLAB_RETURN_IF_ERROR(env->FaultPoint(fault::kPublishBefore));
    ++counters_.attempts;
    env->BeginStorageOp(StorageOp::kPublish);
    if (ctx_.history != nullptr) ctx_.history->BeforeEffect(scenarios::EffectGate::Effect::kPublish);
    const std::string& me = ctx_.writer->commit_user;
    bool landed = true;
    if (compare) {
      landed = table_->reg()->CompareAndSet(read.version, read.value + 1, me);
      *version = read.version + 1;
    } else {
      *version = table_->reg()->Set(read.value + 1, me);
    }
    if (ctx_.history != nullptr)
      ctx_.history->Published(*version, landed ? PublishOutcome::kPublished : PublishOutcome::kAlreadyExists);
    env->EndStorageOp(StorageOp::kPublish);
    if (landed) COMMITLAB_RETURN_IF_ERROR(env->FaultPoint(fault::kPublishAfter));
    return landed;
  }

  void Acknowledge(int64_t version, StepResult* r, std::string_view what) {
    ++counters_.committed;
    table_->Acknowledged(ctx_.writer->commit_user, version);
    r->committed = 1;
    r->detail = fmt::format("{}: version {}", what, version);
  }

  // A lost CAS is an atomic failure: wait as the retry policy says, read again, try again.
  // What the pending read step saw, else a fresh read.
  Result<CasRegister::Read> TakeRead() {
    if (read_) return *std::exchange(read_, std::nullopt);
    return Read();
  }

  Status Cas(StepResult* r) {
    Result<CasRegister::Read> read = TakeRead();
    int64_t wait = 0;
    for (int failures = 0;; ++failures) {
      int64_t version = 0;
      if (!read.ok()) return read.status();
      Result<bool> landed = Publish(*read, /*compare=*/true, &version);
      if (!landed.ok()) return landed.status();
      if (*landed) {
        Acknowledge(version, r, fmt::format("cas {} -> {}", read->value, read->value + 1));
        return Status::OK();
      }
      ++counters_.atomic_failures;
      if (ctx_.retry.max_retries >= 0 && failures >= ctx_.retry.max_retries) {
        ++counters_.gave_up;
        return Status::RetriesExhausted(fmt::format("cas: lost {} race(s) for the register", failures + 1));
      }
      wait = NextWaitMicros(ctx_.retry, failures + 1, wait, ctx_.env->rng());
      ctx_.env->SleepMicros(wait);
      read = Read();
    }
  }

  Status Set(StepResult* r) {
    Result<CasRegister::Read> read = TakeRead();
    if (!read.ok()) return read.status();
    int64_t version = 0;
    Result<bool> landed = Publish(*read, /*compare=*/false, &version);
    if (!landed.ok()) return landed.status();
    Acknowledge(version, r, fmt::format("set {} (read {})", read->value + 1, read->value));
    return Status::OK();
  }

  ProtocolContext ctx_;
  CasTable* const table_;
  std::optional<CasRegister::Read> read_;  // what the last read step saw, for the next cas or set
  Counters counters_;
};

std::unique_ptr<ProtocolWriter> CasTable::MakeWriter(ProtocolContext ctx) {
  return std::make_unique<CasWriter>(std::move(ctx), this);
}

// ---- The module ----

class CasModule final : public ProtocolModule {
 public:
  const scenarios::ProtocolWords& words() const override {
    static const scenarios::ProtocolWords kWords{
        .chain_entry = "version", .narrated = false, .invariants = "every acknowledged increment is in the register"};
    return kWords;
  }
  std::span<const std::string_view> table_keys() const override { return {}; }
  Status ParseTableKeys(const LineContext&, const Args&, Table*) const override { return Status::OK(); }
  std::span<const std::string_view> step_names() const override { return kSteps; }
  Status ParseStep(const StepLine& line, Tokens toks, OpTemplate* out) const override {
    COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(line.ctx, toks, 1, toks[0].text));
    if (toks[0].text == "read") out->op = ReadRegisterOp{};
    if (toks[0].text == "cas") out->op = CasOp{};
    if (toks[0].text == "set") out->op = SetOp{};
    return Status::OK();
  }
  std::span<const std::string_view> operation_names() const override { return kOperations; }
  RetryPolicy default_retry() const override { return PaimonDefaultPolicy(); }
  bool HasFaultPoint(const Table&, std::string_view point) const override {
    return point == fault::kReadLatestBefore || point == fault::kPublishBefore || point == fault::kPublishAfter;
  }
  std::string_view WhyNoFaultPoint(std::string_view) const override { return "a register has only its CAS"; }
  std::unique_ptr<TableRun> NewTableRun(const TableRunContext&) const override { return std::make_unique<CasTable>(); }
};

}  // namespace

CasProtocol::CasProtocol() : protocol_(RegisterProtocolForTest("cas", std::make_unique<CasModule>())) {}

CasProtocol::~CasProtocol() { UnregisterProtocolForTest(protocol_); }

}  // namespace commitlab::toy
