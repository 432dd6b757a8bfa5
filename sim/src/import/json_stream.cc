#include "json_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <iterator>
#include <memory>
#include <optional>

#include "commitlab/core/file_read.h"
#include "json_input.h"

namespace commitlab::sim::import::internal {
namespace {

constexpr int kMaxDepth = 256;

// A file read through one buffer, counting lines as the parser consumes it.
class CountingSource {
 public:
  explicit CountingSource(int fd) : fd_(fd) {}
  bool AtEnd() {
    if (pos_ < len_) return false;
    Fill();
    return pos_ >= len_;
  }
  char Get() const { return buf_[pos_]; }
  void Advance() {
    if (buf_[pos_] == '\n') ++line_;
    ++pos_;
  }
  size_t line() const { return line_; }
  int error() const { return error_; }

 private:
  void Fill() {
    pos_ = len_ = 0;
    if (eof_) return;
    ssize_t n = 0;
    do {
      n = ::read(fd_, buf_.data(), buf_.size());
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
      eof_ = true;
      if (n < 0) error_ = errno;
      return;
    }
    len_ = static_cast<size_t>(n);
  }

  int fd_;
  std::array<char, 64 << 10> buf_{};
  size_t pos_ = 0;
  size_t len_ = 0;
  bool eof_ = false;
  int error_ = 0;
  size_t line_ = 1;
};

// The input iterator nlohmann's parser reads through; copies share the source.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;

  CountingIterator() = default;
  explicit CountingIterator(CountingSource* s) : s_(s) {}
  char operator*() const { return s_->Get(); }
  CountingIterator& operator++() {
    s_->Advance();
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator before = *this;
    s_->Advance();
    return before;
  }
  bool operator==(const CountingIterator& o) const { return AtEnd() == o.AtEnd(); }
  bool operator!=(const CountingIterator& o) const { return !(*this == o); }

 private:
  bool AtEnd() const { return s_ == nullptr || s_->AtEnd(); }
  CountingSource* s_ = nullptr;
};

using DomParser = nlohmann::detail::json_sax_dom_parser<Json>;

class Handler {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  Handler(const std::string& file, const StreamPlan& plan, const std::string& not_object, const MemberFn& member,
          const MemberFn& element, const CountingSource* source)
      : file_(file), plan_(plan), not_object_(not_object), member_(member), element_(element), source_(source) {}

  bool null() { return Value(Json(nullptr)); }
  bool boolean(bool v) { return Value(Json(v)); }
  bool number_integer(number_integer_t v) { return Value(Json(v)); }
  bool number_unsigned(number_unsigned_t v) { return Value(Json(v)); }
  bool number_float(number_float_t v, const string_t&) { return Value(Json(v)); }
  bool string(string_t& v) { return Value(Json(v)); }
  bool binary(binary_t&) { return Fail(Bad(file_, source_->line(), "not JSON: binary value")); }
  bool key(string_t& k) {
    if (dom_) return dom_->key(k);
    if (depth_ == 1) {
      key_ = k;
      key_line_ = source_->line();
    }
    return true;
  }
  bool start_object(std::size_t n) { return Open(n, /*object=*/true); }
  bool start_array(std::size_t n) { return Open(n, /*object=*/false); }
  bool end_object() { return Close(/*object=*/true); }
  bool end_array() { return Close(/*object=*/false); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    std::string why = e.what();
    if (const size_t colon = why.find(": ", why.find("column")); colon != std::string::npos)
      why = why.substr(colon + 2);
    return Fail(Bad(file_, source_->line(), "not JSON: " + why));
  }

  const Status& status() const { return status_; }

 private:
  bool Fail(Status st) {
    if (status_.ok()) status_ = std::move(st);
    return false;
  }
  bool Call(const MemberFn& fn, Json v, size_t line) {
    Status st = fn(key_, std::move(v), line);
    return st.ok() || Fail(std::move(st));
  }

