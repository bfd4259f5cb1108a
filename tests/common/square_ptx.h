// A PTX module for testbenches of the host and platform side: two kernels
// over an array of `n` u32 at `data`, one thread per element.
//   square(data, n): data[i] = data[i] * data[i]
//   add_one(data, n): data[i] = data[i] + 1
#pragma once

#include <string>

namespace simt::test {

inline std::string square_ptx() {
  auto kernel = [](const std::string& name, const std::string& op) {
    return ".visible .entry " + name + R"((.param .u64 data, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [data];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r6, [%rd3];
  )" + op + R"(
  st.global.u32 [%rd3], %r7;
DONE:
  ret;
}
)";
  };
  return ".version 8.0\n.target sm_75\n.address_size 64\n" + kernel("square", "mul.lo.u32 %r7, %r6, %r6;") +
         kernel("add_one", "add.u32 %r7, %r6, 1;");
}

}  // namespace simt::test
