// The protocols a scenario can name (protocol=paimon, iceberg, delta), as reports and labs see
// them: each protocol's words, whatever protocol it is. The protocols themselves live in
// scenarios/src/protocols/<p>/, listed in scenarios/src/protocols/registry.cc.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_H_

#include <string_view>
#include <vector>

#include "commitlab/core/protocol.h"

namespace commitlab::scenarios {

struct ProtocolWords {
  // What an entry of a table's chain is called in text ("snapshot 3", Delta's "version 3").
  std::string_view chain_entry = "snapshot";
  // Its snapshots are shown one by one as they land (RunObserver::OnSnapshot); a lab prints the
  // chain of the others once the run is over.
  bool narrated = false;
  // What its checks assert when they find nothing: "invariants: ok (...)".
  std::string_view invariants = {};
};

// Every protocol a scenario can name, in the order messages list them.
std::vector<Protocol> ScenarioProtocols();
// The words of a protocol a scenario can name.
const ProtocolWords& WordsOf(Protocol p);
// Whether a table of protocol `p` takes table key `key` (catalog=..., flavour=...).
bool TakesTableKey(Protocol p, std::string_view key);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_H_
