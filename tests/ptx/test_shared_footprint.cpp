#define BOOST_TEST_MODULE shared_footprint
// Issue 35, item 2 (PTX level): a kernel's static shared memory is computed
// in 64 bits, from the array sizes through alignment to the total, so a
// .shared array of 4 GiB + 64 B is 4 GiB + 64 B, not 64 B (it wrapped modulo
// 2^32 and ran on a 48 KB machine). Sizes and alignments that 64 (or, for
// .align, 32) bits cannot hold are refused instead of truncated.
// tests/runtime/test_shared_limits.cpp checks the refusal at launch.
#include <boost/test/unit_test.hpp>

#include <string>

#include "ptx/link.h"
#include "ptx/parser.h"
#include "util/error.h"

using namespace simt::ptx;

namespace {

const std::string kHeader = ".version 8.0\n.target sm_75\n.address_size 64\n";

// A kernel `k` with `decls` in its body (and `module_decls` before it) that
// takes the address of `use`.
std::string kernel(const std::string& decls, const std::string& use = "s", const std::string& module_decls = "") {
  return kHeader + module_decls + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd1;\n" + decls +
         "\nmov.u64 %rd1, " + use + ";\nret;\n}\n";
}

Program link_of(const std::string& ptx) { return link(parse(ptx, "big.ptx"), "k", {}); }

// The message of the BadInput error `f` throws ("" and a failure if none).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const simt::Error& e) {
    BOOST_CHECK(e.code() == simt::ExitCode::BadInput);
    return e.what();
  }
  BOOST_ERROR("no error");
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr uint64_t k4GiB = uint64_t{1} << 32;

}  // namespace

BOOST_AUTO_TEST_CASE(a_4_gib_plus_64_array_is_4_gib_plus_64_bytes) {
  BOOST_TEST(link_of(kernel(".shared .align 4 .b8 s[4294967360];")).static_shared_bytes == k4GiB + 64);
  // Module scope, referenced by the kernel.
  BOOST_TEST(link_of(kernel("", "s", ".shared .align 4 .b8 s[4294967360];\n")).static_shared_bytes == k4GiB + 64);
  // Two dimensions whose product passes 2^32 (4 * 65536 * 16385 bytes).
  BOOST_TEST(link_of(kernel(".shared .b32 s[65536][16385];")).static_shared_bytes == 4ull * 65536 * 16385);
}

BOOST_AUTO_TEST_CASE(the_sum_of_arrays_and_their_alignment_stay_64_bit) {
  // Two arrays of 2 GiB + 32 B: 4 GiB + 64 B together.
  Program p = link_of(kernel(".shared .align 4 .b8 s[2147483680];\n.shared .align 4 .b8 t[2147483680];"));
  BOOST_TEST(p.static_shared_bytes == k4GiB + 64);
  // Alignment past 4 GiB: s takes [0, 4 GiB + 1), t starts at 6 GiB.
  p = link_of(kernel(".shared .b8 s[4294967297];\n.shared .align 2147483648 .b8 t[16];", "t"));
  BOOST_TEST(p.static_shared_bytes == 3 * (uint64_t{1} << 31) + 16);
  // Small kernels are unchanged.
  p = link_of(kernel(".shared .align 4 .b8 s[100];\n.shared .align 16 .b8 t[8];"));
  BOOST_TEST(p.static_shared_bytes == 120u);
}

BOOST_AUTO_TEST_CASE(sizes_beyond_64_bits_are_refused_not_wrapped) {
  // 2^32 * 2^32 elements wrapped to 0.
  std::string e = error_of([] { parse(kernel(".shared .b8 s[4294967296][4294967296];"), "big.ptx"); });
  BOOST_TEST(has(e, "big.ptx:7:"), e);
  BOOST_TEST(has(e, "array 's' is larger than 2^64 bytes"), e);
  // 2^61 eight-byte elements: 2^64 bytes.
  e = error_of([] { parse(kernel(".shared .b64 s[2305843009213693952];"), "big.ptx"); });
  BOOST_TEST(has(e, "larger than 2^64 bytes"), e);
  BOOST_TEST(link_of(kernel(".shared .b64 s[1152921504606846976];")).static_shared_bytes == uint64_t{1} << 63);
  // Four arrays of 2^62 bytes: the total passes 2^64 at link time.
  e = error_of([] {
    link_of(kernel(".shared .b8 s[4611686018427387904];\n.shared .b8 t[4611686018427387904];\n"
                   ".shared .b8 u[4611686018427387904];\n.shared .b8 v[4611686018427387904];"));
  });
  BOOST_TEST(has(e, "big.ptx:10: kernel 'k': its .shared variables do not fit in 64 bits (at 'v')"), e);
}

BOOST_AUTO_TEST_CASE(alignments_beyond_32_bits_are_refused_not_truncated) {
  // 2^32 + 16 became 16; 2^33 became 0.
  std::string e = error_of([] { parse(kernel(".shared .align 4294967312 .b8 s[8];"), "big.ptx"); });
  BOOST_TEST(has(e, "alignment must be a power of two"), e);
  e = error_of([] { parse(kernel(".shared .align 8589934592 .b8 s[8];"), "big.ptx"); });
  BOOST_TEST(has(e, "alignment 8589934592 exceeds 2147483648"), e);
  e = error_of([] { parse(kHeader + ".visible .entry k(.param .align 4294967304 .b8 p[8]) { ret; }", "big.ptx"); });
  BOOST_TEST(has(e, "alignment must be a power of two"), e);
  e = error_of([] { parse(kHeader + ".visible .entry k(.param .align 4294967296 .b8 p[8]) { ret; }", "big.ptx"); });
  BOOST_TEST(has(e, "exceeds 2147483648"), e);
}
