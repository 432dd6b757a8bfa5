// Settings that reproduce the experiments of the Paimon lecture (S2-5, concurrent commits), shared
// by `commitlab race` and `commitlab lab paimon`.
#ifndef COMMITLAB_LABS_LECTURE_H_
#define COMMITLAB_LABS_LECTURE_H_

namespace commitlab::cli {

// Storage latency that makes a write-and-commit cycle take about as long as the lecture's Java job
// (writing a Parquet file, then a few milliseconds of manifests and the rename), so writers contend
// as they did there: over seeds 1..200 the simulated race loses 6..34 races, median 20; the
// lecture saw 25, 18 and 11.
inline constexpr char kLectureLatency[] =
    "read-latest=uniform:0.2,1;read-snapshot=uniform:0.2,1;write-manifest=uniform:1,4;publish=uniform:0.5,2;"
    "write-data=uniform:4,10";

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_LECTURE_H_
