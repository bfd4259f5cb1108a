// Checked element accesses for the instructions outside exec_memory.cpp that
// read or write memory (wmma.load/store, ldmatrix): the same space
// resolution, bounds and alignment faults as ld/st, and the same records for
// the timing model (StepResult::accesses when ExecEnv::record_accesses).
#pragma once

#include <cstdint>

#include "func/exec_context.h"

namespace simt::func {

// Resolves [a, a + size) in space `s` (None/Generic: generic addressing) for
// thread t into `rs`/`ra`, records it, and returns true; on a fault reports
// it through `c` and returns false. `size` is a power of two; `a` must be
// aligned to it.
bool element_access(ExecContext& c, uint32_t t, ptx::Space s, uint64_t a, uint32_t size, bool store,
                    ptx::Space& rs, uint64_t& ra);
// Reads / writes a resolved access (after element_access said yes).
void element_read(ExecContext& c, uint32_t t, ptx::Space rs, uint64_t ra, void* dst, uint32_t n);
void element_write(ExecContext& c, uint32_t t, ptx::Space rs, uint64_t ra, const void* src, uint32_t n);

}  // namespace simt::func
