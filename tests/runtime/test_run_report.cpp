// The stats document and CSV row say what ran: the overlays, every
// command-line parameter assignment, the warp size, the mode and the
// simulator version, so two sweep rows that differ only in a --set differ in
// their leading columns; booleans are written as the docs say (true/false).
#define BOOST_TEST_MODULE run_report
#include <boost/test/unit_test.hpp>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "runtime/device.h"
#include "runtime/run_report.h"
#include "common/simtlab_process.h"
#include "stats/stats.h"

using namespace simt;
namespace fs = std::filesystem;

namespace {

runtime::RunInfo info_with(std::vector<std::string> sets, bool verified = true) {
  runtime::RunInfo info;
  info.what = "workload saxpy (small)";
  info.mode = "functional";
  info.config_files = {"configs/fermi-gtx480.toml", "configs/tbc.toml"};
  info.sets = std::move(sets);
  info.machine = "configs/fermi-gtx480.toml + configs/tbc.toml";
  info.verified = verified;
  info.warp_size = 16;
  return info;
}

nlohmann::json report_of(const runtime::RunInfo& info) {
  runtime::DeviceOptions o;
  o.mode = runtime::Mode::Functional;
  runtime::Device dev(o);
  return runtime::run_report(dev, info, nlohmann::json::object());
}

// The columns before the first number: what identifies the run.
std::vector<std::string> leading(const nlohmann::json& row) {
  std::vector<std::string> out;
  for (const auto& c : runtime::csv_columns()) {
    if (c == "cycles") break;
    out.push_back(row[c].dump());
  }
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(report_records_overlays_sets_warp_size_mode_and_version) {
  const nlohmann::json r = report_of(info_with({"l1d.size=32768", "sm.scheduler=lrr"}));
  BOOST_TEST(r["config_files"] == nlohmann::json({"configs/fermi-gtx480.toml", "configs/tbc.toml"}));
  BOOST_TEST(r["sets"] == nlohmann::json({"l1d.size=32768", "sm.scheduler=lrr"}));
  BOOST_TEST(r["warp_size"].get<uint32_t>() == 16u);
  BOOST_TEST(r["mode"] == "functional");
  BOOST_TEST(r["simulator"].get<std::string>().rfind("simtlab ", 0) == 0);
  for (const char* key : {"sets", "warp_size", "config_files"}) BOOST_TEST(r["descriptions"].contains(key), key);
}

BOOST_AUTO_TEST_CASE(csv_rows_differing_only_in_a_set_differ_in_their_leading_columns) {
  const nlohmann::json a = runtime::csv_row(report_of(info_with({"l1d.size=32768"})));
  const nlohmann::json b = runtime::csv_row(report_of(info_with({"l1d.size=65536"})));
  BOOST_TEST(leading(a) != leading(b));
  BOOST_TEST(a["sets"] == "l1d.size=32768");
  BOOST_TEST(a["config_files"] == "configs/fermi-gtx480.toml;configs/tbc.toml");
  BOOST_TEST(a["warp_size"].get<uint32_t>() == 16u);
  BOOST_TEST(a["mode"] == "functional");
  BOOST_TEST(a["simulator"].get<std::string>().rfind("simtlab ", 0) == 0);
  const nlohmann::json none = runtime::csv_row(report_of(info_with({})));
  BOOST_TEST(none["sets"] == "");
  // Every column is present (the CSV writer refuses a missing one).
  for (const auto& c : runtime::csv_columns()) BOOST_TEST(a.contains(c), c);
}

BOOST_AUTO_TEST_CASE(csv_booleans_are_true_and_false_as_documented) {
  const fs::path p = fs::temp_directory_path() / ("simt-run-report-" + std::to_string(::getpid()) + ".csv");
  fs::remove(p);
  for (bool verified : {true, false}) {
    const nlohmann::json row = runtime::csv_row(report_of(info_with({"a.b=1"}, verified)));
    BOOST_TEST(row["verified"].is_boolean());
    stats::append_csv_row(p.string(), runtime::csv_columns(), row);
  }
  const std::string text = slurp(p);
  fs::remove(p);
  BOOST_TEST(text.rfind(stats::csv_header(runtime::csv_columns()) + "\n", 0) == 0, text);
  BOOST_TEST(text.find(",true,") != std::string::npos, text);
  BOOST_TEST(text.find(",false,") != std::string::npos, text);
  BOOST_TEST(text.find("yes") == std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(registry_reports_command_line_assignments_in_order) {
  gpu::MachineConfig machine;
  config::ParamRegistry reg;
  machine.bind(reg);
  CLI::App app;
  reg.bind_cli(app);
  const char* argv[] = {"t", "--set", "l1d.assoc=16", "--l1d.assoc", "4", "--set", "l1d.size=32768"};
  app.parse(7, const_cast<char**>(argv));
  reg.apply_cli();
  using P = std::pair<std::string, std::string>;
  const std::vector<P> want = {{"l1d.assoc", "16"}, {"l1d.assoc", "4"}, {"l1d.size", "32768"}};
  BOOST_TEST((reg.cli_assignments() == want));
  BOOST_TEST(reg.to_json()["l1d.assoc"].get<uint32_t>() == 4u);
}

BOOST_AUTO_TEST_CASE(simtlab_run_writes_what_ran_into_the_csv_and_stats) {
  const fs::path d = fs::temp_directory_path() / ("simt-run-report-e2e-" + std::to_string(::getpid()));
  fs::create_directories(d);
  const test::ProcessRun r = test::run_simtlab(
      "run --workload saxpy --mode functional --quiet --config " SIMT_SOURCE_DIR "/configs/vws-baseline.toml "
      "--set l1d.size=32768 --sm.policy lrr --warp-size 16 --csv " + (d / "r.csv").string() + " --stats " +
          (d / "s.json").string(),
      d);
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const std::string csv = slurp(d / "r.csv");
  const std::string want = "workload saxpy (small),functional," SIMT_SOURCE_DIR
                           "/configs/vws-baseline.toml,l1d.size=32768;sm.policy=lrr,16,simtlab ";
  BOOST_TEST(csv.find("\n" + want) != std::string::npos, csv);
  BOOST_TEST(csv.find(",true,,") != std::string::npos, csv);  // verified, then no cycles in functional mode
  const nlohmann::json s = nlohmann::json::parse(slurp(d / "s.json"));
  BOOST_TEST(s["sets"] == nlohmann::json({"l1d.size=32768", "sm.policy=lrr"}));
  BOOST_TEST(s["warp_size"].get<uint32_t>() == 16u);
  fs::remove_all(d);
}
