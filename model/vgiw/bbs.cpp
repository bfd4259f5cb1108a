#include "vgiw/bbs.h"

#include <algorithm>
#include <tuple>

#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::vgiw {

namespace {

uint64_t word_mask(uint32_t threads, uint32_t word) {
  const uint32_t first = word * 64;
  if (threads >= first + 64) return ~uint64_t{0};
  return threads > first ? (uint64_t{1} << (threads - first)) - 1 : 0;
}

}  // namespace

Bbs::Bbs(sc_core::sc_module_name name, const VgiwParams& v, stats::Registry& st, const std::string& sm,
         uint32_t core_id, trace::Waveform* wf)
    : sc_core::sc_module(name),
      launch("launch", this, &Bbs::on_launch),
      done("done"),
      cvt("cvt"),
      grid_config("grid_config"),
      grid_batches("grid_batches"),
      returns("returns", this, &Bbs::on_return),
      v_(v),
      core_id_(core_id),
      blocks_run_(st.counter(sm + ".bbs.blocks_run", "times a block was scheduled (its vector streamed to the grid)")),
      batches_(st.counter(sm + ".bbs.batches", "thread batches sent to initiator CVUs")),
      threads_returned_(st.counter(sm + ".bbs.threads_returned", "threads the terminators returned")),
      exited_(st.counter(sm + ".bbs.exited_threads", "threads that exited")),
      configuring_(st.counter(sm + ".bbs.cycles_configuring",
                              "cycles the BBS waited for the grid to take a configuration")),
      cycles_(st.counter(sm + ".cycles", "cycles with at least one CTA resident")),
      launched_(st.counter(sm + ".ctas_launched", "CTAs started")),
      ctas_done_(st.counter(sm + ".ctas_done", "CTAs completed")),
      batch_threads_(st.histogram(sm + ".bbs.batch_threads", 1, 1, 64, "threads per batch sent (bin = threads - 1)")) {
  if (wf && wf->enabled()) {
    sig_block_ = wf->signal<uint32_t>(sm + ".bbs.block", ~0u);
    sig_state_ = wf->signal<uint8_t>(sm + ".bbs.state", 0);
    for (uint32_t k = 0; k < 16; ++k)
      sig_pending_.push_back(wf->signal<uint32_t>(sm + ".cvt.block" + std::to_string(k) + "_threads", 0));
    wf_ = wf;
  }
  attach_to_clock(false);
}

void Bbs::write_signals(uint64_t now) {
  if (!wf_ || !wf_->in_window(now)) return;
  const bool staged = any_staged();
  uint8_t state = 0;
  if (current_ != kNone)
    state = now < configured_at_                       ? 1
            : pending_[current_] > 0 || staged         ? 2
            : sent_ != returned_                        ? 3
                                                        : 0;
  if (sig_block_) sig_block_->write(current_);
  if (sig_state_) sig_state_->write(state);
  for (uint32_t k = 0; k < sig_pending_.size(); ++k)
    if (sig_pending_[k]) sig_pending_[k]->write(k < pending_.size() ? static_cast<uint32_t>(pending_[k]) : 0);
}

Bbs::~Bbs() = default;

void Bbs::on_launch(sm::CtaLaunch& l, sc_core::sc_time&) {
  if (!launch_q_.empty()) return;  // one launch waits at a time: backpressure to the dispatcher
  l.accepted = true;
  launch_q_.emplace_back(util::now_cycle() + 1, l);
  wake_next();
}

void Bbs::on_return(BatchReturn& b, sc_core::sc_time&) {
  b.accepted = true;
  return_q_.emplace_back(util::now_cycle() + 1, b);
  wake_next();
}

