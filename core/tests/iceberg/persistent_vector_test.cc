#include "commitlab/core/iceberg/persistent_vector.h"

#include <gtest/gtest.h>

#include <iterator>
#include <memory>
#include <stdexcept>
#include <vector>

#include "commitlab/core/rng.h"

namespace commitlab::iceberg {
namespace {

using Ref = std::shared_ptr<const int>;
static_assert(std::forward_iterator<PersistentVector<Ref>::const_iterator>);

std::vector<int> Values(const PersistentVector<Ref>& v) {
  std::vector<int> out;
  for (const Ref& r : v) out.push_back(*r);
  return out;
}

std::vector<int> Indexed(const PersistentVector<Ref>& v) {
  std::vector<int> out;
  for (size_t i = 0; i < v.size(); ++i) out.push_back(*v[i]);
  return out;
}

TEST(PersistentVectorTest, ReadsLikeAVectorAcrossChunkBoundaries) {
  PersistentVector<Ref> v;
  EXPECT_TRUE(v.empty());
  std::vector<int> model;
  for (int i = 0; i < 100; ++i) {
    v.push_back(std::make_shared<const int>(i));
    model.push_back(i);
    ASSERT_EQ(v.size(), model.size());
    ASSERT_EQ(*v.back(), i);
    ASSERT_EQ(Values(v), model);
    ASSERT_EQ(Indexed(v), model);
  }
  EXPECT_EQ(*v.front(), 0);
  EXPECT_EQ(v.ToVector().size(), 100u);
}

TEST(PersistentVectorTest, BuiltFromAVectorOfAnyLength) {
  for (int n : {0, 1, 15, 16, 17, 32, 33, 100}) {
    std::vector<Ref> refs;
    std::vector<int> model;
    for (int i = 0; i < n; ++i) {
      refs.push_back(std::make_shared<const int>(i));
      model.push_back(i);
    }
    const PersistentVector<Ref> v(refs);
    EXPECT_EQ(Values(v), model) << n;
    EXPECT_EQ(Indexed(v), model) << n;
    EXPECT_EQ(v.ToVector(), refs) << n;
  }
}

// An entry whose copy throws once a shared budget runs out.
struct Fragile {
  static inline int copies_left = 1000;
  int value = 0;
  explicit Fragile(int v) : value(v) {}
  Fragile(const Fragile& o) : value(o.value) {
    if (--copies_left < 0) throw std::runtime_error("copy refused");
  }
  Fragile& operator=(const Fragile&) = default;
};

TEST(PersistentVectorTest, APushThatThrowsLeavesTheVectorAsItWas) {
  for (int n : {5, 15, 31}) {  // a partial tail; a tail about to fill (the full list grows); both
    Fragile::copies_left = 1000;
    PersistentVector<Fragile> v;
    for (int i = 0; i < n; ++i) v.push_back(Fragile(i));
    for (int budget = 0; budget < 20; ++budget) {
      Fragile::copies_left = budget;
      try {
        v.push_back(Fragile(n));
        break;  // enough copies this time
      } catch (const std::runtime_error&) {
        Fragile::copies_left = 1000;
        ASSERT_EQ(v.size(), static_cast<size_t>(n)) << n << " " << budget;
        for (int i = 0; i < n; ++i) ASSERT_EQ(v[static_cast<size_t>(i)].value, i);
      }
    }
    Fragile::copies_left = 1000;
    ASSERT_EQ(v.size(), static_cast<size_t>(n + 1));
    EXPECT_EQ(v.back().value, n);
  }
}

TEST(PersistentVectorTest, CopiesAreIndependentAndShareTheirEntries) {
  PersistentVector<Ref> base;
  for (int i = 0; i < 37; ++i) base.push_back(std::make_shared<const int>(i));
  PersistentVector<Ref> a = base;
  PersistentVector<Ref> b = base;
  a.push_back(std::make_shared<const int>(100));
  b.push_back(std::make_shared<const int>(200));
  b.push_back(std::make_shared<const int>(201));
  EXPECT_EQ(base.size(), 37u);
  EXPECT_EQ(*a.back(), 100);
  EXPECT_EQ(*b[37], 200);
  EXPECT_EQ(*b.back(), 201);
  EXPECT_EQ(a[5], base[5]);  // the same entry, not a copy of it
  a.set(5, std::make_shared<const int>(-5));
  EXPECT_EQ(*a[5], -5);
  EXPECT_EQ(*base[5], 5);
  EXPECT_EQ(*b[5], 5);
}

TEST(PersistentVectorTest, EraseIfKeepsTheOrderOfTheRest) {
  PersistentVector<Ref> v;
  for (int i = 0; i < 40; ++i) v.push_back(std::make_shared<const int>(i));
  const PersistentVector<Ref> before = v;
  EXPECT_EQ(v.erase_if([](const Ref& r) { return *r % 3 != 0; }), 26u);
  std::vector<int> expected;
  for (int i = 0; i < 40; i += 3) expected.push_back(i);
  EXPECT_EQ(Values(v), expected);
  EXPECT_EQ(before.size(), 40u);
  EXPECT_EQ(v.erase_if([](const Ref&) { return false; }), 0u);
  v.clear();
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(before.size(), 40u);
}

// Random pushes, sets and erasures on random versions, each checked against a std::vector copy:
// no change to one version shows in another.
TEST(PersistentVectorTest, ManyVersionsAgreeWithVectorCopies) {
  Rng rng(7);
  std::vector<PersistentVector<Ref>> versions(1);
  std::vector<std::vector<int>> models(1);
  for (int step = 0; step < 3000; ++step) {
    const size_t from = rng.Below(versions.size());
    PersistentVector<Ref> v = versions[from];
    std::vector<int> m = models[from];
    const uint64_t op = rng.Below(10);
    if (op < 7 || m.empty()) {
      v.push_back(std::make_shared<const int>(step));
      m.push_back(step);
    } else if (op < 9) {
      const size_t i = rng.Below(m.size());
      v.set(i, std::make_shared<const int>(-step));
      m[i] = -step;
    } else {
      const int odd = step % 2;
      v.erase_if([&](const Ref& r) { return (*r & 1) == odd; });
      std::erase_if(m, [&](int x) { return (x & 1) == odd; });
    }
    versions.push_back(std::move(v));
    models.push_back(std::move(m));
  }
  for (size_t i = 0; i < versions.size(); ++i) {
    ASSERT_EQ(Values(versions[i]), models[i]) << "version " << i;
    ASSERT_EQ(Indexed(versions[i]), models[i]) << "version " << i;
  }
}

}  // namespace
}  // namespace commitlab::iceberg
