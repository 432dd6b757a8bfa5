#include "commitlab/sim/fault_spec.h"

#include <fmt/format.h>

#include <charconv>
#include <limits>
#include <optional>
#include <utility>

#include "commitlab/core/env.h"
#include "commitlab/core/spec_parse.h"

namespace commitlab::sim {
namespace {

constexpr std::string_view kTriggerExpected = "expected nth=N, first=N, every=K, p=P, always or maybe";
constexpr std::string_view kEffectExpected =
    "expected error, unknown, lost, crash or delay=D with D like 500us, 20ms or 2s";

std::string PointList() {
  std::string out;
  for (std::string_view p : FaultPointNames()) {
    if (!out.empty()) out += ", ";
    out += p;
  }
  return out;
}

bool IsFaultPoint(std::string_view p) {
  for (std::string_view known : FaultPointNames())
    if (p == known) return true;
  return false;
}

// A whole number that is all of `s`.
std::optional<int64_t> ParseInt(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> ParseProbability(std::string_view s) {
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  if (!(v >= 0.0 && v <= 1.0)) return std::nullopt;  // also rejects NaN
  return v;
}

// "500us", "20ms", "2s" -> microseconds.
std::optional<int64_t> ParseDuration(std::string_view s) {
  size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  std::optional<int64_t> n = ParseInt(s.substr(0, digits));
  if (!n) return std::nullopt;
  const std::string_view unit = s.substr(digits);
  int64_t scale = 0;
  if (unit == "us") scale = 1;
  else if (unit == "ms") scale = 1000;
  else if (unit == "s") scale = 1000000;
  else return std::nullopt;
  if (*n > std::numeric_limits<int64_t>::max() / scale) return std::nullopt;
  return *n * scale;
}

std::string FormatDuration(int64_t micros) {
  if (micros != 0 && micros % 1000000 == 0) return fmt::format("{}s", micros / 1000000);
  if (micros != 0 && micros % 1000 == 0) return fmt::format("{}ms", micros / 1000);
  return fmt::format("{}us", micros);
}

std::string FormatTrigger(const FaultTrigger& t) {
  switch (t.kind) {
    case FaultTrigger::Kind::kNth: return fmt::format("nth={}", t.n);
    case FaultTrigger::Kind::kEvery: return fmt::format("every={}", t.n);
    case FaultTrigger::Kind::kFirst: return fmt::format("first={}", t.n);
    case FaultTrigger::Kind::kProbability: return fmt::format("p={}", t.probability);  // shortest round trip
    case FaultTrigger::Kind::kAlways: return "always";
    case FaultTrigger::Kind::kMaybe: return "maybe";
  }
  return "?";
}

// The failure of one field: what was wrong and where it starts.
struct FieldError {
  std::string detail;
  size_t field = 0;  // 0 writer, 1 point, 2 trigger, 3 effect
};

std::optional<FieldError> CheckPoint(std::string_view point) {
  if (IsFaultPoint(point)) return std::nullopt;
  return FieldError{fmt::format("unknown point \"{}\" (expected one of {})", point, PointList()), 1};
}

// `unknown` means "the publish took effect but the caller is not told": only publish.after has
// a publish behind it.
std::optional<FieldError> CheckEffectAtPoint(const FaultEffect& e, std::string_view point) {
  // `lost` stands for the store's own refusal, which only a publish can meet.
  if (e.kind == FaultEffect::Kind::kLost && point != fault::kPublishBefore)
    return FieldError{fmt::format("effect \"lost\" is only meaningful at {} (the store refuses the publish as if "
                                  "another writer had won); at {} use error",
                                  fault::kPublishBefore, point),
                      3};
  if (e.kind != FaultEffect::Kind::kUnknown || point == fault::kPublishAfter) return std::nullopt;
  return FieldError{fmt::format("effect \"unknown\" is only meaningful at {} (the publish took effect but the "
                                "caller is not told); at {} use error",
                                fault::kPublishAfter, point),
                    3};
}

Result<FaultTrigger> ParseTrigger(std::string_view s) {
  if (s == "always") return FaultTrigger{};
  if (s == "maybe") return FaultTrigger{FaultTrigger::Kind::kMaybe, 0, 0.0};
  const std::optional<KeyValue> kv = SplitKeyValue(s);
  if (kv && (kv->key == "nth" || kv->key == "every" || kv->key == "first")) {
    std::optional<int64_t> n = ParseInt(kv->value);
    const std::string_view letter = kv->key == "every" ? "K" : "N";
    if (!n || *n < 1)
      return Status::InvalidArgument(
          fmt::format("bad trigger \"{}\" (expected {}={} with {} a whole number >= 1)", s, kv->key, letter, letter));
    const FaultTrigger::Kind kind = kv->key == "nth"     ? FaultTrigger::Kind::kNth
                                    : kv->key == "every" ? FaultTrigger::Kind::kEvery
                                                         : FaultTrigger::Kind::kFirst;
    return FaultTrigger{kind, *n, 0.0};
  }
  if (kv && kv->key == "p") {
    std::optional<double> p = ParseProbability(kv->value);
    if (!p)
      return Status::InvalidArgument(fmt::format("bad trigger \"{}\" (expected p=P with P a number from 0 to 1)", s));
    return FaultTrigger{FaultTrigger::Kind::kProbability, 0, *p};
  }
  return Status::InvalidArgument(fmt::format("unknown trigger \"{}\" ({})", s, kTriggerExpected));
}

Result<FaultEffect> ParseEffect(std::string_view s) {
  if (s == "error") return FaultEffect{FaultEffect::Kind::kError, 0};
  if (s == "unknown") return FaultEffect{FaultEffect::Kind::kUnknown, 0};
  if (s == "crash") return FaultEffect{FaultEffect::Kind::kCrash, 0};
  if (s == "lost") return FaultEffect{FaultEffect::Kind::kLost, 0};
  if (const std::optional<KeyValue> kv = SplitKeyValue(s); kv && kv->key == "delay") {
    std::optional<int64_t> d = ParseDuration(kv->value);
    if (!d)
      return Status::InvalidArgument(fmt::format(
          "bad effect \"{}\" (expected delay=D with D a whole number followed by us, ms or s, e.g. delay=20ms)", s));
    return FaultEffect{FaultEffect::Kind::kDelay, *d};
  }
  return Status::InvalidArgument(fmt::format("unknown effect \"{}\" ({})", s, kEffectExpected));
}

bool Fires(const FaultTrigger& t, int64_t hit, Rng& rng) {
  switch (t.kind) {
    case FaultTrigger::Kind::kNth: return hit == t.n;
    case FaultTrigger::Kind::kEvery: return hit % t.n == 0;
    case FaultTrigger::Kind::kFirst: return hit <= t.n;
    case FaultTrigger::Kind::kProbability: return rng.Chance(t.probability);
    case FaultTrigger::Kind::kAlways: return true;
    case FaultTrigger::Kind::kMaybe: return rng.Chance(0.5);
  }
  return false;
}

}  // namespace

const std::vector<std::string_view>& FaultPointNames() {
  static const auto* const kNames =
      new std::vector<std::string_view>{fault::kReadLatestBefore, fault::kManifestBefore, fault::kPublishBefore,
                                        fault::kPublishAfter,     fault::kCatalogBefore,  fault::kCatalogAfter};
  return *kNames;
}

Result<FaultRule> ParseFaultRule(std::string_view spec, size_t* error_column) {
  const std::vector<std::string_view> fields = SplitOn(spec, ':');
  std::vector<size_t> columns;  // where each field starts in `spec`
  for (std::string_view field : fields) columns.push_back(static_cast<size_t>(field.data() - spec.data()));
  auto fail = [&](std::string detail, size_t column) -> Status {
    if (error_column != nullptr) *error_column = column;
    return Status::InvalidArgument(fmt::format("fault \"{}\": {}", spec, detail));
  };
  if (fields.size() != 4)
    return fail(fmt::format("expected 4 fields WRITER:POINT:TRIGGER:EFFECT, got {}", fields.size()),
                fields.size() < 4 ? spec.size() : columns[4]);
  if (fields[0].empty()) return fail("empty writer (expected a writer name or *)", columns[0]);

  FaultRule rule;
  rule.writer = std::string(fields[0]);
  rule.point = std::string(fields[1]);
  if (std::optional<FieldError> e = CheckPoint(rule.point)) return fail(e->detail, columns[e->field]);
  Result<FaultTrigger> trigger = ParseTrigger(fields[2]);
  if (!trigger.ok()) return fail(trigger.status().message(), columns[2]);
  rule.trigger = *trigger;
  Result<FaultEffect> effect = ParseEffect(fields[3]);
  if (!effect.ok()) return fail(effect.status().message(), columns[3]);
  rule.effect = *effect;
  if (std::optional<FieldError> e = CheckEffectAtPoint(rule.effect, rule.point))
    return fail(e->detail, columns[e->field]);
  return rule;
}

Status ValidateFaultRule(const FaultRule& rule) {
  std::optional<FieldError> error;
  if (rule.writer.empty() || rule.writer.find(':') != std::string::npos) {
    error = FieldError{"bad writer (expected a writer name without ':' or *)", 0};
  } else if (!(error = CheckPoint(rule.point))) {
    const FaultTrigger& t = rule.trigger;
    const bool counted = t.kind == FaultTrigger::Kind::kNth || t.kind == FaultTrigger::Kind::kEvery ||
                         t.kind == FaultTrigger::Kind::kFirst;
    if ((counted && t.n < 1) ||
        (t.kind == FaultTrigger::Kind::kProbability && !(t.probability >= 0.0 && t.probability <= 1.0))) {
      error = FieldError{fmt::format("bad trigger \"{}\"", FormatTrigger(t)), 2};
    } else if (rule.effect.kind == FaultEffect::Kind::kDelay && rule.effect.delay_micros < 0) {
      error = FieldError{"bad effect: negative delay", 3};
    } else {
      error = CheckEffectAtPoint(rule.effect, rule.point);
    }
  }
  if (!error) return Status::OK();
  return Status::InvalidArgument(fmt::format("fault \"{}\": {}", FormatFaultRule(rule), error->detail));
}

std::string FormatFaultEffect(const FaultEffect& e) {
  switch (e.kind) {
    case FaultEffect::Kind::kError: return "error";
    case FaultEffect::Kind::kUnknown: return "unknown";
    case FaultEffect::Kind::kCrash: return "crash";
    case FaultEffect::Kind::kLost: return "lost";
    case FaultEffect::Kind::kDelay: return "delay=" + FormatDuration(e.delay_micros);
  }
  return "?";
}

std::string FormatFaultRule(const FaultRule& rule) {
  return fmt::format("{}:{}:{}:{}", rule.writer, rule.point, FormatTrigger(rule.trigger),
                     FormatFaultEffect(rule.effect));
}

std::string FormatFiredFault(const FiredFault& f) {
  return fmt::format("{}:{}:hit={}:{}", f.writer, f.point, f.hit, FormatFaultEffect(f.effect));
}

ScriptedFaultPlan::ScriptedFaultPlan(std::vector<FaultRule> rules) : rules_(std::move(rules)), hits_(rules_.size()) {}

void ScriptedFaultPlan::AddRule(FaultRule rule) {
  MutexLock lock(&mu_);
  rules_.push_back(std::move(rule));
  hits_.emplace_back();
}

FaultDecision ScriptedFaultPlan::Check(std::string_view writer, std::string_view point, Rng& rng) {
  FaultDecision decision;
  std::vector<std::pair<FiredFault, FaultRule>> now;  // this hit's, one per firing rule
  FireListener listener;
  {
    MutexLock lock(&mu_);
    std::vector<FiredFault> now_fired;
    for (size_t i = 0; i < rules_.size(); ++i) {
      const FaultRule& rule = rules_[i];
      if (rule.point != point || (rule.writer != "*" && rule.writer != writer)) continue;
      auto it = hits_[i].find(writer);
      if (it == hits_[i].end()) it = hits_[i].emplace(std::string(writer), HitCount{}).first;
      const int64_t hit = ++it->second.hits;
      bool fires = false;
      if (rule.trigger.kind != FaultTrigger::Kind::kMaybe) {
        fires = Fires(rule.trigger, hit, rng);
      } else if (it->second.fired == 0) {  // a maybe fires at most once per writer
        fires = chooser_ ? chooser_(rule, writer, hit) : Fires(rule.trigger, hit, rng);
      }
      if (!fires) continue;
      ++it->second.fired;
      const FaultEffect& e = rule.effect;
      if (e.kind == FaultEffect::Kind::kDelay) {
        decision.delay_micros += e.delay_micros;
      } else if (decision.status.ok()) {
        if (e.kind == FaultEffect::Kind::kCrash) {
          decision.status = Status::Crashed(fmt::format("simulated crash at {} of {}", point, writer));
        } else if (e.kind == FaultEffect::Kind::kLost) {
          decision.status = Status::LostRace(
              fmt::format("simulated lost race at {} of {}: the store refused the publish", point, writer));
        } else if (e.kind == FaultEffect::Kind::kUnknown) {
          decision.status = Status::IOError(
              fmt::format("simulated unknown outcome at {} of {}: the publish took effect", point, writer));
        } else {
          decision.status = Status::IOError(fmt::format("simulated error at {} of {}", point, writer));
        }
      } else {
        continue;  // suppressed: an earlier rule already failed this hit
      }
      now_fired.push_back(FiredFault{std::string(writer), std::string(point), hit, i, e});
    }
    fired_total_ += static_cast<int64_t>(now_fired.size());
    for (const FiredFault& f : now_fired)
      if (fired_.size() < kMaxFiredKept) fired_.push_back(f);
    if (on_fire_ && !now_fired.empty()) {
      for (const FiredFault& f : now_fired) now.emplace_back(f, rules_[f.rule]);
      listener = on_fire_;
    }
  }
  // Outside the lock: the listener records elsewhere and must not wait on this plan.
  for (const auto& [fired, rule] : now) listener(fired, rule);
  return decision;
}

void ScriptedFaultPlan::set_on_fire(FireListener listener) {
  MutexLock lock(&mu_);
  on_fire_ = std::move(listener);
}

void ScriptedFaultPlan::set_chooser(Chooser chooser) {
  MutexLock lock(&mu_);
  chooser_ = std::move(chooser);
}

std::vector<FaultRule> ScriptedFaultPlan::rules() const {
  MutexLock lock(&mu_);
  return rules_;
}

std::vector<FiredFault> ScriptedFaultPlan::fired() const {
  MutexLock lock(&mu_);
  return fired_;
}

int64_t ScriptedFaultPlan::fired_total() const {
  MutexLock lock(&mu_);
  return fired_total_;
}

}  // namespace commitlab::sim
