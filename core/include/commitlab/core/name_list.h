// NameList: names kept one after another, each ended by '\0', in chunks that are never regrown
// (each new one as large as all before it, from 4 KiB up to 64 KiB). A name costs its bytes and
// one more, where a std::vector<std::string> costs 32 more and an allocation for a long one: a
// store keeps every manifest name written, a writer every file it wrote, millions in a long run.
#ifndef COMMITLAB_CORE_NAME_LIST_H_
#define COMMITLAB_CORE_NAME_LIST_H_

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace commitlab {

class NameList {
 public:
  // REQUIRES: `name` holds no '\0'.
  void Add(std::string_view name) {
    const size_t needed = name.size() + 1;
    if (chunks_.empty() || chunks_.back().capacity() - chunks_.back().size() < needed) {
      constexpr size_t kMinChunk = 4 << 10, kMaxChunk = 64 << 10;
      chunks_.emplace_back().reserve(std::max(needed, std::clamp(bytes_, kMinChunk, kMaxChunk)));
    }
    chunks_.back().append(name).push_back('\0');
    bytes_ += needed;
    ++size_;
  }

  // Calls f(std::string_view) with every name, in the order they were added (duplicates too).
  template <typename F>
  void ForEach(F&& f) const {
    for (const std::string& chunk : chunks_) {
      for (size_t at = 0, end; at < chunk.size(); at = end + 1) {
        end = chunk.find('\0', at);
        f(std::string_view(chunk).substr(at, end - at));
      }
    }
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  std::vector<std::string> chunks_;
  size_t bytes_ = 0;
  size_t size_ = 0;
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_NAME_LIST_H_
