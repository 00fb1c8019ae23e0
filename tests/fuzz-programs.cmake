# Random-program differential testing (docs/fuzzing.md): a fixed-seed batch of generated
# programs, each run on a limited-area and a global grid under none, fuse-all, every pass
# alone, k-blocking and random pass sequences, on the interpreter, on compiled C++ (flat,
# blocked layout with nproma 7, columns layout; fuse-all with every stencil's gathers split off
# into scalar loops) and on the emitted CUDA run on the host with its threads shuffled,
# against the interpreter on the unoptimised program. The same seed always generates the
# same files. About 7 minutes on 2 cores alone, 15 beside the rest of ctest in a
# clean-clone CI run (one fusec-bench at a time: ctest runs other tests beside it); the timeout
# leaves room for a slower machine, since each fusec-bench run has its own limit (600 s) against
# hangs. A failure is reported
# with its program and pipeline; `scripts/fuzz-programs.sh --seed 2 --count 30 --reduce`
# reduces it to a regression test under tests/e2e/fuzz-regressions.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set(FUSEC_FUZZ_PYTHON ${Python3_EXECUTABLE})
else()
  set(FUSEC_FUZZ_PYTHON python3)
endif()

add_test(NAME fuzz-programs-fixed-seed
  COMMAND ${FUSEC_FUZZ_PYTHON} -m fusec_fuzz --seed 2 --count 30 --jobs 1
          --bin ${CMAKE_BINARY_DIR}/bin --include ${PROJECT_SOURCE_DIR}/stencils)
# COST: ctest -j starts it first, beside lit-e2e (tests/CMakeLists.txt).
set_tests_properties(fuzz-programs-fixed-seed PROPERTIES
  ENVIRONMENT "PYTHONPATH=${PROJECT_SOURCE_DIR}/tools/fusec-fuzz"
  TIMEOUT 1800
  COST 900)
