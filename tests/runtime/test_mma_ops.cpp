#define BOOST_TEST_MODULE mma_ops
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "func/float_math.h"
#include "runtime/device.h"
#include "util/error.h"

using namespace simt;

namespace {

uint16_t h(double x) { return func::fm::f16_from(x, ptx::Rnd::Rn); }
double from_h(uint16_t b) { return func::fm::f16_to_f32(b); }
uint16_t bf(double x) { return func::fm::bf16_from(x, ptx::Rnd::Rn); }
uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float f32_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// "{%p1, %p2, ..., %pn}"
std::string regs(const std::string& p, int first, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + p + std::to_string(first + i);
  return s + "}";
}

const char* kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// Loads `ptx`, runs kernel k with `threads` threads on byte buffers (one
// .u64 pointer parameter each) and returns the buffers afterwards.
std::vector<std::vector<uint8_t>> launch(const std::string& ptx, std::vector<std::vector<uint8_t>> bufs,
                                         uint32_t threads = 32) {
  runtime::Device dev;
  runtime::Module& m = dev.load_ptx(ptx, "mma.ptx");
  std::vector<uint64_t> ptrs;
  runtime::KernelArgs args;
  for (auto& b : bufs) {
    ptrs.push_back(dev.upload(b));
    args.push<uint64_t>(ptrs.back());
  }
  dev.launch(m, "k", {{1, 1, 1}}, {{threads, 1, 1}}, args);
  for (size_t i = 0; i < bufs.size(); ++i) bufs[i] = dev.download<uint8_t>(ptrs[i], bufs[i].size());
  return bufs;
}

template <class T>
std::vector<uint8_t> bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <class T>
std::vector<T> as(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

// Test matrices with small exact values (every sum below is exact in f32).
double a_val(uint32_t i, uint32_t k) { return static_cast<double>((i * 3 + k) % 7) - 3; }
double b_val(uint32_t k, uint32_t j) { return (static_cast<double>((k * 5 + j) % 5) - 2) * 0.5; }
double c_val(uint32_t i, uint32_t j) { return static_cast<double>(i) - static_cast<double>(j); }

}  // namespace

// wmma.load a (row) / b (col, default stride) / c, wmma.mma, an elementwise
// add on the accumulator fragment, wmma.store: D + 1 against a CPU GEMM.
BOOST_AUTO_TEST_CASE(wmma_f16_round_trip_matches_a_cpu_gemm) {
  for (const char* shape : {"m16n16k16", "m32n8k16", "m8n32k16"}) {
    const uint32_t M = shape[1] == '1' ? 16 : shape[1] == '3' ? 32 : 8, N = 256 / M, K = 16;
    std::vector<uint16_t> A(M * K), B(K * N);
    std::vector<float> C(M * N);
    for (uint32_t i = 0; i < M; ++i)
      for (uint32_t k = 0; k < K; ++k) A[i * K + k] = h(a_val(i, k));
    for (uint32_t k = 0; k < K; ++k)
      for (uint32_t j = 0; j < N; ++j) B[j * K + k] = h(b_val(k, j));  // column-major
    for (uint32_t i = 0; i < M; ++i)
      for (uint32_t j = 0; j < N; ++j) C[i * N + j] = static_cast<float>(c_val(i, j));
    const std::string s = shape;
    std::string add;
    for (int i = 1; i <= 8; ++i) add += "  add.f32 %d" + std::to_string(i) + ", %d" + std::to_string(i) + ", 0f3F800000;\n";
    const std::string ptx = std::string(kHeader) +
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
        "  .reg .b32 %a<9>;\n  .reg .b32 %b<9>;\n  .reg .f32 %c<9>;\n  .reg .f32 %d<9>;\n  .reg .b64 %rd<5>;\n"
        "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
        "  wmma.load.a.sync.aligned.row." + s + ".global.f16 " + regs("%a", 1, 8) + ", [%rd1], " + std::to_string(K) + ";\n"
        "  wmma.load.b.sync.aligned.col." + s + ".f16 " + regs("%b", 1, 8) + ", [%rd2];\n"
        "  wmma.load.c.sync.aligned.row." + s + ".global.f32 " + regs("%c", 1, 8) + ", [%rd3];\n"
        "  wmma.mma.sync.aligned.row.col." + s + ".f32.f32 " + regs("%d", 1, 8) + ", " + regs("%a", 1, 8) + ", " +
        regs("%b", 1, 8) + ", " + regs("%c", 1, 8) + ";\n" + add +
        "  wmma.store.d.sync.aligned.row." + s + ".global.f32 [%rd4], " + regs("%d", 1, 8) + ", " + std::to_string(N) + ";\n"
        "  ret;\n}\n";
    const auto out = launch(ptx, {bytes(A), bytes(B), bytes(C), std::vector<uint8_t>(M * N * 4)});
    const auto D = as<float>(out[3]);
    for (uint32_t i = 0; i < M; ++i)
      for (uint32_t j = 0; j < N; ++j) {
        double want = c_val(i, j) + 1;
        for (uint32_t k = 0; k < K; ++k) want += a_val(i, k) * b_val(k, j);
        BOOST_TEST(D[i * N + j] == want, shape << " d[" << i << "][" << j << "]");
      }
  }
}

// The other element types, one round trip each: bf16 (f32 accumulators),
// s8/u8 (s32, wrapping or .satfinite), tf32 (m16n16k8) and f64 (m8n8k4).
BOOST_AUTO_TEST_CASE(wmma_bf16_int8_tf32_f64_round_trips) {
  struct Case {
    const char* shape; const char* ab; const char* acc; uint32_t m, n, k; bool sat;
  };
  const Case cases[] = {{"m16n16k16", "bf16", "f32", 16, 16, 16, false}, {"m32n8k16", "s8", "s32", 32, 8, 16, false},
                        {"m8n32k16", "u8", "s32", 8, 32, 16, true},       {"m16n16k8", "tf32", "f32", 16, 16, 8, false},
                        {"m8n8k4", "f64", "f64", 8, 8, 4, false}};
  for (const Case& cs : cases) {
    const std::string ab = cs.ab, acc = cs.acc;
    const uint32_t eb = ab == "bf16" ? 2 : ab == "s8" || ab == "u8" ? 1 : ab == "f64" ? 8 : 4;
    const uint32_t cb = acc == "f64" ? 8 : 4;
    const uint32_t ra = std::max(1u, cs.m * cs.k / 32 * eb / (eb == 8 ? 8 : 4));
    const uint32_t rb = std::max(1u, cs.k * cs.n / 32 * eb / (eb == 8 ? 8 : 4));
    const uint32_t rc = cs.m * cs.n / 32;
    // A, B row-major; values chosen per type.
    auto av = [&](uint32_t i, uint32_t k) -> double {
      if (ab == "u8") return 200 + (i + k) % 50;  // big enough to overflow s32 with a big c
      return a_val(i, k);
    };
    auto bv = [&](uint32_t k, uint32_t j) -> double { return ab == "s8" || ab == "u8" ? (k + j) % 5 : b_val(k, j); };
    auto cv = [&](uint32_t i, uint32_t j) -> double { return ab == "u8" && i == 0 ? 2147483000.0 : c_val(i, j); };
    std::vector<uint8_t> A(cs.m * cs.k * eb), B(cs.k * cs.n * eb), C(cs.m * cs.n * cb);
    auto put = [&](std::vector<uint8_t>& buf, size_t idx, double v, const std::string& t) {
      if (t == "bf16") { const uint16_t x = bf(v); std::memcpy(&buf[idx * 2], &x, 2); }
      else if (t == "s8" || t == "u8") buf[idx] = static_cast<uint8_t>(static_cast<int>(v));
      else if (t == "tf32" || t == "f32") { const uint32_t x = f32_bits(static_cast<float>(v)); std::memcpy(&buf[idx * 4], &x, 4); }
      else if (t == "s32") { const int32_t x = static_cast<int32_t>(v); std::memcpy(&buf[idx * 4], &x, 4); }
      else std::memcpy(&buf[idx * 8], &v, 8);
    };
    for (uint32_t i = 0; i < cs.m; ++i)
      for (uint32_t k = 0; k < cs.k; ++k) put(A, i * cs.k + k, av(i, k), ab);
    for (uint32_t k = 0; k < cs.k; ++k)
      for (uint32_t j = 0; j < cs.n; ++j) put(B, k * cs.n + j, bv(k, j), ab);
    for (uint32_t i = 0; i < cs.m; ++i)
      for (uint32_t j = 0; j < cs.n; ++j) put(C, i * cs.n + j, cv(i, j), acc);
    const std::string rt = eb == 8 ? ".b64" : ".b32", ct = cb == 8 ? ".b64" : ".b32";
    const std::string s = cs.shape;
    const std::string ptx = std::string(kHeader) +
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
        "  .reg " + rt + " %a<9>;\n  .reg " + rt + " %b<9>;\n  .reg " + ct + " %c<9>;\n  .reg " + ct + " %d<9>;\n"
        "  .reg .b64 %rd<5>;\n"
        "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
        "  wmma.load.a.sync.aligned.row." + s + ".global." + ab + " " + regs("%a", 1, static_cast<int>(ra)) + ", [%rd1];\n"
        "  wmma.load.b.sync.aligned.row." + s + ".global." + ab + " " + regs("%b", 1, static_cast<int>(rb)) + ", [%rd2];\n"
        "  wmma.load.c.sync.aligned.row." + s + ".global." + acc + " " + regs("%c", 1, static_cast<int>(rc)) + ", [%rd3];\n"
        "  wmma.mma.sync.aligned.row.row." + s + "." + acc + "." + ab + "." + ab + "." + acc + (cs.sat ? ".satfinite " : " ") +
        regs("%d", 1, static_cast<int>(rc)) + ", " + regs("%a", 1, static_cast<int>(ra)) + ", " +
        regs("%b", 1, static_cast<int>(rb)) + ", " + regs("%c", 1, static_cast<int>(rc)) + ";\n"
        "  wmma.store.d.sync.aligned.col." + s + ".global." + acc + " [%rd4], " + regs("%d", 1, static_cast<int>(rc)) + ";\n"
        "  ret;\n}\n";
    const auto out = launch(ptx, {A, B, C, std::vector<uint8_t>(C.size())});
    for (uint32_t i = 0; i < cs.m; ++i)
      for (uint32_t j = 0; j < cs.n; ++j) {
        const size_t idx = j * cs.m + i;  // stored column-major
        double got;
        if (acc == "f64") std::memcpy(&got, &out[3][idx * 8], 8);
        else if (acc == "s32") { int32_t x; std::memcpy(&x, &out[3][idx * 4], 4); got = x; }
        else { uint32_t x; std::memcpy(&x, &out[3][idx * 4], 4); got = f32_of(x); }
        double want = cv(i, j);
        for (uint32_t k = 0; k < cs.k; ++k) want += av(i, k) * bv(k, j);
        if (acc == "s32" && want > 2147483647.0) want = cs.sat ? 2147483647.0 : want - 4294967296.0;
        BOOST_TEST(got == want, cs.shape << "." << ab << " d[" << i << "][" << j << "]");
      }
  }
}

namespace {

// mma.m16n8k16 fragments per the PTX ISA, written out here independently of
// the model: g = lane / 4, q = lane % 4.
void a_pos(uint32_t lane, uint32_t e, uint32_t& r, uint32_t& c) {
  const uint32_t g = lane >> 2, q = lane & 3;
  r = (e < 2 || (e >= 4 && e < 6)) ? g : g + 8;
  c = q * 2 + (e & 1) + (e >= 4 ? 8 : 0);
}
void b_pos(uint32_t lane, uint32_t e, uint32_t& r, uint32_t& c) {
  const uint32_t g = lane >> 2, q = lane & 3;
  r = q * 2 + (e & 1) + (e >= 2 ? 8 : 0);
  c = g;
}
void c_pos(uint32_t lane, uint32_t e, uint32_t& r, uint32_t& c) {
  const uint32_t g = lane >> 2, q = lane & 3;
  r = e < 2 ? g : g + 8;
  c = q * 2 + (e & 1);
}

// d of an m16n8kK mma in the c/d layout against C + A*B (exact: every
// product and sum fits f32).
void check_16x8_d(const std::vector<float>& d, uint32_t K, const char* what) {
  for (uint32_t l = 0; l < 32; ++l)
    for (uint32_t e = 0; e < 4; ++e) {
      uint32_t i, j;
      c_pos(l, e, i, j);
      double want = c_val(i, j);
      for (uint32_t k = 0; k < K; ++k) want += a_val(i, k) * b_val(k, j);
      BOOST_TEST(d[l * 4 + e] == want, what << " lane " << l << " d" << e);
    }
}

// Each thread loads its own registers (a: 4, b: 2, c: `cregs`) from
// per-thread arrays, runs `mma`, and stores d's registers.
std::string mma_kernel(const std::string& mma, int cregs) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
         "  .reg .b32 %a<5>;\n  .reg .b32 %b<3>;\n  .reg .b32 %c<5>;\n  .reg .b32 %d<5>;\n  .reg .b32 %t;\n"
         "  .reg .b64 %rd<9>;\n"
         "  mov.u32 %t, %tid.x;\n  mul.wide.u32 %rd5, %t, 16;\n  mul.wide.u32 %rd6, %t, 8;\n"
         "  mul.wide.u32 %rd7, %t, " + std::to_string(cregs * 4) + ";\n"
         "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
         "  add.u64 %rd1, %rd1, %rd5;\n  add.u64 %rd2, %rd2, %rd6;\n  add.u64 %rd3, %rd3, %rd7;\n  add.u64 %rd4, %rd4, %rd7;\n"
         "  ld.global.v4.b32 {%a1, %a2, %a3, %a4}, [%rd1];\n  ld.global.v2.b32 {%b1, %b2}, [%rd2];\n" +
         (cregs == 4 ? "  ld.global.v4.b32 {%c1, %c2, %c3, %c4}, [%rd3];\n" : "  ld.global.v2.b32 {%c1, %c2}, [%rd3];\n") +
         "  " + mma + " " + regs("%d", 1, cregs) + ", {%a1, %a2, %a3, %a4}, {%b1, %b2}, " + regs("%c", 1, cregs) + ";\n" +
         (cregs == 4 ? "  st.global.v4.b32 [%rd4], {%d1, %d2, %d3, %d4};\n" : "  st.global.v2.b32 [%rd4], {%d1, %d2};\n") +
         "  ret;\n}\n";
}

}  // namespace

