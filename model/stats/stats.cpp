// Statistics registry and the two writers (JSON document per run, CSV row
// per run). Registration and output use names and maps; the hot path is the
// inline Counter/Histogram/TimeSeries methods on references kept by blocks.
#include "stats/stats.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "util/error.h"

namespace simt::stats {

namespace {

// Dotted names of non-empty components without spaces or '*' (the glob character).
void check_name(const std::string& name) {
  bool ok = !name.empty() && name.front() != '.' && name.back() != '.' &&
            name.find("..") == std::string::npos;
  for (char c : name)
    if (c == '*' || static_cast<unsigned char>(c) <= ' ') ok = false;
  if (!ok) throw internal_error("stats name '" + name + "' is not a dotted name");
}

// '*' matches any run of characters (possibly empty) inside one dotted
// component: it never crosses a '.'. No allocation: sum() runs this over
// every counter name, several times per launch.
bool match_glob(const char* pat, const char* text) {
  if (*pat == '\0') return *text == '\0';
  if (*pat == '*') {
    for (const char* t = text;; ++t) {
      if (match_glob(pat + 1, t)) return true;
      if (*t == '\0' || *t == '.') return false;
    }
  }
  return *pat == *text && *text != '\0' && match_glob(pat + 1, text + 1);
}

// One CSV field per RFC 4180: quoted when it holds a comma, quote or line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_value(const std::string& path, const std::string& column, const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return csv_field(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  }
  if (v.is_number()) return v.dump();
  throw internal_error(path + ": column '" + column + "' holds " + v.type_name() +
                                     "; CSV cells are numbers or strings");
}

}  // namespace

void Histogram::no_bins() {
  throw internal_error("histogram without bins (register it through stats::Registry)");
}

Counter& Registry::counter(const std::string& name, const std::string& doc) {
  if (auto it = counter_by_name_.find(name); it != counter_by_name_.end()) return *it->second;
  check_name(name);
  if (histogram_by_name_.count(name) || series_by_name_.count(name))
    throw internal_error("stats name '" + name + "' already names a histogram or series");
  counters_.emplace_back();
  counter_by_name_[name] = &counters_.back();
  if (!doc.empty()) docs_[name] = doc;
  return counters_.back();
}

Histogram& Registry::histogram(const std::string& name, int64_t lo, int64_t width, size_t bins,
                               const std::string& doc) {
  if (auto it = histogram_by_name_.find(name); it != histogram_by_name_.end()) {
    Histogram& h = *it->second;
    if (h.lo != lo || h.width != width || h.bins.size() != bins)
      throw internal_error("histogram '" + name + "' registered again with a different shape");
    return h;
  }
  check_name(name);
  if (width <= 0 || bins == 0)
    throw internal_error("histogram '" + name + "' needs width > 0 and at least one bin");
  if (counter_by_name_.count(name) || series_by_name_.count(name))
    throw internal_error("stats name '" + name + "' already names a counter or series");
  histograms_.emplace_back();
  Histogram& h = histograms_.back();
  h.lo = lo;
  h.width = width;
  h.bins.assign(bins, 0);
  histogram_by_name_[name] = &h;
  if (!doc.empty()) docs_[name] = doc;
  return h;
}

TimeSeries& Registry::series(const std::string& name, uint64_t interval, const std::string& doc) {
  if (auto it = series_by_name_.find(name); it != series_by_name_.end()) {
    if (it->second->interval != interval)
      throw internal_error("series '" + name + "' registered again with a different interval");
    return *it->second;
  }
  check_name(name);
  if (interval == 0) throw internal_error("series '" + name + "' needs an interval > 0");
  if (counter_by_name_.count(name) || histogram_by_name_.count(name))
    throw internal_error("stats name '" + name + "' already names a counter or histogram");
  series_.emplace_back();
  series_.back().interval = interval;
  series_by_name_[name] = &series_.back();
  if (!doc.empty()) docs_[name] = doc;
  return series_.back();
}

const Counter* Registry::find_counter(const std::string& name) const {
  auto it = counter_by_name_.find(name);
  return it == counter_by_name_.end() ? nullptr : it->second;
}

uint64_t Registry::value(const std::string& name) const {
  const Counter* c = find_counter(name);
  return c ? c->value : 0;
}