  // A scalar: a top-level member, an element of a streamed array, or a part of a captured value.
  bool Value(Json v) {
    if (dom_) return Forward([&](DomParser& d) { return Feed(d, v); });
    if (depth_ == 0) return Fail(Bad(file_, 1, not_object_));
    if (depth_ == 1) return Call(member_, std::move(v), key_line_);
    if (depth_ == 2 && streaming_) return Call(element_, std::move(v), source_->line());
    return true;  // inside a skipped value
  }

  static bool Feed(DomParser& d, Json& v) {
    if (v.is_null()) return d.null();
    if (v.is_boolean()) return d.boolean(v.get<bool>());
    if (v.is_number_unsigned()) return d.number_unsigned(v.get<number_unsigned_t>());
    if (v.is_number_integer()) return d.number_integer(v.get<number_integer_t>());
    if (v.is_number_float()) return d.number_float(v.get<number_float_t>(), "");
    return d.string(v.get_ref<string_t&>());
  }

  template <typename F>
  bool Forward(F f) {
    return f(*dom_);
  }

  bool Open(std::size_t n, bool object) {
    if (depth_ == 0 && !object) return Fail(Bad(file_, 1, not_object_));
    if (++depth_ > kMaxDepth) return Fail(Bad(file_, source_->line(), fmt::format("nested deeper than {}", kMaxDepth)));
    if (dom_) return object ? dom_->start_object(n) : dom_->start_array(n);
    const bool whole = depth_ == 2 && plan_.whole.count(key_) > 0;
    const bool element = depth_ == 3 && streaming_;
    if (depth_ == 2 && plan_.elements.count(key_) > 0) {
      if (object) return Fail(Bad(file_, key_line_, fmt::format("Cannot parse {} from non-array", key_)));
      streaming_ = true;
      return true;
    }
    if (whole || element) {
      captured_ = Json();
      dom_ = std::make_unique<DomParser>(captured_, /*allow_exceptions=*/false);
      dom_depth_ = depth_;
      capture_line_ = element ? source_->line() : key_line_;
      return object ? dom_->start_object(n) : dom_->start_array(n);
    }
    return true;
  }

  bool Close(bool object) {
    if (dom_) {
      const bool ok = object ? dom_->end_object() : dom_->end_array();
      if (!ok) return false;
      if (depth_-- != dom_depth_) return true;
      dom_.reset();
      return Call(dom_depth_ == 2 ? member_ : element_, std::move(captured_), capture_line_);
    }
    if (depth_ == 2 && streaming_) streaming_ = false;
    --depth_;
    return true;
  }

  const std::string& file_;
  const StreamPlan& plan_;
  const std::string& not_object_;
  const MemberFn& member_;
  const MemberFn& element_;
  const CountingSource* source_;
  Status status_;
  int depth_ = 0;
  std::string key_;
  size_t key_line_ = 1;
  bool streaming_ = false;  // inside an array of plan.elements
  std::unique_ptr<DomParser> dom_;
  Json captured_;
  int dom_depth_ = 0;
  size_t capture_line_ = 1;
};

}  // namespace

Status StreamObject(const std::string& file, const StreamPlan& plan, const std::string& not_object,
                    const MemberFn& member, const MemberFn& element) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Bad(file, 0, fmt::format("cannot open: {}", ErrnoText(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Bad(file, 0, "not a regular file");
  }
  auto source = std::make_unique<CountingSource>(fd);
  Handler handler(file, plan, not_object, member, element, source.get());
  bool parsed = false;
  try {
    parsed = Json::sax_parse(CountingIterator(source.get()), CountingIterator(), &handler);
  } catch (const nlohmann::json::exception& e) {
    ::close(fd);
    return Bad(file, source->line(), fmt::format("not JSON: {}", e.what()));
  }
  ::close(fd);
  if (source->error() != 0) return Bad(file, 0, fmt::format("cannot read: {}", ErrnoText(source->error())));
  if (!handler.status().ok()) return handler.status();
  if (!parsed) return Bad(file, source->line(), "not JSON");
  return Status::OK();
}

}  // namespace commitlab::sim::import::internal
