// Paimon snapshots through `commitlab import`'s reader: the snapshots of Paimon's own docs, a
// duplicate commit after an unknown outcome, a LATEST hint past the last file, and bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>

#include "import_test_util.h"

namespace commitlab::sim::import {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(ImportPaimon, TheDocsSnapshotsImport) {
  KeepAll one;
  ASSERT_TRUE(Imports(RealTable("paimon/docs-snapshot-1"), &one, 1u));
  const ImportedCommit& c = one.commits[0];
  EXPECT_EQ(c.kind, "APPEND");
  EXPECT_EQ(c.user, "7d758485-981d-4b1a-a0c6-d34c3eb254bf");
  EXPECT_EQ(c.identifier, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(c.time_ms, 1684155393354);
  EXPECT_EQ(c.records, 1);
  EXPECT_TRUE(c.details.contains("logOffsets"));  // an old field, kept as the file has it
  EXPECT_THAT(one.findings, IsEmpty());

  KeepAll four;
  ASSERT_TRUE(Imports(RealTable("paimon/docs-snapshot-4"), &four, 1u));
  EXPECT_EQ(four.commits[0].kind, "COMPACT");
  EXPECT_EQ(four.commits[0].records, -16);
  EXPECT_THAT(four.source.not_read[0], HasSubstr("snapshots 1..3: expired"));
}

TEST(ImportPaimon, AUserAndIdentifierCommittedTwice) {
  KeepAll sink;
  ASSERT_TRUE(Imports(WrittenLog("paimon-duplicate"), &sink));
  const std::vector<Finding> dup = sink.Of("duplicate_commit");
  ASSERT_EQ(dup.size(), 2u);
  EXPECT_TRUE(dup[0].problem);
  EXPECT_THAT(dup[0].commits, ::testing::ElementsAre(2, 3));
  EXPECT_THAT(dup[0].message, HasSubstr("the same user and identifier committed twice"));
  // Two batch commits (identifier Long.MAX_VALUE) of one user are not deduplicated by Paimon: a note.
  EXPECT_FALSE(dup[1].problem);
  ASSERT_EQ(sink.Of("gap").size(), 1u);
  EXPECT_TRUE(sink.Of("gap")[0].problem);
  EXPECT_THAT(sink.Of("gap")[0].message, HasSubstr("the LATEST hint says 7"));
}

TEST(ImportPaimon, BadSnapshotsNameTheFileAndLine) {
  const std::map<std::string, std::string> cases = {
      {"paimon-missing", "paimon-missing/snapshot/snapshot-2: missing: the table holds snapshots 1..3 but not 2"},
      {"paimon-bad-kind", "paimon-bad-kind/snapshot/snapshot-1:10: commitKind \"MERGE\" is not one of APPEND"},
      {"paimon-new-version",
       "paimon-new-version/snapshot/snapshot-1:2: snapshot version 4: this reader knows versions "
       "up to 3 (Snapshot.CURRENT_VERSION)"},
  };
  for (const auto& [log, message] : cases) {
    SCOPED_TRACE(log);
    KeepAll sink;
    const Status st = Import(WrittenLog(log), &sink);
    ASSERT_FALSE(st.ok());
    EXPECT_THAT(st.message(), HasSubstr(message));
  }
}

}  // namespace
}  // namespace commitlab::sim::import