uint64_t Registry::sum(const std::string& glob) const {
  GlobMatch& m = sum_cache_[glob];
  if (m.registered != counters_.size()) {  // counters are never removed: only new ones can match
    m.counters.clear();
    for (const auto& [name, c] : counter_by_name_)
      if (match_glob(glob.c_str(), name.c_str())) m.counters.push_back(c);
    m.registered = counters_.size();
  }
  uint64_t total = 0;
  for (const Counter* c : m.counters) total += c->value;
  return total;
}

nlohmann::json Registry::to_json() const {
  nlohmann::json j;
  j["counters"] = nlohmann::json::object();
  for (const auto& [name, c] : counter_by_name_) j["counters"][name] = c->value;
  j["histograms"] = nlohmann::json::object();
  for (const auto& [name, h] : histogram_by_name_)
    j["histograms"][name] = {{"lo", h->lo}, {"width", h->width}, {"bins", h->bins}, {"labels", h->labels}};
  j["series"] = nlohmann::json::object();
  for (const auto& [name, s] : series_by_name_)
    j["series"][name] = {{"interval", s->interval}, {"values", s->values}};
  // What each statistic means, for whoever reads the file later.
  j["docs"] = docs_;
  return j;
}

void Registry::reset() {
  for (Counter& c : counters_) c.value = 0;
  for (Histogram& h : histograms_) std::fill(h.bins.begin(), h.bins.end(), 0);
  for (TimeSeries& s : series_) s.values.clear();
}

void write_json(util::OutputFile& out, const nlohmann::json& doc) { out.write(doc.dump(2) + "\n"); }

void write_json_file(const std::string& path, const nlohmann::json& doc) {
  util::OutputFile out("--stats", path);
  write_json(out, doc);
}

std::string csv_header(const std::vector<std::string>& columns) {
  std::string header;
  for (size_t i = 0; i < columns.size(); ++i) header += (i ? "," : "") + csv_field(columns[i]);
  return header;
}

namespace {

// An existing regular file's first line, reading at most kMaxHeader bytes
// (a huge file without line breaks must not be read whole); "" if the file
// is new, empty, or not a regular file (a FIFO cannot be read back).
constexpr size_t kMaxHeader = 64 * 1024;

bool first_line(const util::OutputFile& out, std::string* line) {
  line->clear();
  if (out.in_place() || !out.existed()) return false;
  std::ifstream in(out.target(), std::ios::binary);
  char c;
  while (line->size() < kMaxHeader && in.get(c)) {
    if (c == '\n') break;
    line->push_back(c);
  }
  if (!line->empty() && line->back() == '\r') line->pop_back();
  return !line->empty() || in.good();
}

}  // namespace

void check_csv_header(const util::OutputFile& out, const std::string& header) {
  std::string first;
  if (!first_line(out, &first)) return;
  if (first != header)
    throw input_error(out.option() + " " + out.path() + ": existing CSV header differs from this run's columns "
                      "(expected \"" + header + "\"); write to a new file");
}

void append_csv_row(util::OutputFile& out, const std::vector<std::string>& columns, const nlohmann::json& row) {
  append_csv_rows(out, columns, {row});
}

void append_csv_rows(util::OutputFile& out, const std::vector<std::string>& columns,
                     const std::vector<nlohmann::json>& rows) {
  const std::string& path = out.path();
  if (columns.empty()) throw internal_error(path + ": a CSV row needs at least one column");
  const std::string header = csv_header(columns);
  std::string lines;
  for (const nlohmann::json& row : rows) {
    if (!row.is_object()) throw internal_error(path + ": a CSV row must be a JSON object");
    for (size_t i = 0; i < columns.size(); ++i) {
      auto it = row.find(columns[i]);
      if (it == row.end()) throw internal_error(path + ": the row has no value for column '" + columns[i] + "'");
      lines += (i ? "," : "") + csv_value(path, columns[i], *it);
    }
    lines += "\n";
  }
  check_csv_header(out, header);
  std::string first;
  const bool need_header = !first_line(out, &first);
  out.append((need_header ? header + "\n" : std::string()) + lines);  // one append: the header once
}

void append_csv_row(const std::string& path, const std::vector<std::string>& columns,
                    const nlohmann::json& row) {
  util::OutputFile out("--csv", path, util::OutputFile::Mode::Append);
  append_csv_row(out, columns, row);
}

}  // namespace simt::stats
