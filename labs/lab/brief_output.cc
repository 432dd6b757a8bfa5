#include "lab/brief_output.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>

#include "commitlab/sim/std_regex.h"
#include "commitlab/sim/text_width.h"
#include "lab/lab_text.h"

namespace commitlab::cli {
namespace {

using sim::IsWide;
using sim::NextCodePoint;

// Runs of 10 or more digits (Iceberg's snapshot ids): the first four and "…".
std::string ShortNumbers(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    // Long.MAX_VALUE stays whole: Paimon's FileStoreCommitImpl.tryCommit prints "Commit failed after
    // 9223372036854775807 millis" when commit.timeout is unset.
    if (j - i >= 10 && text.substr(i, j - i) != "9223372036854775807") {
      out.append(text.substr(i, 4)).append("…");
      i = j;
    } else if (j > i) {
      out.append(text.substr(i, j - i));
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}

// A Paimon file entry ("{kind=ADD, partition=, bucket=0, level=5, fileName=..., minKey=1,
// maxKey=3, rowCount=3}", model.cc's FileChange::ToString after Paimon's ManifestEntry.toString)
// with only what S2 第 5 讲 shows of it: kind, level, fileName and rowCount.
std::string LectureEntry(const std::string& line) {
  static const std::regex kDropped(R"(, (partition|bucket|minKey|maxKey)=[^,}]*)");
  if (line.find("{kind=") == std::string::npos) return line;
  return std::regex_replace(line, kDropped, "");
}

std::string Trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

}  // namespace

// The first `columns` columns of `s`, cut at a character boundary; *rest is the byte offset after.
std::string Head(std::string_view s, size_t columns, size_t* rest) {
  size_t used = 0;
  size_t i = 0;
  while (i < s.size()) {
    size_t next = i;
    const size_t w = IsWide(NextCodePoint(s, &next)) ? 2 : 1;
    if (used + w > columns) break;
    used += w;
    i = next;
  }
  *rest = i;
  return std::string(s.substr(0, i));
}

// The indent of prose's continuation lines: under the text after its label, or "" for no prose.
std::string ProseIndent(std::string_view line) {
  for (std::string_view label : {"source: ", "claim:  ", "why: ", "lectures: ", "invariants: ", "verdict: ", "出处：",
                                 "断言：", "原因：", "讲义对照：", "结论：", "不变量："})
    if (line.starts_with(label)) return std::string(DisplayColumns(label), ' ');
  // An explanation's own lines: five spaces and then text (its tables have more).
  if (line.size() > 5 && line.starts_with("     ") && line[5] != ' ') return std::string(7, ' ');
  if (line.size() > 6 && line.starts_with("      ") && line[6] != ' ') return std::string(8, ' ');
  return "";
}

void BriefFilter::Emit(std::string_view line, std::vector<std::string>* out) const {
  const std::string s = ShortNumbers(AbbreviateUuids(line));
  if (DisplayColumns(s) <= kBriefColumns) {
    out->push_back(s);
    return;
  }
  const std::string indent = ProseIndent(s);
  if (indent.empty()) {
    // A file entry as S2 第 5 讲 prints it: kind, level, file name and rowCount.
    if (const std::string entry = LectureEntry(s); entry != s && DisplayColumns(entry) <= kBriefColumns) {
      out->push_back(entry);
      return;
    }
    // A log line is cut between words (none of them half), its end marked.
    size_t rest = 0;
    std::string head = Head(s, kBriefColumns - 2, &rest);
    if (const size_t space = head.rfind(' '); space != std::string::npos && space > kBriefColumns / 2)
      head.erase(space);
    out->push_back(head + " …");
    return;
  }
  std::string_view left(s);
  std::string prefix;
  while (!left.empty()) {
    const size_t room = kBriefColumns - prefix.size();
    if (DisplayColumns(left) <= room) {
      out->push_back(prefix + std::string(left));
      break;
    }
    size_t cut = 0;
    const std::string head = Head(left, room, &cut);
    // Break at the last space that leaves something on this line; CJK text has none, so cut there.
    const size_t space = head.rfind(' ');
    if (space != std::string::npos && space > prefix.size() / 2 + 8) {
      cut = space;
    } else if (cut < left.size() && cut > 0) {
      // Chinese line-breaking rules: a closing mark does not start the next line.
      size_t next = cut;
      if (std::u32string_view(U"，。、；：）」』》？！").find(NextCodePoint(left, &next)) !=
          std::u32string_view::npos) {
        size_t back = cut - 1;
        while (back > 0 && (static_cast<unsigned char>(left[back]) & 0xC0) == 0x80) --back;
        cut = back;
      }
    }
    out->push_back(prefix + std::string(left.substr(0, cut)));
    left.remove_prefix(cut);
    while (!left.empty() && left.front() == ' ') left.remove_prefix(1);
    prefix = indent;
  }
}

std::vector<std::string> BriefFilter::Feed(std::string_view line) {
  std::vector<std::string> out;
  const std::string text = Trim(line);
  if (holding_) {
    holding_ = false;
    // "Successfully commit snapshot N ..." followed by its narrated "snapshot N ..." line: once.
    const size_t at = held_.find("Successfully commit snapshot ");
    const std::string id = at == std::string::npos ? "" : held_.substr(at + 29, held_.find(' ', at + 29) - at - 29);
    if (id.empty() || !text.starts_with("snapshot " + id + " ")) Emit(held_, &out);
  }
  if (line.find(" INFO  [") != std::string_view::npos &&
      line.find("Successfully commit snapshot ") != std::string_view::npos) {
    held_ = std::string(line);
    holding_ = true;
    return out;
  }
  if (const size_t e = line.find(" ERROR ["); e != std::string_view::npos) {
    const size_t close = line.find("] ", e);
    last_error_ = close == std::string_view::npos ? "" : Trim(line.substr(close + 2));
  }
  // A refusal block repeats the ERROR line it follows.
  if (text.starts_with("| ") && !last_error_.empty() && Trim(text.substr(2)) == last_error_) return out;
  for (std::string_view label : {std::string_view("claim:"), std::string_view("断言：")})
    if (text.starts_with(label)) last_claim_ = Trim(text.substr(label.size()));
  // "verdict: AGREES — <the claim>" says the claim a second time.
  if ((text.starts_with("verdict: ") || text.starts_with("结论：")) && !last_claim_.empty()) {
    const std::string tail = " — " + last_claim_;
    if (const size_t at = std::string(line).find(tail); at != std::string::npos) {
      Emit(line.substr(0, at), &out);
      return out;
    }
  }
  Emit(line, &out);
  return out;
}

std::vector<std::string> BriefFilter::Flush() {
  std::vector<std::string> out;
  if (holding_) Emit(held_, &out);
  holding_ = false;
  return out;
}

BriefStdout::BriefStdout() {
  std::fflush(stdout);
  int fds[2];
  if (::pipe(fds) != 0) return;
  saved_ = ::dup(STDOUT_FILENO);
  if (saved_ < 0 || ::dup2(fds[1], STDOUT_FILENO) < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    saved_ = -1;
    return;
  }
  ::close(fds[1]);
  read_end_ = fds[0];
  pump_ = std::thread([in = read_end_, out = saved_] {
    BriefFilter filter;
    std::string pending;
    auto write_all = [out](const std::vector<std::string>& lines) {
      for (const std::string& l : lines) {
        const std::string s = l + "\n";
        for (size_t at = 0; at < s.size();) {
          const ssize_t n = ::write(out, s.data() + at, s.size() - at);
          if (n <= 0) return;
          at += static_cast<size_t>(n);
        }
      }
    };
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(in, buf, sizeof buf);
      if (n <= 0) break;
      pending.append(buf, static_cast<size_t>(n));
      for (size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
        write_all(filter.Feed(std::string_view(pending).substr(0, nl)));
        pending.erase(0, nl + 1);
      }
    }
    if (!pending.empty()) write_all(filter.Feed(pending));
    write_all(filter.Flush());
  });
}

BriefStdout::~BriefStdout() {
  if (saved_ < 0) return;
  std::fflush(stdout);
  ::dup2(saved_, STDOUT_FILENO);  // closes the pipe's last write end: the pump sees the end
  pump_.join();
  ::close(read_end_);
  ::close(saved_);
}

}  // namespace commitlab::cli
