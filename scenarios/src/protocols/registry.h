// The protocols of the scenario language, in one table (registry.cc): the shared code finds a
// protocol's module here and never names a protocol itself.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_REGISTRY_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_REGISTRY_H_

#include <array>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/protocol.h"
#include "protocols/protocol.h"

namespace commitlab::scenarios::internal {

// Every protocol a scenario can name, in the order messages list them.
std::span<const Protocol> RegisteredProtocols();
// The module of a registered protocol (a table's protocol always is one).
const ProtocolModule& ModuleOf(Protocol p);

// The keys every table and writer line takes, parsed by the shared parser (lang/parser.cc).
inline constexpr std::array<std::string_view, 3> kSharedTableKeys = {"name", "protocol", "partitions"};
inline constexpr std::array<std::string_view, 3> kSharedWriterKeys = {"name", "user", "table"};

// The keys a `table` line takes (name, protocol, partitions and every protocol's own), in the
// order messages list them; the same for a `writer` line.
std::span<const std::string_view> TableKeys();
std::span<const std::string_view> WriterKeys();
// "iceberg and delta": the protocols whose modules `has` says yes to, in registry order.
std::string ProtocolsWhere(const std::function<bool(const ProtocolModule&)>& has);

// For tests: adds a protocol of the test's own, named `name` (core's AddProtocol; the same value
// each time a name is registered again), after the registry's, until UnregisterProtocolForTest.
// Not thread-safe: call both while no scenario is parsed or run.
Protocol RegisterProtocolForTest(std::string name, std::unique_ptr<ProtocolModule> module);
void UnregisterProtocolForTest(Protocol p);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_REGISTRY_H_
