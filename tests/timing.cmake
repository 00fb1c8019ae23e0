# Timing tests (tests/timing, docs/bench.md): ratios of medians measured in one fusec-bench run.
# Under ctest they are UNSUPPORTED unless lit gets `--param timing=on`, which
# scripts/run-benchmarks.sh passes (set FUSEC_TIMING=on to run them here too).
set(FUSEC_TIMING "off" CACHE STRING "Run the timing tests under ctest (on/off)")
add_test(NAME lit-timing
  COMMAND ${LIT_EXECUTABLE} -sv -j 1 --param site_config=${CMAKE_CURRENT_BINARY_DIR}/lit.site.cfg.py
          --param timing=${FUSEC_TIMING} ${CMAKE_CURRENT_SOURCE_DIR}/timing)
