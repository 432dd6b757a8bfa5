// A fourth protocol, a toy, to show what adding one takes: a compare-and-swap register
// (cas_register.h) behind the scenario language's protocol interface (protocols/protocol.h).
// A writer reads the register and CASes it from the version it read to value + 1; a lost CAS is
// an atomic failure, after which it reads again and retries as the run's retry policy says.
// `set` writes value + 1 without comparing, so that the table's check has a lost update to find.
//
//   table name=r protocol=cas
//   writer name=a
//   a: read; cas          # cas reads first when no read step is pending
//   expect latest-snapshot 1
//
// Everything the toy needs is in this folder; a CasProtocol adds it to the registry.
#ifndef COMMITLAB_SCENARIOS_TESTS_TOY_PROTOCOL_CAS_PROTOCOL_H_
#define COMMITLAB_SCENARIOS_TESTS_TOY_PROTOCOL_CAS_PROTOCOL_H_

#include "commitlab/core/protocol.h"

namespace commitlab::toy {

// Protocol "cas", registered for as long as this lives (the registry's other users, the other
// tests of the process, never see it).
class CasProtocol {
 public:
  CasProtocol();
  ~CasProtocol();
  CasProtocol(const CasProtocol&) = delete;
  CasProtocol& operator=(const CasProtocol&) = delete;

  Protocol protocol() const { return protocol_; }

 private:
  Protocol protocol_;
};

}  // namespace commitlab::toy

#endif  // COMMITLAB_SCENARIOS_TESTS_TOY_PROTOCOL_CAS_PROTOCOL_H_
