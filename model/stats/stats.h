// Named hierarchical statistics ("sm0.l1d.hits"): counters, histograms and
// sampled time series, registered by the block that owns them and written
// as one JSON document per run (plus a CSV row per run for sweeps).
// Blocks keep the returned references and bump them on their hot paths:
// no lookups, strings or maps per event.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/output_file.h"

namespace simt::stats {

struct Counter {
  uint64_t value = 0;
  Counter& operator+=(uint64_t n) { value += n; return *this; }
  Counter& operator++() { ++value; return *this; }
};

// Fixed bins: bin i counts samples in [lo + i*width, lo + (i+1)*width);
// samples beyond the ends land in the first/last bin.
struct Histogram {
  int64_t lo = 0;
  int64_t width = 1;
  std::vector<uint64_t> bins;
  std::vector<std::string> labels;  // optional, one per bin (e.g. "W1-4")
  // Inline: the issue stage adds to several histograms every cycle.
  void add(int64_t sample, uint64_t n = 1) {
    if (bins.empty()) no_bins();
    size_t i = 0;
    if (sample > lo) {
      // Unsigned difference: exact even when sample - lo overflows int64.
      const uint64_t offset = static_cast<uint64_t>(sample) - static_cast<uint64_t>(lo);
      const uint64_t idx = width == 1 ? offset : offset / static_cast<uint64_t>(width);
      i = idx >= bins.size() ? bins.size() - 1 : static_cast<size_t>(idx);
    }
    bins[i] += n;
  }
  [[noreturn]] static void no_bins();
};

// Values sampled every `interval` cycles (e.g. IPC, active warps).
struct TimeSeries {
  uint64_t interval = 0;
  std::vector<double> values;
  void sample(double v) { values.push_back(v); }
};

class Registry {
 public:
  // Names are dotted paths; registering a name twice returns the same object.
  Counter& counter(const std::string& name, const std::string& doc = "");
  Histogram& histogram(const std::string& name, int64_t lo, int64_t width, size_t bins,
                       const std::string& doc = "");
  TimeSeries& series(const std::string& name, uint64_t interval, const std::string& doc = "");

  const Counter* find_counter(const std::string& name) const;
  uint64_t value(const std::string& name) const;  // 0 if absent
  // Sum of every counter whose name matches `glob` ('*' matches within one
  // path component, e.g. "sm*.l1d.hits"). The matching counters are found
  // once per glob and kept until a counter is registered (a CUDA program's
  // launch sums two globs over thousands of counters before and after).
  uint64_t sum(const std::string& glob) const;

  // {"counters": {name: value}, "histograms": {name: {lo, width, bins, labels}},
  //  "series": {name: {interval, values}}}
  nlohmann::json to_json() const;
  void reset();  // zero every value, keep registrations

 private:
  std::deque<Counter> counters_;          // deque: references stay valid
  std::deque<Histogram> histograms_;
  std::deque<TimeSeries> series_;
  std::map<std::string, Counter*> counter_by_name_;
  std::map<std::string, Histogram*> histogram_by_name_;
  std::map<std::string, TimeSeries*> series_by_name_;
  std::map<std::string, std::string> docs_;
  struct GlobMatch {
    size_t registered = 0;  // counters_.size() when `counters` was found
    std::vector<const Counter*> counters;
  };
  mutable std::map<std::string, GlobMatch> sum_cache_;
};

// Writes `doc` to `path` through util::OutputFile: a regular (or new) file
// is replaced atomically, a device or FIFO written in place. Throws
// simt::input_error for a path that cannot be written (checked first) and
// simt::output_error when writing fails.
void write_json_file(const std::string& path, const nlohmann::json& doc);
void write_json(util::OutputFile& out, const nlohmann::json& doc);

// The CSV header line for `columns` (without the line break).
std::string csv_header(const std::vector<std::string>& columns);
// Before a run: an existing regular file must start with `header` (only its
// first 64 KiB are read); a new or empty file, a device or a FIFO is fine.
// Throws simt::input_error naming the file otherwise.
void check_csv_header(const util::OutputFile& out, const std::string& header);
// Appends one row, writing the header first if the file is new or empty (a
// device or FIFO always gets the header: it cannot be read back); `columns`
// gives the order. Values are numbers or strings.
void append_csv_row(const std::string& path, const std::vector<std::string>& columns,
                    const nlohmann::json& row);
void append_csv_row(util::OutputFile& out, const std::vector<std::string>& columns, const nlohmann::json& row);
// Several rows in one append (a whole application's launches).
void append_csv_rows(util::OutputFile& out, const std::vector<std::string>& columns,
                     const std::vector<nlohmann::json>& rows);

}  // namespace simt::stats
