# CUDA test programs (tests/cuda/*.cu, docs/cuda-apps.md "Tests"): built
# with nvcc into ${CMAKE_BINARY_DIR}/cuda/ when nvcc is there, and run on
# simtlab by tests/cuda/test_cuda_programs.cpp (label "cuda"). simtlab
# itself never needs CUDA: without nvcc every test says
# "SKIP: nvcc not found ..." and CTest reports it skipped.
set(SIMT_CUDA_ROOT /usr/local/cuda CACHE PATH "CUDA toolkit whose nvcc builds the CUDA test programs")
set(simt_nvcc ${SIMT_CUDA_ROOT}/bin/nvcc)
set(simt_cuda_dir ${CMAKE_BINARY_DIR}/cuda)
set(simt_cuda_src ${CMAKE_SOURCE_DIR}/tests/cuda)
set(simt_cuda_driver ${simt_cuda_src}/test_cuda_programs.cpp)

# One program: NAME SOURCES... [FLAGS flags...]. Every program uses the
# shared runtime (libcudart.so.13, which simtlab replaces) unless its flags
# say otherwise; sm_75 PTX is what simtlab loads.
set(simt_cuda_outputs "")
function(simt_cuda_program name)
  cmake_parse_arguments(P "" "" "SOURCES;FLAGS" ${ARGN})
  set(srcs "")
  foreach(s ${P_SOURCES})
    list(APPEND srcs ${simt_cuda_src}/${s})
  endforeach()
  set(arch -arch=sm_75)  # SASS and PTX; a program with its own -gencode says what it embeds
  if("-gencode" IN_LIST P_FLAGS)
    set(arch "")
  endif()
  add_custom_command(OUTPUT ${simt_cuda_dir}/${name}
                     COMMAND ${simt_nvcc} -O2 ${arch} ${P_FLAGS} -o ${simt_cuda_dir}/${name} ${srcs}
                     DEPENDS ${srcs} ${simt_cuda_src}/check.cuh
                     COMMENT "nvcc: CUDA test program ${name}" VERBATIM)
  set(simt_cuda_outputs ${simt_cuda_outputs} ${simt_cuda_dir}/${name} PARENT_SCOPE)
endfunction()

# A sanitizer build skips them all (tests/cuda/test_cuda_programs.cpp says
# why), so it does not build them either.
if(EXISTS ${simt_nvcc} AND NOT SIMT_SANITIZE)
  set(simt_nvcc_found 1)
  file(MAKE_DIRECTORY ${simt_cuda_dir})
  set(shared -cudart shared)
  foreach(p device managed streams texture launch errors fault misaligned trap assert launches launch_cost
            runaway unsupported)
    simt_cuda_program(${p} SOURCES ${p}.cu FLAGS ${shared})
  endforeach()
  # The fatbin's PTX three ways: nvcc 13's default compression, none, and
  # the other codec (--compress-mode=speed).
  simt_cuda_program(memory SOURCES memory.cu FLAGS ${shared})
  simt_cuda_program(memory_uncompressed SOURCES memory.cu FLAGS ${shared} -no-compress)
  simt_cuda_program(memory_speed SOURCES memory.cu FLAGS ${shared} --compress-mode=speed)
  simt_cuda_program(rdc SOURCES rdc_a.cu rdc_b.cu FLAGS ${shared} -rdc=true)
  simt_cuda_program(two_units SOURCES two_units_a.cu two_units_b.cu FLAGS ${shared})
  # SASS only, no PTX: the launch must name the -gencode option that adds PTX.
  simt_cuda_program(sass_only SOURCES launches.cu FLAGS ${shared} -gencode arch=compute_75,code=sm_75)
  # nvcc's default static runtime: `simtlab exec` must refuse it.
  simt_cuda_program(launches_static SOURCES launches.cu)
  add_custom_target(cuda_programs ALL DEPENDS ${simt_cuda_outputs})
elseif(SIMT_SANITIZE)
  set(simt_nvcc_found 0)
else()
  set(simt_nvcc_found 0)
  message(STATUS "nvcc not found at ${simt_nvcc}: the CUDA program tests (label cuda) will be skipped")
endif()

# The tests section below makes the Boost.Test executable test_cuda_programs
# and the test cuda.test_cuda_programs from tests/cuda/test_cuda_programs.cpp;
# once it has run, this adds what they need, and one test per test case
# (cuda.<case>). cuda.test_cuda_programs itself runs only the case
# "programs_built" (every program above exists).
function(simt_cuda_tests)
  if(NOT TARGET test_cuda_programs)
    return()
  endif()
  target_compile_definitions(test_cuda_programs PRIVATE
                             SIMT_NVCC="${simt_nvcc}" SIMT_NVCC_FOUND=${simt_nvcc_found}
                             SIMT_CUDA_PROGRAM_DIR="${simt_cuda_dir}"
                             SIMT_SIMTLAB_BIN="$<TARGET_FILE:simtlab>"
                             SIMT_CUDART_DIR="${CMAKE_BINARY_DIR}/lib/simtlab"
                             SIMT_CUDA_SANITIZE=$<BOOL:${SIMT_SANITIZE}>)
  add_dependencies(test_cuda_programs simtlab cudart)  # cudart: the runtime library the programs load
  if(TARGET cuda_programs)
    add_dependencies(test_cuda_programs cuda_programs)
  endif()
  set(env SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 ${simt_sanitize_env})
  set_tests_properties(cuda.test_cuda_programs PROPERTIES
                       ENVIRONMENT "${env};BOOST_TEST_RUN_FILTERS=programs_built"
                       SKIP_REGULAR_EXPRESSION "SKIP: ")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${simt_cuda_driver})
  file(STRINGS ${simt_cuda_driver} case_lines REGEX "^BOOST_AUTO_TEST_CASE\\(")
  foreach(line ${case_lines})
    string(REGEX REPLACE "^BOOST_AUTO_TEST_CASE\\(([A-Za-z0-9_]+).*" "\\1" c "${line}")
    if(c STREQUAL "programs_built")
      continue()
    endif()
    add_test(NAME cuda.${c} COMMAND test_cuda_programs --run_test=${c})
    set_tests_properties(cuda.${c} PROPERTIES LABELS cuda TIMEOUT 300 ENVIRONMENT "${env}"
                         SKIP_REGULAR_EXPRESSION "SKIP: ")
  endforeach()
endfunction()
cmake_language(DEFER CALL simt_cuda_tests)
