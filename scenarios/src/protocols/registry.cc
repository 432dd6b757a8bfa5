#include "protocols/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "commitlab/core/check.h"

namespace commitlab::scenarios {
namespace internal {

// Each protocol's folder makes its module (<p>_module.cc).
std::unique_ptr<ProtocolModule> MakePaimonModule();
std::unique_ptr<ProtocolModule> MakeIcebergModule();
std::unique_ptr<ProtocolModule> MakeDeltaModule();

namespace {

// The table line's keys in the order messages have always listed them (the README's); a key of
// a protocol not listed here follows them, in registry order.
constexpr std::array<std::string_view, 10> kTableKeyOrder = {"name",    "protocol", "primary-key",         "partitions",
                                                             "buckets", "levels",   "ignore-empty-commit", "isolation",
                                                             "flavour", "catalog"};

struct Entry {
  Protocol protocol;
  std::unique_ptr<ProtocolModule> module;
};

class Registry {
 public:
  Registry() {
    // One line per protocol, in the order messages list them.
    entries_.push_back({Protocol::kPaimon, MakePaimonModule()});
    entries_.push_back({Protocol::kIceberg, MakeIcebergModule()});
    entries_.push_back({Protocol::kDelta, MakeDeltaModule()});
    Index();
  }

  void Add(Protocol p, std::unique_ptr<ProtocolModule> module) {
    for (const Entry& e : entries_) COMMITLAB_CHECK(e.protocol != p, "a protocol registered twice");
    entries_.push_back({p, std::move(module)});
    Index();
  }
  void Remove(Protocol p) {
    std::erase_if(entries_, [p](const Entry& e) { return e.protocol == p; });
    Index();
  }
  // A test's protocol registered again keeps its value (core names each value once).
  Protocol ValueFor(std::string name) {
    auto it = added_.find(name);
    if (it == added_.end()) it = added_.emplace(name, AddProtocol(name)).first;
    return it->second;
  }

  const std::vector<Entry>& entries() const { return entries_; }
  const std::vector<Protocol>& protocols() const { return protocols_; }
  const std::vector<std::string_view>& table_keys() const { return table_keys_; }
  const std::vector<std::string_view>& writer_keys() const { return writer_keys_; }

 private:
  // The lists the parser's messages name, rebuilt when a protocol is added.
  void Index() {
    protocols_.clear();
    for (const Entry& e : entries_) protocols_.push_back(e.protocol);
    auto taken = [this](std::string_view key) {
      if (std::find(kSharedTableKeys.begin(), kSharedTableKeys.end(), key) != kSharedTableKeys.end()) return true;
      for (const Entry& e : entries_) {
        const std::span<const std::string_view> keys = e.module->table_keys();
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) return true;
      }
      return false;
    };
    table_keys_.clear();
    for (std::string_view key : kTableKeyOrder)
      if (taken(key)) table_keys_.push_back(key);
    writer_keys_.assign(kSharedWriterKeys.begin(), kSharedWriterKeys.end());
    for (const Entry& e : entries_) {
      for (std::string_view key : e.module->table_keys())
        if (std::find(table_keys_.begin(), table_keys_.end(), key) == table_keys_.end()) table_keys_.push_back(key);
      for (std::string_view key : e.module->writer_keys())
        if (std::find(writer_keys_.begin(), writer_keys_.end(), key) == writer_keys_.end()) writer_keys_.push_back(key);
    }
  }

  std::vector<Entry> entries_;
  std::map<std::string, Protocol> added_;  // tests' protocols, by name
  std::vector<Protocol> protocols_;
  std::vector<std::string_view> table_keys_;
  std::vector<std::string_view> writer_keys_;
};

Registry& TheRegistry() {
  static Registry registry;
  return registry;
}

}  // namespace

std::span<const Protocol> RegisteredProtocols() { return TheRegistry().protocols(); }

const ProtocolModule& ModuleOf(Protocol p) {
  for (const Entry& e : TheRegistry().entries())
    if (e.protocol == p) return *e.module;
  COMMITLAB_CHECK(false, "a protocol the scenario registry does not know");
  return *TheRegistry().entries().front().module;
}

std::span<const std::string_view> TableKeys() { return TheRegistry().table_keys(); }
std::span<const std::string_view> WriterKeys() { return TheRegistry().writer_keys(); }

std::string ProtocolsWhere(const std::function<bool(const ProtocolModule&)>& has) {
  std::string out;
  for (const Entry& e : TheRegistry().entries())
    if (has(*e.module)) out += fmt::format("{}{}", out.empty() ? "" : " and ", ProtocolName(e.protocol));
  return out;
}

Protocol RegisterProtocolForTest(std::string name, std::unique_ptr<ProtocolModule> module) {
  const Protocol p = TheRegistry().ValueFor(std::move(name));
  TheRegistry().Add(p, std::move(module));
  return p;
}

void UnregisterProtocolForTest(Protocol p) { TheRegistry().Remove(p); }

}  // namespace internal

std::vector<Protocol> ScenarioProtocols() {
  const std::span<const Protocol> all = internal::RegisteredProtocols();
  return {all.begin(), all.end()};
}

const ProtocolWords& WordsOf(Protocol p) { return internal::ModuleOf(p).words(); }

bool TakesTableKey(Protocol p, std::string_view key) {
  const std::span<const std::string_view> keys = internal::ModuleOf(p).table_keys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace commitlab::scenarios
