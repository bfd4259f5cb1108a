// What a thread batch does in one VGIW block, decided by the functional
// executor when the batch reaches its initiator: the block's instructions
// run in program order for the batch's threads (threads are data-parallel,
// so the dataflow order inside each thread gives the same values), and the
// timing side learns, per thread, the block it goes to next and the memory
// lines each of the block's memory nodes touches.
//
// Memory lines (no coalescing, seed 002 §3.6): every access of a thread is
// one request per line it touches. Global, constant and texture accesses
// use their address (a texel's is its global address: this core has no
// texture cache, so texture reads are global reads through its L1D);
// parameters sit at func::kParamWindow; local memory is laid out as
// the SIMT SM lays it out (interleaved word by word over the CTA's threads,
// in a region per core and CTA position). Shared-memory accesses make no
// request: the LDST unit answers them after shmem.latency.
//
// Barriers: the threads' arrivals are counted as the SIMT SM counts them
// (sm/cta_barriers.h), so a bar.red (__syncthreads_or and friends) writes
// its result into every thread once the CTA's last thread has arrived.
#pragma once

#include <cstdint>
#include <vector>

#include "func/executor.h"
#include "vgiw/compiler.h"
#include "vgiw/vgiw_cta.h"

namespace simt::vgiw {

struct LineAccess {
  uint64_t addr = 0;    // line address
  uint32_t bytes = 0;   // bytes of the line touched
  uint32_t word = 0;    // the first word touched, within the line (its L1 bank)
  bool write = false, atomic = false;
};

struct BatchResult {
  uint32_t next[64];                    // per bit: the next block ID, kNone = exited
  // Per memory node (Instr nodes on LDST units, in node order) and thread
  // bit: lines [first[m * 65 + b], first[m * 65 + b + 1]) of `lines`.
  std::vector<uint32_t> first;
  std::vector<LineAccess> lines;
  std::vector<uint8_t> shared;          // per memory node: the instruction touches shared memory
  uint64_t thread_instructions = 0;
  uint64_t batch_instructions = 0;      // instructions executed for the batch (its "warp" instructions)
  uint64_t int_threads = 0, fp_threads = 0, sfu_threads = 0;  // thread instructions by class (energy)
};

class BatchRunner {
 public:
  // `block` of `c` (run by c's executor: the if-converted program); `region` is where local
  // memory of this core's CTA positions starts.
  BatchRunner(const Compilation& c, const CompiledBlock& block, uint32_t line, uint64_t local_region);

  // Runs the block for `bits` (thread slots base..base+63) of `cta`. Throws
  // simt::kernel_fault naming kernel, CTA, thread and PC on a fault.
  void run(VgiwCta& cta, uint32_t base, uint64_t bits, BatchResult& out);

  // Memory nodes in node order, and the node index of each.
  const std::vector<uint32_t>& memory_nodes() const { return mem_nodes_; }
  uint32_t memory_index(uint32_t node) const { return mem_index_[node]; }

 private:
  const Compilation& c_;
  const CompiledBlock& b_;
  uint32_t line_;
  uint64_t local_region_;
  std::vector<uint32_t> mem_nodes_, mem_index_, mem_of_pc_;  // mem_of_pc_: pc - begin -> memory index or kNone
  func::StepResult res_;
};

}  // namespace simt::vgiw
