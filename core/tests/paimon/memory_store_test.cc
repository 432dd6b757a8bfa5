#include "commitlab/core/paimon/memory_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace commitlab {
namespace {

Snapshot MakeSnapshot(int64_t id, std::string manifest) {
  DataFile f{.name = "data-" + std::to_string(id) + "-with-a-name-too-long-for-inline-storage", .row_count = 1};
  return Snapshot{.id = id,
                  .parent_id = id - 1,
                  .commit_user = "writer",
                  .commit_identifier = id,
                  .total_records = id,
                  .delta_records = 1,
                  .delta_manifest = std::move(manifest),
                  .changes = {{ChangeKind::kAdd, f}}};
}

class MemoryStoreTest : public ::testing::TestWithParam<MemoryStore::Threads> {};

TEST_P(MemoryStoreTest, LatestSnapshotRefAgreesWithLatestSnapshotAndSharesTheStoredOne) {
  MemoryStore store(GetParam());
  Result<SnapshotRef> empty = store.LatestSnapshotRef();
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, nullptr);  // an empty table

  for (int64_t id = 1; id <= 3; ++id) {
    ASSERT_EQ(store.Publish(MakeSnapshot(id, "manifest-" + std::to_string(id))).outcome, PublishOutcome::kPublished);
    Result<SnapshotRef> latest = store.LatestSnapshotRef();
    Result<std::optional<Snapshot>> copy = store.LatestSnapshot();
    ASSERT_TRUE(latest.ok() && copy.ok());
    ASSERT_NE(*latest, nullptr);
    EXPECT_EQ(**latest, **copy);
    Result<SnapshotRef> again = store.LatestSnapshotRef();
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(latest->get(), again->get());  // the stored snapshot itself, not a copy
  }
  Result<SnapshotRef> held = store.LatestSnapshotRef();
  ASSERT_TRUE(held.ok());
  EXPECT_EQ(store.Publish(MakeSnapshot(3, "late")).outcome, PublishOutcome::kAlreadyExists);
  ASSERT_EQ(store.Publish(MakeSnapshot(4, "manifest-4")).outcome, PublishOutcome::kPublished);
  EXPECT_EQ((*held)->delta_manifest, "manifest-3");  // a reader's reference never changes under it
}

TEST_P(MemoryStoreTest, ManifestsAreListedSortedOnceEach) {
  MemoryStore store(GetParam());
  for (const char* name : {"m-b", "m-a", "m-c", "m-a"}) ASSERT_TRUE(store.WriteManifest(name, {}).ok());
  EXPECT_EQ(store.ListManifests(), (std::vector<std::string>{"m-a", "m-b", "m-c"}));
  EXPECT_TRUE(MemoryStore(GetParam()).ListManifests().empty());
}

TEST_P(MemoryStoreTest, AStoreThatForgetsManifestsAcceptsThemAndListsNone) {
  MemoryStore store(GetParam(), MemoryStore::Manifests::kForget);
  for (const char* name : {"m-b", "m-a"}) EXPECT_TRUE(store.WriteManifest(name, {}).ok());
  EXPECT_TRUE(store.ListManifests().empty());
  // Snapshots are kept as ever.
  ASSERT_EQ(store.Publish(MakeSnapshot(1, "m-a")).outcome, PublishOutcome::kPublished);
  EXPECT_EQ(store.ReadSnapshot(1)->delta_manifest, "m-a");
}

TEST_P(MemoryStoreTest, ManyManifestsAcrossChunksAreAllListed) {
  MemoryStore store(GetParam());
  std::vector<std::string> want;
  // ~300 KiB of names: several chunks, names of varying length, one longer than a whole chunk.
  for (int i = 0; i < 6000; ++i)
    want.push_back("manifest-" + std::string(static_cast<size_t>(i % 70), 'x') + std::to_string(i));
  want.push_back("manifest-" + std::string(100 << 10, 'y'));
  for (const std::string& name : want) ASSERT_TRUE(store.WriteManifest(name, {}).ok());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(store.ListManifests(), want);
}

INSTANTIATE_TEST_SUITE_P(BothThreadings, MemoryStoreTest,
                         ::testing::Values(MemoryStore::Threads::kMany, MemoryStore::Threads::kOne));

}  // namespace
}  // namespace commitlab
