#define BOOST_TEST_MODULE stats
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "stats/stats.h"
#include "util/error.h"

using simt::stats::Counter;
using simt::stats::Histogram;
using simt::stats::Registry;
using simt::stats::TimeSeries;
namespace fs = std::filesystem;

namespace {

fs::path scratch_dir() {
  static fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("simt_stats_test_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <class F>
std::string error_of(F&& f, simt::ExitCode code) {
  try {
    f();
  } catch (const simt::Error& e) {
    BOOST_CHECK(e.code() == code);
    return e.what();
  }
  BOOST_FAIL("expected a simt::Error");
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(counters_are_kept_by_reference) {
  Registry reg;
  Counter& hits = reg.counter("sm0.l1d.hits", "L1D hits");
  // Many registrations after the first must not move it (blocks keep references).
  std::vector<Counter*> others;
  for (int i = 0; i < 2000; ++i) others.push_back(&reg.counter("sm" + std::to_string(i) + ".x"));
  ++hits;
  hits += 41;
  BOOST_TEST(reg.value("sm0.l1d.hits") == 42u);
  BOOST_TEST(reg.find_counter("sm0.l1d.hits") == &hits);
  BOOST_TEST(reg.find_counter("sm0.l1d.misses") == nullptr);
  BOOST_TEST(reg.value("sm0.l1d.misses") == 0u);
  for (int i = 0; i < 2000; ++i) BOOST_TEST(others[i] == &reg.counter("sm" + std::to_string(i) + ".x"));
}

BOOST_AUTO_TEST_CASE(same_name_returns_same_object) {
  Registry reg;
  Counter& a = reg.counter("l2.misses");
  Counter& b = reg.counter("l2.misses");
  BOOST_TEST(&a == &b);
  Histogram& h1 = reg.histogram("sm0.active_lanes", 1, 4, 8);
  Histogram& h2 = reg.histogram("sm0.active_lanes", 1, 4, 8);
  BOOST_TEST(&h1 == &h2);
  TimeSeries& s1 = reg.series("sm0.ipc", 1000);
  BOOST_TEST(&s1 == &reg.series("sm0.ipc", 1000));
  // Same name, different shape or a different kind: a programming error.
  error_of([&] { reg.histogram("sm0.active_lanes", 0, 4, 8); }, simt::ExitCode::Internal);
  error_of([&] { reg.series("sm0.ipc", 500); }, simt::ExitCode::Internal);
  error_of([&] { reg.counter("sm0.ipc"); }, simt::ExitCode::Internal);
  error_of([&] { reg.histogram("l2.misses", 0, 1, 2); }, simt::ExitCode::Internal);
  error_of([&] { reg.series("l2.misses", 5); }, simt::ExitCode::Internal);
  error_of([&] { reg.counter("bad name"); }, simt::ExitCode::Internal);
  error_of([&] { reg.counter("sm*.x"); }, simt::ExitCode::Internal);
  error_of([&] { reg.counter("a..b"); }, simt::ExitCode::Internal);
  error_of([&] { reg.histogram("h", 0, 0, 4); }, simt::ExitCode::Internal);
  error_of([&] { reg.histogram("h", 0, 1, 0); }, simt::ExitCode::Internal);
  error_of([&] { reg.series("s", 0); }, simt::ExitCode::Internal);
}

BOOST_AUTO_TEST_CASE(glob_sums_stay_within_one_component) {
  Registry reg;
  reg.counter("sm0.l1d.hits") += 1;
  reg.counter("sm1.l1d.hits") += 10;
  reg.counter("sm12.l1d.hits") += 100;
  reg.counter("sm0.l1i.hits") += 1000;
  reg.counter("sm0.l1d.hits_total") += 10000;
  reg.counter("gpu.sm0.l1d.hits") += 100000;
  reg.counter("l2.hits") += 1000000;
  BOOST_TEST(reg.sum("sm*.l1d.hits") == 111u);
  BOOST_TEST(reg.sum("sm0.*.hits") == 1001u);
  BOOST_TEST(reg.sum("*.l1d.hits") == 111u);  // not gpu.sm0.l1d.hits: '*' spans one component
  BOOST_TEST(reg.sum("*.*.hits") == 1111u);
  BOOST_TEST(reg.sum("sm0.l1d.hits*") == 10001u);
  BOOST_TEST(reg.sum("sm1*.l1d.hits") == 110u);
  BOOST_TEST(reg.sum("*.hits") == 1000000u);
  BOOST_TEST(reg.sum("*") == 0u);
  BOOST_TEST(reg.sum("sm0.l1d.hits") == 1u);  // no '*': exactly that counter
  BOOST_TEST(reg.sum("sm*.l1d.misses") == 0u);
  BOOST_TEST(reg.sum("s*1*.l1d.hits") == 110u);  // several stars in one component
}

BOOST_AUTO_TEST_CASE(histogram_bins_clamp_to_the_ends) {
  Registry reg;
  // Active lanes 1..32 in eight bins of four, as seed 001 Fig. 13 ("W1-4" ... "W29-32").
  Histogram& h = reg.histogram("sm0.issue.active_lanes", 1, 4, 8, "issued warps by active lanes");
  for (int i = 0; i < 8; ++i) h.labels.push_back("W" + std::to_string(4 * i + 1) + "-" + std::to_string(4 * i + 4));
  h.add(1);
  h.add(4);
  h.add(5);
  h.add(32, 3);
  h.add(33);          // beyond the last bin: last bin
  h.add(0);           // below lo: first bin
  h.add(-1000000);    // far below
  h.add(INT64_MAX);   // far above (offset overflows int64)
  h.add(INT64_MIN);
  std::vector<uint64_t> expect{5, 1, 0, 0, 0, 0, 0, 5};
  BOOST_TEST(h.bins == expect, boost::test_tools::per_element());
  BOOST_TEST(h.labels[7] == "W29-32");

  Histogram& neg = reg.histogram("lat", -10, 5, 4);  // [-10,-5) [-5,0) [0,5) [5,10)
  neg.add(-6);
  neg.add(-5);
  neg.add(-1);
  neg.add(0);
  neg.add(9);
  neg.add(10);
  BOOST_TEST(neg.bins == (std::vector<uint64_t>{1, 2, 1, 2}), boost::test_tools::per_element());

  Histogram unregistered;  // no bins: refused, never silently dropped
  error_of([&] { unregistered.add(1); }, simt::ExitCode::Internal);
}

BOOST_AUTO_TEST_CASE(series_sample_and_reset_keeps_registrations) {
  Registry reg;
  TimeSeries& ipc = reg.series("sm0.ipc", 500, "IPC per 500 cycles");
  ipc.sample(1.5);
  ipc.sample(0.25);
  BOOST_TEST(ipc.interval == 500u);
  BOOST_TEST(ipc.values.size() == 2u);
  Counter& c = reg.counter("cycles");
  c += 7;
  Histogram& h = reg.histogram("h", 0, 1, 3);
  h.add(2);
  reg.reset();
  BOOST_TEST(c.value == 0u);
  BOOST_TEST(ipc.values.empty());
  BOOST_TEST(ipc.interval == 500u);
  BOOST_TEST(h.bins == (std::vector<uint64_t>{0, 0, 0}), boost::test_tools::per_element());
  BOOST_TEST(&reg.counter("cycles") == &c);
  ++c;
  BOOST_TEST(reg.value("cycles") == 1u);
}

BOOST_AUTO_TEST_CASE(json_shape) {
  Registry reg;
  reg.counter("sm0.l1d.hits", "hits") += 3;
  reg.counter("l2.misses") += 2;
  Histogram& h = reg.histogram("sm0.lanes", 1, 16, 2);
  h.labels = {"W1-16", "W17-32"};
  h.add(20);
  reg.series("sm0.ipc", 100).sample(0.5);
  nlohmann::json j = reg.to_json();
  BOOST_TEST(j["counters"]["sm0.l1d.hits"].get<uint64_t>() == 3u);
  BOOST_TEST(j["counters"]["l2.misses"].get<uint64_t>() == 2u);
  BOOST_TEST(j["counters"].size() == 2u);  // flat dotted names, not nested objects
  BOOST_TEST(j["histograms"]["sm0.lanes"]["lo"].get<int64_t>() == 1);
  BOOST_TEST(j["histograms"]["sm0.lanes"]["width"].get<int64_t>() == 16);
  BOOST_TEST(j["histograms"]["sm0.lanes"]["bins"] == nlohmann::json::array({0, 1}));
  BOOST_TEST(j["histograms"]["sm0.lanes"]["labels"] == nlohmann::json::array({"W1-16", "W17-32"}));
  BOOST_TEST(j["series"]["sm0.ipc"]["interval"].get<uint64_t>() == 100u);
  BOOST_TEST(j["series"]["sm0.ipc"]["values"] == nlohmann::json::array({0.5}));
  BOOST_TEST(j["docs"]["sm0.l1d.hits"].get<std::string>() == "hits");
  BOOST_TEST(!j["docs"].contains("l2.misses"));
  // An empty registry still has every section.
  nlohmann::json e = Registry().to_json();
  for (const char* k : {"counters", "histograms", "series", "docs"}) BOOST_TEST(e[k].is_object());
}

BOOST_AUTO_TEST_CASE(json_file_is_written_atomically) {
  fs::path p = scratch_dir() / "run.json";
  nlohmann::json doc{{"cycles", 1234}, {"config", {{"l1d.size", 65536}}}};
  simt::stats::write_json_file(p.string(), doc);
  BOOST_TEST(nlohmann::json::parse(slurp(p)) == doc);
  // Overwrite replaces the whole document, keeping no temporary.
  nlohmann::json doc2{{"cycles", 1}};
  simt::stats::write_json_file(p.string(), doc2);
  BOOST_TEST(nlohmann::json::parse(slurp(p)) == doc2);
  for (const auto& e : fs::directory_iterator(scratch_dir()))
    BOOST_TEST(e.path().filename().string().find(".simtlab-") == std::string::npos, e.path());
  // A missing directory is refused, naming the path, and creates nothing.
  fs::path bad = scratch_dir() / "no_such_dir" / "run.json";
  auto msg = error_of([&] { simt::stats::write_json_file(bad.string(), doc); }, simt::ExitCode::BadInput);
  BOOST_TEST(msg.find(bad.string()) != std::string::npos);
  BOOST_TEST(!fs::exists(bad.parent_path()));
  // A folder as the target is refused before writing and stays a folder.
  fs::path dir_target = scratch_dir() / "is_a_dir";
  fs::create_directories(dir_target / "x");
  msg = error_of([&] { simt::stats::write_json_file(dir_target.string(), doc); }, simt::ExitCode::BadInput);
  BOOST_TEST(msg.find("is a folder") != std::string::npos, msg);
  BOOST_TEST(fs::is_directory(dir_target));
}

BOOST_AUTO_TEST_CASE(json_file_follows_symlinks_and_writes_devices_in_place) {
  // A symlink stays a symlink; the file it points to gets the document.
  fs::path real = scratch_dir() / "real.json", link = scratch_dir() / "link.json";
  std::ofstream(real) << "old";
  fs::remove(link);
  fs::create_symlink(real, link);
  nlohmann::json doc{{"cycles", 5}};
  simt::stats::write_json_file(link.string(), doc);
  BOOST_TEST(fs::is_symlink(link));
  BOOST_TEST(nlohmann::json::parse(slurp(real)) == doc);
  // A device is written in place, never replaced by a regular file; a full
  // one is an output error (exit 4) naming the path.
  simt::stats::write_json_file("/dev/null", doc);
  BOOST_TEST(fs::is_character_file("/dev/null"));
  auto msg = error_of([&] { simt::stats::write_json_file("/dev/full", doc); }, simt::ExitCode::OutputError);
  BOOST_TEST(msg.find("/dev/full") != std::string::npos, msg);
  BOOST_TEST(msg.find("No space left") != std::string::npos, msg);
  BOOST_TEST(fs::is_character_file("/dev/full"));
  // So is a symlink to a full device (the case that once became a JSON file).
  fs::path full = scratch_dir() / "full.json";
  fs::remove(full);
  fs::create_symlink("/dev/full", full);
  error_of([&] { simt::stats::write_json_file(full.string(), doc); }, simt::ExitCode::OutputError);
  BOOST_TEST(fs::is_symlink(full));
}

BOOST_AUTO_TEST_CASE(output_file_discards_its_temporary_unless_committed) {
  fs::path p = scratch_dir() / "keep.bin";
  std::ofstream(p) << "previous";
  {
    simt::util::OutputFile f("--x", p.string());
    BOOST_TEST(f.write_path() != p.string());
    BOOST_TEST(fs::exists(f.write_path()));  // made at once: an unwritable folder shows before the run
    std::ofstream(f.write_path()) << "half";
  }  // not committed: a failed or interrupted run
  BOOST_TEST(slurp(p) == "previous");
  for (const auto& e : fs::directory_iterator(scratch_dir()))
    BOOST_TEST(e.path().filename().string().find(".simtlab-") == std::string::npos, e.path());
  // Below a regular file (ENOTDIR): refused, naming the option and the path.
  auto msg = error_of([&] { simt::util::OutputFile f("--x", (p / "y").string()); }, simt::ExitCode::BadInput);
  BOOST_TEST(msg.find("--x " + (p / "y").string()) != std::string::npos, msg);
  // A replacement keeps the old file's permissions.
  fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  {
    simt::util::OutputFile f("--x", p.string());
    f.write("new");
  }
  BOOST_TEST(slurp(p) == "new");
  const auto want = fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read;
  BOOST_TEST(static_cast<unsigned>(fs::status(p).permissions() & fs::perms::all) == static_cast<unsigned>(want));
}

BOOST_AUTO_TEST_CASE(csv_header_then_rows_appended) {
  fs::path p = scratch_dir() / "sweep.csv";
  fs::remove(p);
  std::vector<std::string> cols{"workload", "config", "cycles", "ipc"};
  simt::stats::append_csv_row(p.string(), cols,
                              {{"workload", "bfs"}, {"config", "vws,baseline"}, {"cycles", 100}, {"ipc", 1.5}});
  simt::stats::append_csv_row(p.string(), cols,
                              {{"workload", "say \"hi\""}, {"config", "a\nb"}, {"cycles", 7}, {"ipc", 0.25}});
  BOOST_TEST(slurp(p) ==
             "workload,config,cycles,ipc\n"
             "bfs,\"vws,baseline\",100,1.5\n"
             "\"say \"\"hi\"\"\",\"a\nb\",7,0.25\n");
  // An empty existing file gets the header too.
  fs::path q = scratch_dir() / "empty.csv";
  std::ofstream(q).close();
  simt::stats::append_csv_row(q.string(), {"a"}, {{"a", 1}, {"extra", 2}});
  BOOST_TEST(slurp(q) == "a\n1\n");
}

BOOST_AUTO_TEST_CASE(csv_refuses_a_different_layout) {
  fs::path p = scratch_dir() / "layout.csv";
  fs::remove(p);
  simt::stats::append_csv_row(p.string(), {"a", "b"}, {{"a", 1}, {"b", 2}});
  std::string before = slurp(p);
  auto msg = error_of([&] { simt::stats::append_csv_row(p.string(), {"a", "c"}, {{"a", 1}, {"c", 2}}); },
                      simt::ExitCode::BadInput);
  BOOST_TEST(msg.find(p.string()) != std::string::npos);
  msg = error_of([&] { simt::stats::append_csv_row(p.string(), {"b", "a"}, {{"a", 1}, {"b", 2}}); },
                 simt::ExitCode::BadInput);
  BOOST_TEST(slurp(p) == before);  // nothing appended
  // Missing values and non-scalar values are refused; null is an empty cell.
  error_of([&] { simt::stats::append_csv_row(p.string(), {"a", "b"}, {{"a", 1}}); }, simt::ExitCode::Internal);
  error_of([&] { simt::stats::append_csv_row(p.string(), {"a", "b"}, {{"a", 1}, {"b", {1, 2}}}); },
           simt::ExitCode::Internal);
  BOOST_TEST(slurp(p) == before);
  simt::stats::append_csv_row(p.string(), {"a", "b"}, {{"a", nullptr}, {"b", true}});
  BOOST_TEST(slurp(p) == before + ",true\n");
  // Missing directory: named in the error.
  fs::path bad = scratch_dir() / "nodir" / "x.csv";
  msg = error_of([&] { simt::stats::append_csv_row(bad.string(), {"a"}, {{"a", 1}}); }, simt::ExitCode::BadInput);
  BOOST_TEST(msg.find(bad.string()) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(zz_cleanup) { fs::remove_all(scratch_dir()); }
