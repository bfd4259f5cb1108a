#include "run_outputs.h"

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
    stats::check_csv_header(*csv_, csv_header);
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

void RunOutputs::finish_traces() {
  if (vcd_) vcd_->commit();
  if (trace_) trace_->commit();
}

}  // namespace simt::tb
