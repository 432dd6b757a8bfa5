#include "commitlab/sim/schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "commitlab/core/check.h"
#include "commitlab/core/model.h"

namespace commitlab::sim {
namespace {

constexpr std::string_view kTag = "sched1:";
constexpr int64_t kMaxCount = int64_t{1} << 48;  // far beyond any run, far below overflow

// The start of a possibly huge string, for error messages.
std::string Quote(std::string_view text) {
  constexpr size_t kMax = 40;
  if (text.size() <= kMax) return fmt::format("\"{}\"", text);
  return fmt::format("\"{}...\"", text.substr(0, kMax));
}

// Reads a decimal number at text[*pos]; false if there is none or it is absurdly large.
bool ReadNumber(std::string_view text, size_t* pos, int64_t* out) {
  const char* begin = text.data() + *pos;
  const char* end = text.data() + text.size();
  if (begin == end || !std::isdigit(static_cast<unsigned char>(*begin))) return false;
  auto [ptr, ec] = std::from_chars(begin, end, *out);
  if (ec != std::errc() || *out > kMaxCount) return false;
  *pos += static_cast<size_t>(ptr - begin);
  return true;
}

}  // namespace

namespace {

// Writes `v` as a varint at `at`; returns the end. Room: 10 bytes.
char* PutVarint(uint64_t v, char* at) {
  while (v >= 0x80) {
    *at++ = static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  *at++ = static_cast<char>(v);
  return at;
}

uint64_t GetVarint(std::string_view bytes, size_t* pos) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const auto b = static_cast<unsigned char>(bytes[(*pos)++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}

}  // namespace

void ScheduleRuns::Append(int writer, int64_t count) {
  COMMITLAB_DCHECK(writer >= 0 && count >= 1, "a run names a writer and at least one step");
  steps_ += count;
  if (open_.count > 0 && open_.writer == writer) {
    open_.count += count;
    return;
  }
  if (open_.count > 0) {  // one append a closed run: a 512-writer race closes one nearly every step
    char run[20];
    char* end = PutVarint(static_cast<uint64_t>(open_.count), PutVarint(static_cast<uint64_t>(open_.writer), run));
    bytes_.append(run, static_cast<size_t>(end - run));
    ++closed_;
  }
  open_ = {writer, count};
}

ScheduleRuns::Iterator::Iterator(const ScheduleRuns* runs, size_t index) : runs_(runs), index_(index) {
  if (index_ == 0) Load();
}

void ScheduleRuns::Iterator::Load() {
  if (index_ < runs_->closed_) {
    current_.writer = static_cast<int>(GetVarint(runs_->bytes_, &pos_));
    current_.count = static_cast<int64_t>(GetVarint(runs_->bytes_, &pos_));
  } else if (index_ == runs_->closed_) {
    current_ = runs_->open_;
  }
}

ScheduleRuns::Iterator& ScheduleRuns::Iterator::operator++() {
  ++index_;
  Load();
  return *this;
}

namespace {

// WriterSymbol's text, appended: a schedule of hundreds of writers holds millions of them.
void AppendWriterSymbol(int writer, std::string* out) {
  if (writer >= 0 && writer < 26) {
    out->push_back(static_cast<char>('a' + writer));
  } else if (writer >= 26 && writer < 52) {
    out->push_back(static_cast<char>('A' + writer - 26));
  } else {
    out->push_back('{');
    AppendDecimal(writer, out);
    out->push_back('}');
  }
}

}  // namespace

std::string WriterSymbol(int writer) {
  std::string out;
  AppendWriterSymbol(writer, &out);
  return out;
}

std::string FormatSchedule(const RecordedSchedule& schedule) {
  std::string out = fmt::format("{}{}w:{}s:", kTag, schedule.writers, schedule.steps());
  // One symbol and a count per run: reserved at a symbol's longest for the writer count, plus a
  // digit or two, so that the string grows once.
  const size_t symbol = schedule.writers <= 52 ? 1 : 2 + std::to_string(schedule.writers).size();
  out.reserve(out.size() + schedule.runs.size() * (symbol + 2));
  // Every writer's symbol made once: a 512-writer race writes "{N}" millions of times.
  std::vector<std::string> symbols(static_cast<size_t>(std::max(schedule.writers, 0)));
  for (size_t w = 0; w < symbols.size(); ++w) symbols[w] = WriterSymbol(static_cast<int>(w));
  for (const ScheduleRun& r : schedule.runs) {
    if (static_cast<size_t>(r.writer) < symbols.size()) {
      out += symbols[static_cast<size_t>(r.writer)];
    } else {
      AppendWriterSymbol(r.writer, &out);  // a schedule built by hand may name any writer
    }
    if (r.count != 1) AppendDecimal(r.count, &out);
  }
  return out;
}

Result<RecordedSchedule> ParseSchedule(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  auto error = [&](std::string_view what) {
    return Status::InvalidArgument(fmt::format("schedule string {}: {}", Quote(s), what));
  };
  if (!s.starts_with(kTag)) return error(fmt::format("expected it to start with \"{}\"", kTag));
  size_t pos = kTag.size();
  int64_t writers = 0;
  int64_t steps = 0;
  if (!ReadNumber(s, &pos, &writers) || writers > 100'000 || s.substr(pos, 2) != "w:")
    return error(fmt::format("expected the writer count as \"<W>w:\" after \"{}\"", kTag));
  pos += 2;
  if (!ReadNumber(s, &pos, &steps) || s.substr(pos, 2) != "s:")
    return error("expected the step count as \"<S>s:\" after the writer count");
  pos += 2;

  RecordedSchedule out;
  out.writers = static_cast<int>(writers);
  int64_t total = 0;
  while (pos < s.size()) {
    const size_t at = pos;  // offset in the string without whitespace
    const char c = s[pos];
    int64_t writer = 0;
    if (c >= 'a' && c <= 'z') {
      writer = c - 'a';
      ++pos;
    } else if (c >= 'A' && c <= 'Z') {
      writer = 26 + (c - 'A');
      ++pos;
    } else if (c == '{') {
      ++pos;
      if (!ReadNumber(s, &pos, &writer) || pos >= s.size() || s[pos] != '}')
        return error(fmt::format("expected \"{{<writer index>}}\" at offset {}", at));
      ++pos;
    } else {
      return error(fmt::format("unexpected '{}' at offset {}: expected a writer (a-z, A-Z or {{N}})", c, at));
    }
    if (writer >= writers)
      return error(fmt::format("step {} names writer {} (#{}), but the header says {} writers", total,
                               WriterSymbol(static_cast<int>(writer)), writer, writers));
    int64_t count = 1;
    if (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
      if (!ReadNumber(s, &pos, &count) || count < 1)
        return error(fmt::format("bad repeat count after writer {} at offset {}: expected 1 to {}",
                                 WriterSymbol(static_cast<int>(writer)), at, kMaxCount));
    }
    out.runs.Append(static_cast<int>(writer), count);  // "a2a3" is legal, if not canonical: one run
    total += count;
    if (total > kMaxCount) return error("too many steps");
  }
  if (total != steps)
    return error(fmt::format("it lists {} steps but its header says {}: was it cut short when copied?", total, steps));
  return out;
}

}  // namespace commitlab::sim
