// A histogram in the terminal: one line per bin, a bar of block characters scaled to the fullest
// bin, the bin's range and its count.
#ifndef COMMITLAB_LABS_TEXT_HISTOGRAM_H_
#define COMMITLAB_LABS_TEXT_HISTOGRAM_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace commitlab::cli {

struct HistogramBin {
  int64_t from = 0;  // inclusive
  int64_t to = 0;    // inclusive
  int64_t count = 0;
};

// Integer bins over [min, max] of `values`: one per value when there are at most `max_bins`
// distinct values in the range, else `max_bins` bins of equal width. Empty for no values.
std::vector<HistogramBin> Bins(const std::vector<int64_t>& values, int max_bins = 10);
// The same bins from each value's count (value -> how many times it occurs): what the shards of a
// seed hunt keep, so that `commitlab merge` bins their union as one run would.
std::vector<HistogramBin> Bins(const std::map<int64_t, int64_t>& counts, int max_bins = 10);

// "   18..19  ██████████████ 42" lines; `unit` follows each range ("ms").
std::vector<std::string> HistogramLines(const std::vector<HistogramBin>& bins, const std::string& unit = "",
                                        int width = 40);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_TEXT_HISTOGRAM_H_
