// Protocol: the commit protocols commitlab models, one enum for every layer. Each of the three
// below has its engine in core/ (paimon::Committer, iceberg::IcebergCommitter,
// delta::OptimisticTransaction); the sweeps (sim/sweep.h) run them side by side and the scenario
// language (scenarios/src/protocols/<p>/) scripts them. Code that needs every protocol or a
// protocol's name asks kEngineProtocols, ProtocolName or the scenario registry, never a literal.
#ifndef COMMITLAB_CORE_PROTOCOL_H_
#define COMMITLAB_CORE_PROTOCOL_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace commitlab {

enum class Protocol : uint8_t { kPaimon, kIceberg, kDelta };

// The protocols with an engine in core/, in the order of their values and of messages.
inline constexpr std::array<Protocol, 3> kEngineProtocols = {Protocol::kPaimon, Protocol::kIceberg, Protocol::kDelta};

// "paimon", "iceberg", "delta", or the name a protocol was added under; "?" for any other value.
std::string_view ProtocolName(Protocol p);

// A protocol without an engine here (a test's toy protocol, registered with the scenario
// language): the next free value, named `name`. Not thread-safe: call it before anything runs.
Protocol AddProtocol(std::string name);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_PROTOCOL_H_
