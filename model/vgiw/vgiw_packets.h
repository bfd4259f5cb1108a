// Typed (non-memory) traffic between the VGIW core's blocks (vgiw_core.h).
#pragma once

#include <cstdint>
#include <memory>

#include "sm/kernel_context.h"
#include "vgiw/compiler.h"

namespace simt::vgiw {

struct VgiwCta;  // vgiw_cta.h

// BBS -> grid: configure the grid for a block (its graph, placement and
// replicas). Refused while threads of the previous block are in flight.
struct GridConfigure {
  const Compilation* compilation = nullptr;
  // Owner of *compilation: the grid keeps per-block set-ups while it lives
  // (null: the grid builds each configuration afresh).
  std::shared_ptr<const Compilation> owner;
  const CompiledBlock* block = nullptr;
  uint32_t slots = 0;  // thread slots of the tile (rows of the live value matrix)
  bool accepted = false;
};

// BBS -> grid (an initiator CVU): a thread batch <base thread ID, bitmap>
// of one CTA, for the configured block. Refused while the replica's
// initiator holds two batches (double buffering).
struct ThreadBatch {
  uint32_t replica = 0;
  uint32_t base = 0;    // thread slot of bit 0 (a multiple of 64)
  uint64_t bits = 0;
  VgiwCta* cta = nullptr;
  bool accepted = false;
};

// Grid (a terminator CVU) -> BBS: threads that finished the configured
// block and go to block `next` (kNone: they exited).
struct BatchReturn {
  uint32_t next = kNone;
  uint32_t base = 0;
  uint64_t bits = 0;
  bool accepted = false;
};

// BBS -> CVT: read-and-reset one word of a block's vector, or OR bits into
// it. Refused when the word's bank has used that port this cycle. Format
// (a kernel's load): `block` vectors of `word` words each, all clear.
struct CvtAccess {
  enum Kind : uint8_t { ReadReset, Or, Format };
  Kind kind = ReadReset;
  uint32_t block = 0;
  uint32_t word = 0;
  uint64_t bits = 0;  // Or: the bits; ReadReset: the answer
  bool accepted = false;

  static CvtAccess make(Kind kind, uint32_t block, uint32_t word, uint64_t bits = 0) {
    CvtAccess a;
    a.kind = kind;
    a.block = block;
    a.word = word;
    a.bits = bits;
    return a;
  }
};

}  // namespace simt::vgiw
