#include "commitlab/core/protocol.h"

#include <deque>
#include <limits>

#include "commitlab/core/check.h"

namespace commitlab {
namespace {

// Names of the protocols added after the engines', by value - kEngineProtocols.size(). A deque:
// a name handed out as a string_view stays where it is when another is added.
std::deque<std::string>& Added() {
  static std::deque<std::string> added;
  return added;
}

}  // namespace

std::string_view ProtocolName(Protocol p) {
  switch (p) {
    case Protocol::kPaimon: return "paimon";
    case Protocol::kIceberg: return "iceberg";
    case Protocol::kDelta: return "delta";
  }
  const size_t added = static_cast<size_t>(p) - kEngineProtocols.size();
  return added < Added().size() ? std::string_view(Added()[added]) : "?";
}

Protocol AddProtocol(std::string name) {
  const size_t value = kEngineProtocols.size() + Added().size();
  COMMITLAB_CHECK(value <= std::numeric_limits<std::underlying_type_t<Protocol>>::max(), "too many protocols");
  Added().push_back(std::move(name));
  return static_cast<Protocol>(value);
}

}  // namespace commitlab
