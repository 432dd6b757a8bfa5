#include "output/text_histogram.h"

#include <fmt/format.h>

#include <algorithm>

namespace commitlab::cli {

std::vector<HistogramBin> Bins(const std::vector<int64_t>& values, int max_bins) {
  std::map<int64_t, int64_t> counts;
  for (int64_t v : values) ++counts[v];
  return Bins(counts, max_bins);
}

std::vector<HistogramBin> Bins(const std::map<int64_t, int64_t>& counts, int max_bins) {
  if (counts.empty() || max_bins < 1) return {};
  const int64_t min = counts.begin()->first, max = counts.rbegin()->first, span = max - min + 1;
  const int64_t width = (span + max_bins - 1) / max_bins;  // >= 1
  std::vector<HistogramBin> bins;
  for (int64_t from = min; from <= max; from += width) bins.push_back({from, std::min(from + width - 1, max), 0});
  for (const auto& [v, n] : counts) bins[static_cast<size_t>((v - min) / width)].count += n;
  return bins;
}

std::vector<std::string> HistogramLines(const std::vector<HistogramBin>& bins, const std::string& unit, int width) {
  int64_t most = 0;
  for (const HistogramBin& b : bins) most = std::max(most, b.count);
  std::vector<std::string> ranges;
  size_t widest = 0;
  for (const HistogramBin& b : bins) {
    ranges.push_back((b.from == b.to ? fmt::format("{}", b.from) : fmt::format("{}..{}", b.from, b.to)) + unit);
    widest = std::max(widest, ranges.back().size());
  }
  std::vector<std::string> lines;
  for (size_t i = 0; i < bins.size(); ++i) {
    const int64_t cells = most == 0 ? 0 : (bins[i].count * width + most - 1) / most;  // a non-empty bin shows
    std::string bar;
    for (int64_t c = 0; c < cells; ++c) bar += "█";
    lines.push_back(fmt::format("  {:>{}}  {}{}{}", ranges[i], widest, bar, bar.empty() ? "" : " ", bins[i].count));
  }
  return lines;
}

}  // namespace commitlab::cli
