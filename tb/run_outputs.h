// The files one `simtlab run` writes besides a manifest's outputs: --stats,
// --csv, --vcd and --trace-warps. All paths are checked when RunOutputs is
// made, before anything simulates (a bad one: exit 2 naming the option).
// The waveform and the warp trace are written by the model to temporary
// files (write paths below) and put under their final names by
// finish_traces() once the device is gone (SystemC closes the VCD file when
// its trace module is destroyed).
//
// What a run leaves, by how it ends:
//   success          stats, CSV row, VCD and warp trace, all complete;
//   kernel fault     VCD and warp trace up to the fault (for debugging it);
//                    no stats and no CSV row (a previous stats file stays);
//   a stop signal    (SIGINT, SIGTERM, SIGHUP, ...) temporaries removed; the
//                    files already complete are listed (util::OutputFile);
//   write failure    exit 4; the failed file keeps its previous contents.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_options.h"
#include "util/output_file.h"
#include "util/output_paths.h"

namespace simt::tb {

struct OutputPaths {
  std::string stats, csv, vcd, trace_warps;  // empty = not asked for
  // Files the run's manifest writes (named "m.json: outputs[i].path"): none
  // of the outputs above may be one of them.
  std::vector<util::NamedOutput> manifest_outputs;
};

class RunOutputs {
 public:
  // Checks every path, and that no two outputs are the same file (exit 2
  // naming both); `csv_header` is the header the CSV file must start with
  // ("": not checked here, as by `simtlab exec`, whose program's CUDA library
  // writes the rows and checks the header against its own columns).
  RunOutputs(const OutputPaths& paths, const std::string& csv_header);

  // Where the model writes the waveform / the warp trace ("" when off).
  std::string vcd_write_path() const { return vcd_ ? vcd_->write_path() : ""; }
  std::string trace_write_path() const { return trace_ ? trace_->write_path() : ""; }
  std::string trace_final_path() const { return trace_ ? trace_->path() : ""; }

  // --stats and --csv of a finished run.
  void write_report(const nlohmann::json& report, const std::vector<std::string>& csv_columns,
                    const nlohmann::json& csv_row);
  // The same with one CSV row per launch (simtlab exec --csv).
  void write_report(const nlohmann::json& report, const std::vector<std::string>& csv_columns,
                    const std::vector<nlohmann::json>& csv_rows);
  // Puts the waveform and warp trace under their final names (after the
  // device that wrote them was destroyed).
  void finish_traces();

 private:
  std::unique_ptr<util::OutputFile> stats_, csv_, vcd_, trace_;
};

// Writes --stats / --csv for a finished run; `what` names it ("workload bfs
// (small)"), `verified` says whether its results were checked correct.
void write_outputs(const RunOptions& o, const runtime::Device& dev, const Machine& m, const std::string& what,
                   bool verified, RunOutputs& outs);

}  // namespace simt::tb
