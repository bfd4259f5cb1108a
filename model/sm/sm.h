// The SIMT SM netlist: instantiates its blocks and binds them, nothing else
// (docs/timing-model.md has the diagram). Outside connections:
//   issue.launch / issue.done   to the GPU's CTA dispatcher
//   l1i.down / l1d.down         to the GPU's crossbar
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <systemc>

#include "mem/cache_module.h"
#include "sm/decode_unit.h"
#include "sm/exec_pipe.h"
#include "sm/fetch_unit.h"
#include "sm/issue_unit.h"
#include "sm/ldst_unit.h"
#include "stats/stats.h"
#include "tbc/thread_compactor_unit.h"

namespace simt::config { class ParamRegistry; }
namespace simt::trace { class Waveform; class WarpTrace; }

namespace simt::sm {

struct SmParams {
  IssueParams issue;        // sm.*, stats.interval
  FetchParams fetch;        // fetch.*
  DecodeParams decode;      // decode.*
  PipeParams sp;            // sp.*  (INT and FP)
  PipeParams sfu;           // sfu.*
  OpLatencyTable ops;       // ops.* (per-opcode latency overrides)
  LdstParams ldst;          // ldst.*, shmem.*
  mem::CacheParams l1i, l1d;            // l1i.*, l1d.*
  mem::CachePortParams l1i_port, l1d_port;
  tbc::ThreadCompactorParams compactor;  // tbc.* (only with sm.reconvergence = tbc)

  SmParams();
  void bind(config::ParamRegistry& r);
  void validate() const;
};

class Sm : public sc_core::sc_module {
 public:
  // `waveform` and `warp_trace` may be null (no VCD, no --trace-warps); the
  // blocks create their VCD signals from `waveform` under their stats names.
  Sm(sc_core::sc_module_name name, const SmParams& p, stats::Registry& stats, uint32_t sm_id,
     trace::Waveform* waveform = nullptr, trace::WarpTrace* warp_trace = nullptr);

  IssueUnit issue;
  FetchUnit fetch;
  DecodeUnit decode;
  ExecPipe sp, sfu;
  LdstUnit ldst;
  mem::CacheModule l1i, l1d;
  // TBC's thread compactor between the branch unit and the warp buffer;
  // present only when sm.reconvergence = tbc.
  std::unique_ptr<tbc::ThreadCompactorUnit> compactor;

  // Forces the trace_/lane_activity() data on (tests); a waveform turns it
  // on by itself for the blocks whose signals it records.
  void set_tracing(bool on);
};

}  // namespace simt::sm
