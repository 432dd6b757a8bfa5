// libFuzzer target for the scenario parser (scenarios/fuzz/README.md). Any input must give a
// Scenario or an InvalidArgument positioned in the file, never a crash, hang or leak; a Scenario
// must satisfy what the runner relies on: bounded size and references that point at real steps.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "commitlab/scenarios/parser.h"
#include "fuzz_check.h"

namespace {

using commitlab::fuzz::Check;
using commitlab::scenarios::Scenario;
using commitlab::scenarios::StepRef;

bool Valid(const Scenario& s, const StepRef& r) {
  return r.writer < s.writers.size() && r.step < s.writers[r.writer].steps.size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  commitlab::Result<Scenario> r = commitlab::scenarios::ParseScenario(text, "fuzz.scn");
  if (!r.ok()) {
    Check(r.status().code() == commitlab::Code::kInvalidArgument);
    Check(r.status().message().starts_with("fuzz.scn:"));
    return 0;
  }
  const Scenario& s = *r;
  Check(!s.title.empty() && !s.writers.empty());
  Check(s.TotalSteps() <= commitlab::scenarios::kMaxSteps);
  for (const auto& w : s.writers) Check(w.table < s.tables.size());
  for (const auto& e : s.order) Check(Valid(s, e.before) && Valid(s, e.after));
  for (const auto& e : s.expectations) {
    if (const auto* o = std::get_if<commitlab::scenarios::OutcomeExpect>(&e.body);
        o && o->subject == commitlab::scenarios::Subject::kStep) {
      Check(Valid(s, {o->writer, o->first_step}) && Valid(s, {o->writer, o->last_step}));
    }
    if (const auto* c = std::get_if<commitlab::scenarios::CounterExpect>(&e.body);
        c && c->subject == commitlab::scenarios::Subject::kStep) {
      Check(Valid(s, {c->writer, c->first_step}) && Valid(s, {c->writer, c->last_step}));
    }
  }
  return 0;
}