// The kernel's compilation (cached while its program lives) and how many
// CTAs one CVT tile holds; throws simt::input_error when not even one fits.
std::pair<std::shared_ptr<const Compilation>, uint32_t> Bbs::plan(
    const std::shared_ptr<const sm::KernelContext>& k) const {
  CompilerOptions o;
  o.grid = v_.units;
  o.tracks = v_.tracks;
  o.if_convert_limit = v_.if_convert_limit;
  std::shared_ptr<const Compilation> comp =
      compile_for(k->program_owner ? k->program_owner : std::shared_ptr<const void>(k), *k->prog, o);
  const uint32_t blocks = static_cast<uint32_t>(comp->blocks().size());
  const uint32_t threads = k->geom.threads_per_cta();
  const uint32_t cta_words = (threads + 63) / 64;
  const uint32_t bits = v_.cvt_bytes * 8;
  const uint32_t tile_words = bits / (blocks * 64);
  uint32_t positions = cta_words ? tile_words / cta_words : 0;
  // The tile also keeps the resident threads' live values within the LVC
  // (seed 002 §3.4: tiling keeps them from spilling), but never below one CTA.
  const uint64_t row_bytes = uint64_t{std::max(1u, comp->live_values().count())} * v_.lvc_entry_bytes;
  const uint64_t lvc_ctas = v_.lvc.size / (row_bytes * cta_words * 64);
  if (positions > 0) positions = static_cast<uint32_t>(std::clamp<uint64_t>(lvc_ctas, 1, positions));
  if (positions == 0)
    throw input_error("vgiw: kernel '" + k->prog->kernel + "' has " + std::to_string(blocks) +
                      " blocks and CTAs of " + std::to_string(threads) + " threads: one CTA needs " +
                      std::to_string(uint64_t{blocks} * cta_words * 64) + " CVT bits and vgiw.cvt_bytes = " +
                      std::to_string(v_.cvt_bytes) + " holds " + std::to_string(bits));
  return {std::move(comp), positions};
}

void Bbs::start_kernel(const std::shared_ptr<const sm::KernelContext>& k) {
  uint32_t positions = 0;
  std::tie(comp_, positions) = plan(k);
  kernel_ = k;
  const uint32_t blocks = static_cast<uint32_t>(comp_->blocks().size());
  cta_words_ = (k->geom.threads_per_cta() + 63) / 64;
  words_ = positions * cta_words_;
  ctas_.clear();
  ctas_.resize(positions);
  pending_.assign(blocks, 0);
  filled_.assign(blocks, std::vector<uint64_t>((words_ + 63) / 64, 0));
  current_ = configured_ = kNone;
  cvt_access(CvtAccess::Format, blocks, words_);
  staged_.clear();
}

bool Bbs::start_cta(const sm::CtaLaunch& l) {
  if (l.kernel.get() != kernel_.get()) {
    if (live_ctas_) return false;  // another kernel's CTAs still run here
    start_kernel(l.kernel);
  }
  auto free = std::find(ctas_.begin(), ctas_.end(), nullptr);
  if (free == ctas_.end()) return false;  // the tile is full
  const sm::KernelContext& k = *l.kernel;
  auto c = std::make_unique<VgiwCta>();
  // The compiled program: if-conversion adds predicate registers (compiler.h).
  c->state = std::make_unique<func::CtaState>(comp_->program(), k.geom, l.ctaid, k.params);
  c->state->sm_id = core_id_;
  c->state->warp_size = 32;
  c->kernel = &k;
  c->index = l.cta_index;
  c->threads = k.geom.threads_per_cta();
  const uint32_t pos = static_cast<uint32_t>(free - ctas_.begin());
  c->base = pos * cta_words_ * 64;
  for (uint32_t w = 0; w < cta_words_; ++w) queue_or(0, pos * cta_words_ + w, word_mask(c->threads, w));
  pending_[0] += c->threads;
  *free = std::move(c);
  ++live_ctas_;
  ++launched_;
  return true;
}

void Bbs::take_returns(uint64_t now) {
  while (!return_q_.empty() && return_q_.front().first <= now) {
    const BatchReturn b = return_q_.front().second;
    return_q_.pop_front();
    const uint64_t n = static_cast<uint64_t>(__builtin_popcountll(b.bits));
    returned_ += n;
    threads_returned_ += n;
    if (b.next == kNone) {
      exited_ += n;
      const uint32_t pos = b.base / (cta_words_ * 64);
      VgiwCta& c = *ctas_.at(pos);
      c.exited += static_cast<uint32_t>(n);
      if (c.exited == c.threads) {
        sm::CtaDone d;
        d.sm = core_id_;
        d.cta_index = c.index;
        done_q_.push_back(d);
        ctas_[pos].reset();
        --live_ctas_;
        ++ctas_done_;
      }
      continue;
    }
    queue_or(b.next, b.base / 64, b.bits);
    pending_[b.next] += n;
  }
}

CvtAccess Bbs::cvt_access(CvtAccess::Kind kind, uint32_t block, uint32_t word, uint64_t bits) {
  CvtAccess a = CvtAccess::make(kind, block, word, bits);
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  cvt->b_transport(a, t);
  return a;
}

void Bbs::queue_or(uint32_t block, uint32_t word, uint64_t bits) {
  writes_.push_back(CvtAccess::make(CvtAccess::Or, block, word, bits));
}