BOOST_AUTO_TEST_CASE(mma_m16n8k16_uses_the_documented_fragment_layout) {
  // Fragments built on the host from the ISA's formulas.
  std::vector<uint16_t> af(32 * 8), bfr(32 * 4);
  std::vector<float> cf(32 * 4);
  for (uint32_t l = 0; l < 32; ++l) {
    uint32_t r, c;
    for (uint32_t e = 0; e < 8; ++e) { a_pos(l, e, r, c); af[l * 8 + e] = h(a_val(r, c)); }
    for (uint32_t e = 0; e < 4; ++e) { b_pos(l, e, r, c); bfr[l * 4 + e] = h(b_val(r, c)); }
    for (uint32_t e = 0; e < 4; ++e) { c_pos(l, e, r, c); cf[l * 4 + e] = static_cast<float>(c_val(r, c)); }
  }
  const auto out = launch(mma_kernel("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4),
                          {bytes(af), bytes(bfr), bytes(cf), std::vector<uint8_t>(32 * 16)});
  check_16x8_d(as<float>(out[3]), 16, "f16");
}

// An f16 accumulator is computed in f32 and rounded to f16 once: c = 2048
// plus two products of 1 gives 2050 (f16 steps by 2 there; rounding after
// each add would stay at 2048), and plus three gives 2051, a tie that
// rounds to the even 2052.
BOOST_AUTO_TEST_CASE(mma_f16_accumulator_rounds_once_to_nearest_even) {
  for (int ones : {2, 3}) {
    std::vector<uint16_t> af(32 * 8, h(0)), bfr(32 * 4, h(0)), cf(32 * 4, h(2048));
    // A row 0 has `ones` ones (columns 0..ones-1), B is all ones in column 0.
    for (uint32_t l = 0; l < 32; ++l) {
      uint32_t r, c;
      for (uint32_t e = 0; e < 8; ++e) {
        a_pos(l, e, r, c);
        if (r == 0 && c < static_cast<uint32_t>(ones)) af[l * 8 + e] = h(1);
      }
      for (uint32_t e = 0; e < 4; ++e) {
        b_pos(l, e, r, c);
        if (c == 0) bfr[l * 4 + e] = h(1);
      }
    }
    const auto out = launch(mma_kernel("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 2),
                            {bytes(af), bytes(bfr), bytes(cf), std::vector<uint8_t>(32 * 8)});
    const auto d = as<uint16_t>(out[3]);
    // Lane 0, element 0 is d[0][0].
    BOOST_TEST(from_h(d[0]) == (ones == 2 ? 2050.0 : 2052.0));
    BOOST_TEST(from_h(d[1]) == 2048.0);  // d[0][1]: c only
  }
}

BOOST_AUTO_TEST_CASE(mma_m16n8k8_bf16) {
  // m16n8k8: a is 2 registers (a0..a3: rows g, g+8; cols 2q, 2q+1), b one (rows 2q, 2q+1).
  std::vector<uint16_t> af(32 * 8, 0), bfr(32 * 8, 0);  // 16 bytes per lane, partly used
  std::vector<float> cf(32 * 4);
  for (uint32_t l = 0; l < 32; ++l) {
    const uint32_t g = l >> 2, q = l & 3;
    for (uint32_t e = 0; e < 4; ++e) af[l * 8 + e] = bf(a_val(e < 2 ? g : g + 8, 2 * q + (e & 1)));
    for (uint32_t e = 0; e < 2; ++e) bfr[l * 8 + e] = bf(b_val(2 * q + e, g));
    uint32_t r, c;
    for (uint32_t e = 0; e < 4; ++e) { c_pos(l, e, r, c); cf[l * 4 + e] = static_cast<float>(c_val(r, c)); }
  }
  const std::string ptx = std::string(kHeader) +
      ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
      "  .reg .b32 %a<5>;\n  .reg .b32 %b<3>;\n  .reg .f32 %c<5>;\n  .reg .b32 %t;\n  .reg .b64 %rd<9>;\n"
      "  mov.u32 %t, %tid.x;\n  mul.wide.u32 %rd5, %t, 16;\n"
      "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
      "  add.u64 %rd1, %rd1, %rd5;\n  add.u64 %rd2, %rd2, %rd5;\n  add.u64 %rd3, %rd3, %rd5;\n  add.u64 %rd4, %rd4, %rd5;\n"
      "  ld.global.v2.b32 {%a1, %a2}, [%rd1];\n  ld.global.b32 %b1, [%rd2];\n"
      "  ld.global.v4.f32 {%c1, %c2, %c3, %c4}, [%rd3];\n"
      "  mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%c1, %c2, %c3, %c4}, {%a1, %a2}, {%b1}, {%c1, %c2, %c3, %c4};\n"
      "  st.global.v4.f32 [%rd4], {%c1, %c2, %c3, %c4};\n  ret;\n}\n";
  const auto out = launch(ptx, {bytes(af), bytes(bfr), bytes(cf), std::vector<uint8_t>(32 * 16)});
  check_16x8_d(as<float>(out[3]), 8, "bf16");
}

// ldmatrix: lanes 8j..8j+7 point at the rows of matrix j (here in reverse
// order in shared memory); lane l gets elements (l/4, 2(l%4)) and
// (l/4, 2(l%4)+1) of each matrix, or with .trans (2(l%4), l/4) and (2(l%4)+1, l/4).
BOOST_AUTO_TEST_CASE(ldmatrix_x4_and_x2_trans) {
  std::vector<uint16_t> src(256);
  for (uint32_t i = 0; i < 256; ++i) src[i] = static_cast<uint16_t>(0x1000 + i);  // matrix i/64, row i/8%8, col i%8
  for (const bool trans : {false, true}) {
    const int num = trans ? 2 : 4;
    const std::string ptx = std::string(kHeader) +
        ".visible .entry k(.param .u64 psrc, .param .u64 pout)\n{\n"
        "  .shared .align 16 .b8 sm[512];\n"
        "  .reg .b32 %r<12>;\n  .reg .b64 %rd<6>;\n"
        "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [psrc];\n  ld.param.u64 %rd2, [pout];\n"
        // copy 16 bytes per thread into shared memory
        "  mul.wide.u32 %rd3, %r1, 16;\n  add.u64 %rd4, %rd1, %rd3;\n  ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
        "  mov.u32 %r6, sm;\n  shl.b32 %r7, %r1, 4;\n  add.u32 %r8, %r6, %r7;\n  st.shared.v4.b32 [%r8], {%r2, %r3, %r4, %r5};\n"
        "  bar.sync 0;\n"
        // row address of lane l: matrix l/8, row 7 - l%8 of the stored rows (reversed)
        "  and.b32 %r9, %r1, 24;\n  and.b32 %r10, %r1, 7;\n  sub.u32 %r10, 7, %r10;\n  add.u32 %r9, %r9, %r10;\n"
        "  shl.b32 %r9, %r9, 4;\n  add.u32 %r9, %r6, %r9;\n"
        "  ldmatrix.sync.aligned.m8n8.x" + std::to_string(num) + (trans ? ".trans" : "") + ".shared.b16 " +
        regs("%r", 2, num) + ", [%r9];\n"
        "  mul.wide.u32 %rd3, %r1, 16;\n  add.u64 %rd5, %rd2, %rd3;\n" +
        (num == 4 ? "  st.global.v4.b32 [%rd5], {%r2, %r3, %r4, %r5};\n" : "  st.global.v2.b32 [%rd5], {%r2, %r3};\n") +
        "  ret;\n}\n";
    const auto out = launch(ptx, {bytes(src), std::vector<uint8_t>(32 * 16)});
    const auto got = as<uint32_t>(out[1]);
    // Stored element (j, r, c) sits at src[j*64 + r*8 + c]; matrix row r is stored row 7 - r.
    auto elem = [&](uint32_t j, uint32_t r, uint32_t c) -> uint32_t { return src[j * 64 + (7 - r) * 8 + c]; };
    for (uint32_t l = 0; l < 32; ++l)
      for (int j = 0; j < num; ++j) {
        const uint32_t g = l / 4, q = l % 4;
        const uint32_t lo = trans ? elem(j, 2 * q, g) : elem(j, g, 2 * q);
        const uint32_t hi = trans ? elem(j, 2 * q + 1, g) : elem(j, g, 2 * q + 1);
        BOOST_TEST(got[l * 4 + j] == (lo | hi << 16), "trans " << trans << " lane " << l << " reg " << j);
      }
  }
}

namespace {

std::string partial_kernel(const std::string& guard) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 pa)\n{\n"
         "  .reg .b32 %a<9>;\n  .reg .pred %p;\n  .reg .b32 %t;\n  .reg .b64 %rd1;\n"
         "  ld.param.u64 %rd1, [pa];\n  mov.u32 %t, %tid.x;\n  setp.lt.u32 %p, %t, 16;\n"
         "  " + guard + "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 " + regs("%a", 1, 8) + ", [%rd1];\n"
         "  ret;\n}\n";
}

void expect_fault(const std::string& ptx, uint32_t threads) {
  try {
    launch(ptx, {std::vector<uint8_t>(512)}, threads);
    BOOST_ERROR("a partial warp ran a warp matrix instruction");
  } catch (const Error& e) {
    BOOST_TEST((e.code() == ExitCode::KernelFault), e.what());
    BOOST_TEST(std::string(e.what()).find("needs all 32 threads of the warp") != std::string::npos, e.what());
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(partial_warps_are_refused) {
  expect_fault(partial_kernel("@%p "), 32);  // half the warp predicated off
  expect_fault(partial_kernel(""), 16);      // a 16-thread CTA: the warp is not full
  launch(partial_kernel(""), {std::vector<uint8_t>(512)}, 64);  // two whole warps are fine
}

BOOST_AUTO_TEST_CASE(unsupported_forms_are_refused_at_load) {
  const std::string body = "  .reg .b32 %r<33>;\n  .reg .b64 %rd1;\n";
  const char* bad[] = {
      // 3 a registers for m16n8k16
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7}, {%r8, %r9}, {%r1, %r2, %r3, %r4};",
      // mma is .row.col only
      "mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4};",
      // bf16 with f16 accumulators
      "mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f16 {%r1, %r2}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2};",
      // ldmatrix without .x1/.x2/.x4
      "ldmatrix.sync.aligned.m8n8.shared.b16 {%r1}, [%rd1];",
      // .satfinite on floating point
      "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, "
      "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, "
      "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};",
      // a shape wmma does not have
      "wmma.load.a.sync.aligned.row.m16n8k16.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];",
  };
  for (const char* instr : bad) {
    const std::string ptx = std::string(kHeader) + ".visible .entry k()\n{\n" + body + "  " + instr + "\n  ret;\n}\n";
    try {
      runtime::Device dev;
      dev.load_ptx(ptx, "bad.ptx");
      BOOST_ERROR("accepted: " << instr);
    } catch (const Error& e) {
      BOOST_TEST((e.code() == ExitCode::BadInput), instr << ": " << e.what());
    }
  }
}

namespace {

// Each thread loads `na`, `nb`, `nc` registers (32-bit, or 64-bit when
// `wide`) from 16-byte per-lane slots of pa, pb, pc, runs `mma` and stores
// d's `nc` registers to its slot of pd.
std::string slot_kernel(const std::string& mma, int na, int nb, int nc, bool wide) {
  const std::string t = wide ? ".b64" : ".b32";
  const int w = wide ? 8 : 4;
  std::string s = std::string(kHeader) +
                  ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
                  "  .reg " + t + " %a<5>;\n  .reg " + t + " %b<3>;\n  .reg " + t + " %c<5>;\n  .reg " + t + " %d<5>;\n"
                  "  .reg .b32 %t;\n  .reg .b64 %rd<6>;\n"
                  "  mov.u32 %t, %tid.x;\n  mul.wide.u32 %rd5, %t, 16;\n"
                  "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
                  "  add.u64 %rd1, %rd1, %rd5;\n  add.u64 %rd2, %rd2, %rd5;\n  add.u64 %rd3, %rd3, %rd5;\n  add.u64 %rd4, %rd4, %rd5;\n";
  auto loads = [&](const char* p, const char* base, int n) {
    for (int i = 0; i < n; ++i)
      s += "  ld.global" + t + " %" + p + std::to_string(i + 1) + ", [" + base + "+" + std::to_string(i * w) + "];\n";
  };
  loads("a", "%rd1", na);
  loads("b", "%rd2", nb);
  loads("c", "%rd3", nc);
  s += "  " + mma + " " + regs("%d", 1, nc) + ", " + regs("%a", 1, na) + ", " + regs("%b", 1, nb) + ", " +
       regs("%c", 1, nc) + ";\n";
  for (int i = 0; i < nc; ++i)
    s += "  st.global" + t + " [%rd4+" + std::to_string(i * w) + "], %d" + std::to_string(i + 1) + ";\n";
  return s + "  ret;\n}\n";
}

}  // namespace

// mma.m16n8k8 .tf32 and mma.m8n8k4 .f64 with the ISA's layouts, written out
// here: tf32 a (g + 8(e%2), q + 4(e/2)), b (q + 4e, g); f64 a (g, q),
// b (q, g), c (g, 2q + e).
BOOST_AUTO_TEST_CASE(mma_tf32_and_f64_layouts) {
  {  // tf32: elements are f32 registers; the low 13 mantissa bits are ignored
    std::vector<uint32_t> af(32 * 4), bfr(32 * 4, 0);
    std::vector<float> cf(32 * 4);
    for (uint32_t l = 0; l < 32; ++l) {
      const uint32_t g = l / 4, q = l % 4;
      for (uint32_t e = 0; e < 4; ++e) af[l * 4 + e] = f32_bits(static_cast<float>(a_val(g + 8 * (e % 2), q + 4 * (e / 2)))) | 0x1fffu;
      for (uint32_t e = 0; e < 2; ++e) bfr[l * 4 + e] = f32_bits(static_cast<float>(b_val(q + 4 * e, g)));
      uint32_t r, c;
      for (uint32_t e = 0; e < 4; ++e) { c_pos(l, e, r, c); cf[l * 4 + e] = static_cast<float>(c_val(r, c)); }
    }
    const auto out = launch(slot_kernel("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 4, 2, 4, false),
                            {bytes(af), bytes(bfr), bytes(cf), std::vector<uint8_t>(32 * 16)});
    check_16x8_d(as<float>(out[3]), 8, "tf32");
  }
  {  // f64
    std::vector<double> af(32 * 2, 0), bfr(32 * 2, 0), cf(32 * 2);
    for (uint32_t l = 0; l < 32; ++l) {
      const uint32_t g = l / 4, q = l % 4;
      af[l * 2] = a_val(g, q) + 0.125;
      bfr[l * 2] = b_val(q, g);
      for (uint32_t e = 0; e < 2; ++e) cf[l * 2 + e] = c_val(g, 2 * q + e);
    }
    const auto out = launch(slot_kernel("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 1, 1, 2, true),
                            {bytes(af), bytes(bfr), bytes(cf), std::vector<uint8_t>(32 * 16)});
    const auto d = as<double>(out[3]);
    for (uint32_t l = 0; l < 32; ++l)
      for (uint32_t e = 0; e < 2; ++e) {
        const uint32_t i = l / 4, j = 2 * (l % 4) + e;
        double want = c_val(i, j);
        for (uint32_t k = 0; k < 4; ++k) want += (a_val(i, k) + 0.125) * b_val(k, j);
        BOOST_TEST(d[l * 2 + e] == want, "f64 lane " << l << " d" << e);
      }
  }
}

// wmma through shared memory with a stride register wider than the matrix
// (a 16x16 tile inside a 16x24 row-major array), and s8 sums that wrap.
BOOST_AUTO_TEST_CASE(wmma_shared_with_a_stride_and_int8_wrap) {
  std::vector<int8_t> A(16 * 24), B(16 * 16);
  std::vector<int32_t> C(16 * 16, 0x7fffff00);
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t k = 0; k < 24; ++k) A[i * 24 + k] = static_cast<int8_t>(k < 16 ? 100 + i : -1);
  for (uint32_t k = 0; k < 16; ++k)
    for (uint32_t j = 0; j < 16; ++j) B[k * 16 + j] = static_cast<int8_t>(j + 1);
  const std::string ptx = std::string(kHeader) +
      ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
      "  .shared .align 16 .b8 sa[384];\n"
      "  .reg .b32 %a<3>;\n  .reg .b32 %b<3>;\n  .reg .b32 %c<9>;\n  .reg .b32 %r<12>;\n  .reg .b64 %rd<8>;\n"
      "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
      // 32 threads copy 384 bytes: 12 each, as three words
      "  mov.u32 %r1, %tid.x;\n  mul.lo.u32 %r2, %r1, 12;\n  cvt.u64.u32 %rd5, %r2;\n  add.u64 %rd6, %rd1, %rd5;\n"
      "  ld.global.b32 %r3, [%rd6];\n  ld.global.b32 %r4, [%rd6+4];\n  ld.global.b32 %r5, [%rd6+8];\n"
      "  mov.u32 %r6, sa;\n  add.u32 %r7, %r6, %r2;\n"
      "  st.shared.b32 [%r7], %r3;\n  st.shared.b32 [%r7+4], %r4;\n  st.shared.b32 [%r7+8], %r5;\n  bar.sync 0;\n"
      "  mov.u32 %r8, 24;\n"
      "  wmma.load.a.sync.aligned.row.m16n16k16.shared.s8 {%a1, %a2}, [%r6], %r8;\n"
      "  wmma.load.b.sync.aligned.row.m16n16k16.s8 {%b1, %b2}, [%rd2];\n"
      "  wmma.load.c.sync.aligned.row.m16n16k16.s32 " + regs("%c", 1, 8) + ", [%rd3];\n"
      "  wmma.mma.sync.aligned.row.row.m16n16k16.s32.s8.s8.s32 " + regs("%c", 1, 8) + ", {%a1, %a2}, {%b1, %b2}, " +
      regs("%c", 1, 8) + ";\n"
      "  wmma.store.d.sync.aligned.row.m16n16k16.s32 [%rd4], " + regs("%c", 1, 8) + ";\n"
      "  ret;\n}\n";
  const auto out = launch(ptx, {bytes(A), bytes(B), bytes(C), std::vector<uint8_t>(16 * 16 * 4)});
  const auto D = as<int32_t>(out[3]);
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t j = 0; j < 16; ++j) {
      const int64_t sum = int64_t{0x7fffff00} + int64_t{16} * (100 + i) * (j + 1);
      BOOST_TEST(D[i * 16 + j] == static_cast<int32_t>(static_cast<uint32_t>(sum)), "d[" << i << "][" << j << "]");
    }
}
