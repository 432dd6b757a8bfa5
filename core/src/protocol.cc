#include "commitlab/core/protocol.h"

#include <array>
#include <deque>
#include <limits>
#include <string>
#include <type_traits>

#include "commitlab/core/check.h"

namespace commitlab {
namespace {

// ProtocolName finds an engine's name at its value.
constexpr bool ValuesInOrder() {
  for (size_t i = 0; i < kEngineProtocols.size(); ++i)
    if (static_cast<size_t>(kEngineProtocols[i]) != i) return false;
  return true;
}
static_assert(ValuesInOrder(), "kEngineProtocols lists the engines in the order of their values");

// Names of the protocols added after the engines', by value - kEngineProtocols.size(). A deque:
// a name handed out as a string_view stays where it is when another is added.
std::deque<std::string>& Added() {
  static std::deque<std::string> added;
  return added;
}

}  // namespace

std::string_view ProtocolName(Protocol p) {
  // kEngineProtocols' names, in its order.
  static constexpr std::array<std::string_view, kEngineProtocols.size()> kEngineNames = {"paimon", "iceberg", "delta"};
  const size_t value = static_cast<size_t>(p);
  if (value < kEngineNames.size()) return kEngineNames[value];
  const size_t added = value - kEngineNames.size();
  return added < Added().size() ? std::string_view(Added()[added]) : "?";
}

Protocol AddProtocol(std::string name) {
  const size_t value = kEngineProtocols.size() + Added().size();
  COMMITLAB_CHECK(value <= std::numeric_limits<std::underlying_type_t<Protocol>>::max(), "too many protocols");
  Added().push_back(std::move(name));
  return static_cast<Protocol>(value);
}

}  // namespace commitlab