void Bbs::write_cvt() {
  for (auto it = writes_.begin(); it != writes_.end();) {
    const CvtAccess a = cvt_access(CvtAccess::Or, it->block, it->word, it->bits);
    if (!a.accepted) {  // its bank's write port is taken this cycle
      ++it;
      continue;
    }
    filled_[a.block][a.word / 64] |= uint64_t{1} << (a.word % 64);
    it = writes_.erase(it);
  }
}

void Bbs::schedule(uint64_t now) {
  if (!comp_) return;
  // The current block is finished once nothing waits for it and the grid
  // has returned every thread sent.
  if (current_ != kNone && pending_[current_] == 0 && sent_ == returned_ && !any_staged()) current_ = kNone;
  if (current_ == kNone) {
    auto it = std::find_if(pending_.begin(), pending_.end(), [](uint64_t p) { return p > 0; });
    if (it == pending_.end()) return;
    const uint32_t b = static_cast<uint32_t>(it - pending_.begin());
    if (b != configured_) {
      GridConfigure g;
      g.compilation = comp_.get();
      g.owner = comp_;
      g.block = &comp_->blocks()[b];
      g.slots = words_ * 64;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      grid_config->b_transport(g, t);
      if (!g.accepted) {
        ++configuring_;
        return;
      }
      configured_ = b;
      configured_at_ = now + v_.reconfig_core_cycles();
      staged_.assign(comp_->blocks()[b].replicas, std::nullopt);
    }
    current_ = b;
    sent_ = returned_ = 0;
    ++blocks_run_;
  }
  // Stream: a word per replica that has taken its last batch.
  std::vector<uint64_t>& filled = filled_[current_];
  for (uint32_t r = 0; r < staged_.size(); ++r) {
    if (!staged_[r]) {
      auto w = std::find_if(filled.begin(), filled.end(), [](uint64_t x) { return x != 0; });
      if (w == filled.end()) continue;
      const uint32_t word = static_cast<uint32_t>((w - filled.begin()) * 64 + __builtin_ctzll(*w));
      const CvtAccess a = cvt_access(CvtAccess::ReadReset, current_, word);
      if (!a.accepted) continue;  // bank conflict: next cycle
      *w &= *w - 1;
      if (!a.bits) continue;
      pending_[current_] -= static_cast<uint64_t>(__builtin_popcountll(a.bits));
      ThreadBatch b;
      b.replica = r;
      b.base = word * 64;
      b.bits = a.bits;
      b.cta = ctas_.at(word / cta_words_).get();
      staged_[r] = b;
    }
    ThreadBatch b = *staged_[r];
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    grid_batches->b_transport(b, t);
    if (!b.accepted) continue;
    const uint64_t n = static_cast<uint64_t>(__builtin_popcountll(b.bits));
    sent_ += n;
    ++batches_;
    batch_threads_.add(static_cast<int64_t>(n));
    staged_[r].reset();
  }
}

void Bbs::on_cycle(uint64_t now) {
  fault_.run([&] { cycle(now); });
}

void Bbs::cycle(uint64_t now) {
  // Resident cycles since the last run (CTAs only come and go here).
  if (live_ctas_) cycles_ += now - last_cycle_;
  last_cycle_ = now;
  if (!launch_q_.empty() && launch_q_.front().first <= now && start_cta(launch_q_.front().second))
    launch_q_.pop_front();
  take_returns(now);
  write_cvt();
  schedule(now);
  while (!done_q_.empty()) {
    sm::CtaDone d = done_q_.front();
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    done->b_transport(d, t);
    if (!d.accepted) break;
    done_q_.pop_front();
  }
  if (kernel_ && kernel_->cycle_limit && now >= kernel_->cycle_limit && live_ctas_)
    throw kernel_fault("kernel '" + kernel_->prog->kernel + "' did not finish within " +
                       std::to_string(kernel_->max_cycles) + " cycles (--max-cycles)");
  // Busy: something to stream or write, a launch or CTA done waiting, or
  // threads still out in the grid (their returns wake us).
  const bool streaming = current_ != kNone && (pending_[current_] > 0 || any_staged());
  const bool more = current_ == kNone && std::any_of(pending_.begin(), pending_.end(), [](uint64_t p) { return p > 0; });
  const bool finished_block = current_ != kNone && pending_[current_] == 0 && sent_ == returned_;
  write_signals(now);
  const bool tracing = wf_ && live_ctas_ && now + 1 >= wf_->window_start() && wf_->in_window(now + 1);
  if (streaming || more || finished_block || !writes_.empty() || !launch_q_.empty() || !done_q_.empty() ||
      (live_ctas_ && !return_q_.empty()) || tracing)
    wake_next();
}

}  // namespace simt::vgiw
