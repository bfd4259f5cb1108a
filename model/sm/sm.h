// The SIMT SM netlist: instantiates its blocks and binds them, nothing else
// (docs/timing-model.md has the diagram). Outside connections:
//   issue.launch / issue.done   to the GPU's CTA dispatcher
//   l1i.down / l1d.down / l1t.down   to the GPU's crossbar
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "mem/cache_module.h"
#include "sm/core.h"
#include "sm/decode_unit.h"
#include "sm/exec_pipe.h"
#include "sm/fetch_unit.h"
#include "sm/issue_unit.h"
#include "sm/ldst_unit.h"
#include "stats/stats.h"

namespace simt::config { class ParamRegistry; }
namespace simt::trace { class Waveform; class WarpTrace; }

namespace simt::sm {

struct SmParams {
  IssueParams issue;        // sm.*, stats.interval
  FetchParams fetch;        // fetch.*
  DecodeParams decode;      // decode.*
  PipeParams sp;            // sp.*  (INT and FP)
  PipeParams sfu;           // sfu.*
  PipeParams tensor;        // tensor.*  (wmma.mma, mma)
  OpLatencyTable ops;       // ops.* (per-opcode latency overrides)
  LdstParams ldst;          // ldst.*, shmem.*
  mem::CacheParams l1i, l1d;            // l1i.*, l1d.*
  mem::CachePortParams l1i_port, l1d_port;
  // l1t.*: the texture cache, read-only, beside the L1D with its own port
  // to the crossbar (seed 001 Table 2: 32 KB, 64 B lines, 16-way).
  mem::CacheParams l1t;
  mem::CachePortParams l1t_port;

  SmParams();
  void bind(config::ParamRegistry& r);
  void validate() const;
  // `ldst` with the texture coalescing line set to the texture cache's.
  LdstParams ldst_unit_params() const;
};

class Sm;

// What a technique adds to the baseline SM, chosen by the assembly layer
// (gpu/core_factory.h) so that sm/ never names a technique: the branch unit
// the issue stage uses, and the technique's own blocks. add_blocks (may be
// empty) runs at the end of the SM's constructor, so the blocks it makes
// are the SM's children (sm3.compactor) and may bind to its blocks' ports;
// the SM keeps what it returns.
struct SmTechnique {
  std::unique_ptr<BranchUnit> branch;
  std::function<std::vector<std::unique_ptr<sc_core::sc_module>>(Sm&)> add_blocks;
};

class Sm : public Core {
 public:
  // `waveform` and `warp_trace` may be null (no VCD, no --trace-warps); the
  // blocks create their VCD signals from `waveform` under their stats names.
  Sm(sc_core::sc_module_name name, const SmParams& p, SmTechnique technique, stats::Registry& stats,
     uint32_t sm_id, trace::Waveform* waveform = nullptr, trace::WarpTrace* warp_trace = nullptr);

  IssueUnit issue;
  FetchUnit fetch;
  DecodeUnit decode;
  ExecPipe sp, sfu, tensor;
  LdstUnit ldst;
  mem::CacheModule l1i, l1d, l1t;
  // The technique's blocks (SmTechnique::add_blocks), e.g. TBC's thread
  // compactor between the branch unit and the warp buffer.
  std::vector<std::unique_ptr<sc_core::sc_module>> technique_blocks;

  // Forces the trace_/lane_activity() data on (tests); a waveform turns it
  // on by itself for the blocks whose signals it records.
  void set_tracing(bool on);

  // Core (sm/core.h).
  LaunchTarget& launch_socket() override { return issue.launch; }
  DoneInitiator& done_socket() override { return issue.done; }
  mem::MemRequester& instruction_port() override { return l1i.down; }
  mem::MemRequester& data_port() override { return l1d.down; }
  mem::MemRequester* texture_port() override { return &l1t.down; }
  void rethrow_fault() const override { issue.rethrow_fault(); }
  void check_kernel(const std::shared_ptr<const KernelContext>& k) const override { issue.check_kernel(*k); }
  // Also brings the technique blocks' lazily kept counters up to date (sm/stats_settler.h).
  void sample_until(uint64_t now) override;
  uint32_t take_max_stack_depth() override { return issue.take_max_stack_depth(); }
};

}  // namespace simt::sm
