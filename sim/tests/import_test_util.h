// What the import tests share: the vendored logs (scenarios/tests/data/real-tables, and the small
// logs written for the findings real data does not show, scenarios/tests/data/import), and a sink
// that keeps everything an import hands it.
#ifndef COMMITLAB_SIM_TESTS_IMPORT_TEST_UTIL_H_
#define COMMITLAB_SIM_TESTS_IMPORT_TEST_UTIL_H_

#include <string>
#include <vector>

#include "commitlab/sim/import/import.h"

namespace commitlab::sim::import {

inline std::string RealTable(const std::string& rel) {
  return std::string(COMMITLAB_SOURCE_DIR) + "/scenarios/tests/data/real-tables/" + rel;
}
// Iceberg's parser fixtures, vendored once for the REST catalog's tests and these.
inline std::string IcebergFixture(const std::string& name) {
  return std::string(COMMITLAB_SOURCE_DIR) + "/third_party/iceberg/table-metadata/" + name;
}
inline std::string WrittenLog(const std::string& rel) {
  return std::string(COMMITLAB_SOURCE_DIR) + "/scenarios/tests/data/import/" + rel;
}

class KeepAll final : public ImportSink {
 public:
  Status Begin(const ImportSource& s) override {
    source = s;
    ++begins;
    return Status::OK();
  }
  Status Commit(ImportedCommit c) override {
    commits.push_back(std::move(c));
    return Status::OK();
  }
  Status Found(const Finding& f) override {
    findings.push_back(f);
    return Status::OK();
  }
  Status End(const TableFacts& f) override {
    facts = f;
    ++ends;
    return Status::OK();
  }

  std::vector<Finding> Of(const std::string& kind) const {
    std::vector<Finding> out;
    for (const Finding& f : findings)
      if (f.kind == kind) out.push_back(f);
    return out;
  }

  ImportSource source;
  std::vector<ImportedCommit> commits;
  std::vector<Finding> findings;
  TableFacts facts;
  int begins = 0;
  int ends = 0;
};

// Imports `path` into a fresh sink; the status is the import's.
inline Status Import(const std::string& path, KeepAll* sink) { return ImportLog({.path = path, .format = {}}, sink); }

}  // namespace commitlab::sim::import

#endif  // COMMITLAB_SIM_TESTS_IMPORT_TEST_UTIL_H_
