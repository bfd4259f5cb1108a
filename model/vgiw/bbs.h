// The basic block scheduler (seed 002 §3.2): runs a kernel block by block.
//
// At a kernel's first CTA it compiles the kernel (compiler.h) and formats
// the CVT: one vector per block, as many 64-thread words as the tile holds
// (tile = CVT bits / blocks, rounded down to whole CTAs, each CTA starting
// at a word, and no more CTAs than keep their live values within the LVC,
// but at least one); a CTA needs room in the tile, else its launch waits. A new
// CTA's threads are ORed into block 0's vector.
//
// Then, repeatedly: pick the smallest block ID with waiting threads;
// configure the grid for it unless it already is (the grid charges
// vgiw.reconfig_cycles; the configurations are prefetched, so loading them
// costs nothing more); stream the block's vector word by word (read and
// reset) as <base, bitmap> batches to the replicas' initiators; OR every
// batch the terminators return into its next block's vector; and once no
// thread of the block waits and every thread sent has returned, pick again.
// Threads returning to the block being run are streamed in the same
// configuration. A CTA whose threads have all exited is reported done.
//
// Barriers need nothing more: a barrier ends its block, and the block's
// successor has a larger ID, so it runs only once every thread of the
// resident CTAs that can reach the barrier block has run it.
//
// Stats under `stats_name` (e.g. sm0.bbs): blocks_run, batches,
// batch_threads (histogram of threads per batch), threads_returned,
// exited_threads, cycles_configuring (waiting for the grid to take a
// configuration), and the core's sm<i>.cycles (a CTA resident),
// ctas_launched, ctas_done.
//
// VCD (with a waveform): sm<i>.bbs.block (the block being run, all ones when
// none), sm<i>.bbs.state (0 idle, 1 configuring, 2 streaming, 3 draining:
// every thread sent, some not back), and sm<i>.cvt.block<k>_threads for
// k < 16: threads waiting for block k (the CVT's occupancy per block).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "sm/packets.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "util/fault_latch.h"
#include "util/packet_socket.h"
#include "util/ring_queue.h"
#include "vgiw/vgiw_cta.h"
#include "vgiw/vgiw_packets.h"
#include "vgiw/vgiw_params.h"

namespace simt::trace { class Waveform; }

namespace simt::vgiw {

class Bbs : public sc_core::sc_module, private util::Clocked {
 public:
  util::PacketTarget<Bbs, sm::CtaLaunch> launch;       // from the CTA dispatcher
  util::PacketInitiator<Bbs, sm::CtaDone> done;        // to the CTA dispatcher
  util::PacketInitiator<Bbs, CvtAccess> cvt;           // to the CVT
  util::PacketInitiator<Bbs, GridConfigure> grid_config;
  util::PacketInitiator<Bbs, ThreadBatch> grid_batches;
  util::PacketTarget<Bbs, BatchReturn> returns;        // from the grid's terminators

  // `sm_stats` names the core (sm0); the BBS's own counters go under sm0.bbs.
  Bbs(sc_core::sc_module_name name, const VgiwParams& v, stats::Registry& stats, const std::string& sm_stats,
      uint32_t core_id, trace::Waveform* waveform = nullptr);
  ~Bbs() override;

  void rethrow_fault() const { fault_.rethrow(); }
  // Throws simt::input_error when the kernel cannot run here (the grid
  // cannot hold one of its blocks, or one CTA needs more CVT than there is),
  // before the launch starts (sm/core.h).
  void check_kernel(const std::shared_ptr<const sm::KernelContext>& k) const { plan(k); }

 private:
  void on_launch(sm::CtaLaunch& l, sc_core::sc_time& t);
  void on_return(BatchReturn& b, sc_core::sc_time& t);
  void on_cycle(uint64_t now) override;
  void cycle(uint64_t now);
  std::pair<std::shared_ptr<const Compilation>, uint32_t> plan(const std::shared_ptr<const sm::KernelContext>& k) const;
  void start_kernel(const std::shared_ptr<const sm::KernelContext>& k);
  bool start_cta(const sm::CtaLaunch& l);
  void take_returns(uint64_t now);
  // One access to the CVT now (refused on a bank conflict: `accepted`).
  CvtAccess cvt_access(CvtAccess::Kind kind, uint32_t block, uint32_t word, uint64_t bits = 0);
  void queue_or(uint32_t block, uint32_t word, uint64_t bits);
  void write_cvt();
  void schedule(uint64_t now);
  void write_signals(uint64_t now);
  // A batch read from the CVT waits for its replica's initiator.
  bool any_staged() const {
    return std::any_of(staged_.begin(), staged_.end(), [](const auto& s) { return s.has_value(); });
  }

  VgiwParams v_;
  uint32_t core_id_;
  std::shared_ptr<const sm::KernelContext> kernel_;
  std::shared_ptr<const Compilation> comp_;
  uint32_t words_ = 0, cta_words_ = 0;        // words per block vector; words per CTA
  std::vector<std::unique_ptr<VgiwCta>> ctas_;  // per CTA position
  uint32_t live_ctas_ = 0;
  std::vector<uint64_t> pending_;              // per block: threads waiting (CVT or queued writes)
  std::vector<std::vector<uint64_t>> filled_;  // per block: bitset of words that may hold threads
  std::deque<CvtAccess> writes_;
  util::RingQueue<std::pair<uint64_t, sm::CtaLaunch>> launch_q_;  // (visible from, launch)
  util::RingQueue<std::pair<uint64_t, BatchReturn>> return_q_;
  util::RingQueue<sm::CtaDone> done_q_;
  uint32_t current_ = kNone, configured_ = kNone;
  uint64_t sent_ = 0, returned_ = 0;           // threads of the current block
  std::vector<std::optional<ThreadBatch>> staged_;  // per replica: a batch read, not yet taken
  uint64_t last_cycle_ = 0;
  uint64_t configured_at_ = 0;  // the grid has the current configuration from this cycle
  util::FaultLatch fault_;
  trace::Waveform* wf_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_block_ = nullptr;
  sc_core::sc_signal<uint8_t>* sig_state_ = nullptr;
  std::vector<sc_core::sc_signal<uint32_t>*> sig_pending_;  // per block < 16

  stats::Counter &blocks_run_, &batches_, &threads_returned_, &exited_, &configuring_, &cycles_, &launched_,
      &ctas_done_;
  stats::Histogram& batch_threads_;
};

}  // namespace simt::vgiw
