// What the import tests share: the vendored logs (scenarios/tests/data/real-tables, and the small
// logs written for the findings real data does not show, scenarios/tests/data/import), and a sink
// that keeps everything an import hands it.
#ifndef COMMITLAB_SIM_TESTS_IMPORT_TEST_UTIL_H_
#define COMMITLAB_SIM_TESTS_IMPORT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <optional>
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

// Whether `path` imports (failing with the reader's own message) and, when `commits` is given, into
// that many commits: ASSERT_TRUE(Imports(path, &sink, 5)).
inline ::testing::AssertionResult Imports(const std::string& path, KeepAll* sink,
                                          std::optional<size_t> commits = std::nullopt) {
  if (const Status st = Import(path, sink); !st.ok()) return ::testing::AssertionFailure() << st.message();
  if (commits && sink->commits.size() != *commits)
    return ::testing::AssertionFailure() << path << ": " << sink->commits.size() << " commits, not " << *commits;
  return ::testing::AssertionSuccess();
}

}  // namespace commitlab::sim::import

#endif  // COMMITLAB_SIM_TESTS_IMPORT_TEST_UTIL_H_
