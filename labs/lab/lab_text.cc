#include "lab/lab_text.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <map>

#include "commitlab/scenarios/protocols.h"
#include "commitlab/sim/text_width.h"

namespace commitlab::cli {
namespace {

// A matrix scenario's operations and levels, as its table names LEVEL-WINNER-LOSER spell them.
struct MatrixShape {
  std::array<std::string_view, 5> ops;
  std::array<std::pair<std::string_view, std::string_view>, 2> levels;
};
constexpr MatrixShape kDeltaMatrix = {{"INSERT", "UPDATE", "DELETE", "MERGE", "OPTIMIZE"},
                                      {{{"ser", "Serializable"}, {"ws", "WriteSerializable"}}}};
constexpr MatrixShape kIcebergMatrix = {{"APPEND", "OVERWRITE", "DELETE", "REWRITE", "SCHEMA"},
                                        {{{"ser", "serializable"}, {"snap", "snapshot isolation"}}}};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// `text` padded to `columns` terminal columns (a wide character takes two).
std::string Padded(std::string_view text, size_t columns) {
  const size_t used = sim::DisplayColumns(text);
  return std::string(text) + std::string(used < columns ? columns - used : 0, ' ');
}

// "  OPTIMIZE          commits       Append ..." with the row label and one 14-wide column a cell.
std::string MatrixRow(std::string_view label, const std::vector<std::string>& cells) {
  std::string line = "  " + Padded(label, 18);
  for (const std::string& c : cells) line += Padded(c, 14);
  line.erase(line.find_last_not_of(' ') + 1);
  return line;
}

// "commits", or the exception a refusal starts with, without "Concurrent" and "Exception"; an
// Iceberg ValidationException by what it found.
std::string CellText(const scenarios::WriterReport& loser) {
  if (loser.outcome == scenarios::Outcome::kOk) return "commits";
  if (loser.error.starts_with("ValidationException: Found conflicting files")) return "new data";
  if (loser.error.starts_with("ValidationException: Found conflicting deleted")) return "files deleted";
  if (loser.error.starts_with("ValidationException: Missing required files")) return "files missing";
  std::string name = loser.error.substr(0, loser.error.find(':'));
  if (name.starts_with("Concurrent")) name = name.substr(10);
  if (name.ends_with("Exception")) name = name.substr(0, name.size() - 9);
  return name;
}

// A cell in Chinese; the exceptions' names (Append, CommitFailed, ...) stay.
std::string CellInChinese(const std::string& cell) {
  if (cell == "commits") return "提交成功";
  if (cell == "new data") return "新数据";
  if (cell == "files deleted") return "文件已删";
  if (cell == "files missing") return "缺少文件";
  return cell;
}

}  // namespace

std::vector<std::string> FirstLines(std::string_view text, size_t n) {
  std::vector<std::string> out;
  while (out.size() < n) {
    const size_t nl = text.find('\n');
    out.emplace_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::string AbbreviateUuids(std::string_view text) {
  constexpr std::string_view kShape = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
  auto uuid_at = [&](size_t i) {
    if (i + kShape.size() > text.size()) return false;
    for (size_t k = 0; k < kShape.size(); ++k) {
      const char c = text[i + k];
      if (kShape[k] == '-' ? c != '-' : !std::isxdigit(static_cast<unsigned char>(c))) return false;
    }
    return true;
  };
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (uuid_at(i)) {
      out += fmt::format("{}…", text.substr(i, 8));
      i += kShape.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::vector<std::string> RefusalLines(std::string_view message) {
  const std::vector<std::string> lines = FirstLines(message, static_cast<size_t>(-1));
  std::vector<std::string> out;
  size_t i = 0;
  for (; i < lines.size() && !lines[i].empty(); ++i) out.push_back(lines[i]);
  bool from_base = false;
  for (; i < lines.size(); ++i) {
    if (lines[i].starts_with("Base commit user is:")) {
      out.emplace_back("...");
      from_base = true;
    }
    if (from_base && !lines[i].empty()) out.push_back(lines[i]);
  }
  return out;
}

std::vector<std::string> ChainLines(const scenarios::TableReport& t, bool chinese) {
  std::vector<std::string> out;
  const std::string_view entry = scenarios::WordsOf(t.protocol).chain_entry;
  const std::string_view noun = !chinese ? entry : entry == "version" ? "版本" : "快照";
  for (size_t i = 0; i < t.chain.size(); ++i) {
    const Snapshot& s = t.chain[i];
    const std::string op(t.operation(i));
    out.push_back(fmt::format("{} {}  {:<9}  user={}  parent={}  total={}", noun, s.id, op, s.commit_user, s.parent_id,
                              s.total_records));
  }
  for (const auto& [key, value] : t.counters)
    out.push_back(fmt::format("{} {} = {}", chinese ? "计数器" : "counter", key, value));
  return out;
}

std::optional<std::vector<std::string>> ConflictMatrixLines(const scenarios::RunReport& r, bool chinese) {
  std::map<std::string, const scenarios::WriterReport*> losers;
  for (const scenarios::WriterReport& w : r.writers)
    if (w.name.ends_with("-l")) losers[w.name.substr(0, w.name.size() - 2)] = &w;
  const MatrixShape& shape = losers.contains("ser-append-append") ? kIcebergMatrix : kDeltaMatrix;
  const std::string ok = chinese ? "提交成功" : "commits";
  const auto& ops = shape.ops;
  std::vector<std::string> out;
  for (const auto& [prefix, level] : shape.levels) {
    // cell[winner][loser]
    std::vector<std::vector<std::string>> cell(ops.size(), std::vector<std::string>(ops.size()));
    for (size_t w = 0; w < ops.size(); ++w) {
      for (size_t l = 0; l < ops.size(); ++l) {
        const auto it = losers.find(fmt::format("{}-{}-{}", prefix, Lower(ops[w]), Lower(ops[l])));
        if (it == losers.end()) return std::nullopt;
        cell[w][l] = CellText(*it->second);
        if (chinese) cell[w][l] = CellInChinese(cell[w][l]);
      }
    }
    const std::vector<std::string> names(ops.begin(), ops.end());
    out.push_back(fmt::format(fmt::runtime(chinese ? "{}（表级）" : "{} (table level)"), level));
    out.push_back(MatrixRow(chinese ? "先提交 \\ 后提交" : "winner \\ loser", names));
    for (size_t w = 0; w < ops.size(); ++w) out.push_back(MatrixRow(ops[w], cell[w]));
    out.push_back(MatrixRow(chinese ? "两两之间" : "pairs", names));
    for (size_t a = 0; a < ops.size(); ++a) {
      std::vector<std::string> row;
      for (size_t b = 0; b <= a; ++b)
        row.emplace_back(cell[a][b] != ok || cell[b][a] != ok ? (chinese ? "会冲突" : "can")
                                                              : (chinese ? "不会" : "cannot"));
      out.push_back(MatrixRow(ops[a], row));
    }
    out.emplace_back();
  }
  out.pop_back();
  return out;
}

}  // namespace commitlab::cli
