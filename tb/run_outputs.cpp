#include "run_outputs.h"

#include "runtime/run_report.h"
#include "stats/stats.h"

namespace simt::tb {

using util::OutputFile;

RunOutputs::RunOutputs(const OutputPaths& p, const std::string& csv_header) {
  std::vector<util::NamedOutput> all = {
      {"--stats", p.stats}, {"--csv", p.csv}, {"--vcd", p.vcd}, {"--trace-warps", p.trace_warps}};
  all.insert(all.end(), p.manifest_outputs.begin(), p.manifest_outputs.end());
  util::refuse_shared_outputs(all);
  if (!p.stats.empty()) stats_ = std::make_unique<OutputFile>("--stats", p.stats);
  if (!p.csv.empty()) {
    csv_ = std::make_unique<OutputFile>("--csv", p.csv, OutputFile::Mode::Append);
    if (!csv_header.empty()) stats::check_csv_header(*csv_, csv_header);
  }
  // SystemC appends ".vcd" to the name it is given: the temporary ends in it.
  if (!p.vcd.empty()) vcd_ = std::make_unique<OutputFile>("--vcd", p.vcd, OutputFile::Mode::ReplaceByName, ".vcd");
  if (!p.trace_warps.empty()) trace_ = std::make_unique<OutputFile>("--trace-warps", p.trace_warps);
}

void RunOutputs::write_report(const nlohmann::json& report, const std::vector<std::string>& csv_columns,
                              const nlohmann::json& csv_row) {
  if (stats_) stats::write_json(*stats_, report);
  if (csv_) stats::append_csv_row(*csv_, csv_columns, csv_row);
}

void RunOutputs::write_report(const nlohmann::json& report, const std::vector<std::string>& csv_columns,
                              const std::vector<nlohmann::json>& csv_rows) {
  if (stats_) stats::write_json(*stats_, report);
  if (csv_) stats::append_csv_rows(*csv_, csv_columns, csv_rows);
}

void RunOutputs::finish_traces() {
  if (vcd_) vcd_->commit();
  if (trace_) trace_->commit();
}

void write_outputs(const RunOptions& o, const runtime::Device& dev, const Machine& m, const std::string& what,
                   bool verified, RunOutputs& outs) {
  if (o.stats_file.empty() && o.csv_file.empty()) return;
  runtime::RunInfo info;
  info.what = what;
  info.mode = o.mode;
  info.config_files = o.configs;
  for (const auto& [key, value] : m.registry.cli_assignments()) info.sets.push_back(key + "=" + value);
  info.machine = machine_name(o);
  info.verified = verified;
  info.warp_size = m.config->sm.issue.warp_size;
  nlohmann::json report = runtime::run_report(dev, info, m.registry.to_json());
  outs.write_report(report, runtime::csv_columns(), runtime::csv_row(report));
}

}  // namespace simt::tb
