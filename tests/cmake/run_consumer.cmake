# cmake -DSOURCE_DIR=<consumer> -DBINARY_DIR=<build> -DPREFIX=<installed FuseC>
#       -DGENERATOR=<generator> -DINPUTS=<file;...> [-DDATA_DIR=<dir>] [-DBACKEND=cpp|cuda]
#       [-DCHECK_REGENERATION=ON] -P run_consumer.cmake
#
# Builds a consumer project of the installed FuseC package as ICON's build would and runs its
# tests: copies INPUTS (diffusion.stn and what it imports, a configuration) to <build>/inputs,
# configures against PREFIX, builds, and runs the project's own ctest. With CHECK_REGENERATION
# (Ninja only) it also checks that the generated sources depend on fusec, that a second build
# does nothing and that touching any other input regenerates them; the build after that
# touch is left to the next run, since the tests run what the same inputs built.
foreach(variable SOURCE_DIR BINARY_DIR PREFIX GENERATOR INPUTS)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "run_consumer.cmake: ${variable} is not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${output}")
  endif()
  set(output "${output}" PARENT_SCOPE)
endfunction()

set(inputs_dir "${BINARY_DIR}/inputs")
file(MAKE_DIRECTORY "${inputs_dir}")
foreach(input ${INPUTS})
  # Copied only when changed, so that a rebuild regenerates nothing.
  get_filename_component(name "${input}" NAME)
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${input}" "${inputs_dir}/${name}")
endforeach()

set(options -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_BUILD_TYPE=Release
            -DFUSEC_INPUTS_DIR=${inputs_dir})
if(DEFINED DATA_DIR)
  list(APPEND options -DFUSEC_TEST_DATA=${DATA_DIR})
endif()
if(DEFINED BACKEND)
  list(APPEND options -DFUSEC_TEST_BACKEND=${BACKEND})
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -G ${GENERATOR} ${options})
run(${CMAKE_COMMAND} --build ${BINARY_DIR} --parallel 2)
message(STATUS "built ${SOURCE_DIR} against ${PREFIX}")

if(CHECK_REGENERATION AND GENERATOR STREQUAL "Ninja")
  run(${CMAKE_COMMAND} --build ${BINARY_DIR} -- -t query diffusion_dsl/diffusion.h)
  if(NOT output MATCHES "${PREFIX}/bin/fusec")
    message(FATAL_ERROR "the generated sources do not depend on fusec:\n${output}")
  endif()
  # (A dry run would always list the check of fusec_add_stencils' CONFIGURE_DEPENDS globs.)
  run(${CMAKE_COMMAND} --build ${BINARY_DIR})
  if(output MATCHES "fusec: |Building|Linking")
    message(FATAL_ERROR "a second build does work:\n${output}")
  endif()
  foreach(input ${INPUTS})
    get_filename_component(name "${input}" NAME)
    if(name STREQUAL "diffusion.stn")
      continue() # the source itself; test what it imports and the configuration
    endif()
    # Filesystem timestamps are coarse: a touch in the same tick as the last
    # regeneration would look no newer than its outputs.
    execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1)
    file(TOUCH "${inputs_dir}/${name}")
    run(${CMAKE_COMMAND} --build ${BINARY_DIR} -- diffusion_dsl/diffusion.h)
    if(NOT output MATCHES "fusec: diffusion.stn")
      message(FATAL_ERROR "touching ${name} does not regenerate the sources:\n${output}")
    endif()
    message(STATUS "touching ${name} regenerates the sources")
  endforeach()
endif()

execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --output-on-failure -V
                WORKING_DIRECTORY ${BINARY_DIR} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the tests of ${SOURCE_DIR} failed")
endif()
