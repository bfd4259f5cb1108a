# ---- tests of the CUDA runtime library and against NVIDIA's CUDA --------------
# simtlab never needs CUDA to build; these tests use it where it is installed.
# Where it is not (or is another major version than the ABI we declare), each
# test prints "SKIP: <why>" and CTest reports it skipped.
set(SIMT_CUDA_ROOT /usr/local/cuda CACHE PATH "CUDA installation the label-\"cuda\" tests use")

set(simt_cuda_skip "")
set(simt_cuda_api ${SIMT_CUDA_ROOT}/include/cuda_runtime_api.h)
if(NOT EXISTS ${simt_cuda_api})
  set(simt_cuda_skip "CUDA headers not found at ${SIMT_CUDA_ROOT}/include (set SIMT_CUDA_ROOT)")
else()
  file(STRINGS ${simt_cuda_api} simt_cudart_version REGEX "^#define[ \t]+CUDART_VERSION[ \t]+[0-9]+")
  string(REGEX MATCH "[0-9]+$" simt_cudart_version "${simt_cudart_version}")
  math(EXPR simt_cuda_major "${simt_cudart_version} / 1000")
  if(NOT simt_cuda_major EQUAL 13)
    string(CONCAT simt_cuda_skip "CUDA headers at ${SIMT_CUDA_ROOT}/include are version "
                  "${simt_cudart_version}; cudart/cuda_abi.h declares CUDA 13's ABI")
  endif()
endif()

# tests/cuda/abi_layout.cpp: cudart/cuda_abi.h against CUDA's headers. The
# lists of constants to compare are made here from both headers, so that a
# constant added to either side is checked without editing the test.
if(simt_cuda_skip STREQUAL "")
  set(simt_abi_gen ${CMAKE_BINARY_DIR}/generated/abi_layout)
  set(simt_abi_header ${CMAKE_SOURCE_DIR}/cudart/cuda_abi.h ${CMAKE_SOURCE_DIR}/cudart/cuda_abi_codes.h)
  set(simt_cuda_driver_types ${SIMT_CUDA_ROOT}/include/driver_types.h)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${simt_abi_header} ${simt_cuda_driver_types})
  # Ours: every enumerator ("  cudaX = v," or "  cudaX,") and every typed
  # constant ("inline constexpr T cudaX = v;"); the latter are macros in CUDA.
  set(simt_abi_enum_lines "")
  set(simt_abi_const_lines "")
  foreach(h ${simt_abi_header})
    file(STRINGS ${h} enum_lines REGEX "^  cuda[A-Za-z0-9_]+( = [^,]+)?,?$")
    file(STRINGS ${h} const_lines REGEX "^inline constexpr [a-z ]+ [A-Za-z0-9_]+ = ")
    if(enum_lines)
      list(APPEND simt_abi_enum_lines "${enum_lines}")
    endif()
    if(const_lines)
      list(APPEND simt_abi_const_lines "${const_lines}")
    endif()
  endforeach()
  # CUDA's: every error code and device attribute (the two enums that grow).
  file(STRINGS ${simt_cuda_driver_types} simt_cuda_enum_lines
       REGEX "^[ \t]*,?[ \t]*cuda(Success|Error[A-Za-z0-9_]*|DevAttr[A-Za-z0-9_]*)[ \t]*=")
  set(simt_abi_values "")
  foreach(line IN LISTS simt_abi_enum_lines simt_cuda_enum_lines)
    string(REGEX MATCH "cuda[A-Za-z0-9_]+" name "${line}")
    list(APPEND simt_abi_values ${name})
  endforeach()
  list(REMOVE_DUPLICATES simt_abi_values)
  set(simt_abi_capture "")
  set(simt_abi_checks "")
  foreach(name IN LISTS simt_abi_values)
    string(APPEND simt_abi_checks "SAME_VALUE(${name});\n")
  endforeach()
  foreach(line IN LISTS simt_abi_const_lines)
    string(REGEX REPLACE "^inline constexpr [a-z ]+ ([A-Za-z0-9_]+) = .*" "\\1" name "${line}")
    string(APPEND simt_abi_capture "CAPTURE_MACRO(${name})\n#undef ${name}\n")
    string(APPEND simt_abi_checks "SAME_MACRO(${name});\n")
  endforeach()
  list(LENGTH simt_abi_values simt_abi_nvalues)
  list(LENGTH simt_abi_const_lines simt_abi_nconsts)
  if(simt_abi_nvalues LESS 400 OR simt_abi_nconsts LESS 60)
    message(FATAL_ERROR "cmake/cuda_tests.cmake: found only ${simt_abi_nvalues} enumerators and "
                        "${simt_abi_nconsts} constants in ${simt_abi_header}: has its layout changed?")
  endif()
  file(WRITE ${simt_abi_gen}/abi_macro_capture.inc.tmp "${simt_abi_capture}")
  file(WRITE ${simt_abi_gen}/abi_values.inc.tmp "${simt_abi_checks}")
  configure_file(${simt_abi_gen}/abi_macro_capture.inc.tmp ${simt_abi_gen}/abi_macro_capture.inc COPYONLY)
  configure_file(${simt_abi_gen}/abi_values.inc.tmp ${simt_abi_gen}/abi_values.inc COPYONLY)

  # sc_main_stub: a sanitizer build links SystemC (and so its sc_main) into every program.
  add_executable(cuda_abi_layout ${CMAKE_SOURCE_DIR}/tests/cuda/abi_layout.cpp ${CMAKE_SOURCE_DIR}/tests/common/sc_main_stub.cpp)
  target_include_directories(cuda_abi_layout PRIVATE ${CMAKE_SOURCE_DIR} ${simt_abi_gen})
  target_include_directories(cuda_abi_layout SYSTEM PRIVATE ${SIMT_CUDA_ROOT}/include)
  add_test(NAME cuda.abi_layout COMMAND cuda_abi_layout)
else()
  add_test(NAME cuda.abi_layout COMMAND ${CMAKE_COMMAND} -E echo "SKIP: ${simt_cuda_skip}")
endif()
set_tests_properties(cuda.abi_layout PROPERTIES LABELS cuda SKIP_REGULAR_EXPRESSION "SKIP: ")

# tests/cudart/test_exports.cpp loads the built libcudart.so.13 (no CUDA needed).
if(TARGET test_exports AND TARGET cudart)
  add_dependencies(test_exports cudart)
endif()
