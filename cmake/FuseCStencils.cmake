# fusec_add_stencils(TARGET <name> SOURCES <file.stn>...
#                    [PIPELINE <pipeline>] [BACKEND cuda|cpp] [LAYOUT any|columns]
#                    [CONFIG <file.yaml>]
#                    [DEFINES name=value...] [IMPORT_DIRS <dir>...]
#                    [CXX_FLAGS <flag>...])
#
# Compiles each .stn file with fusec into a source (.cu or .cpp), a C header
# and a Fortran module (.F90; it has no preprocessor lines), and builds a static library <name>
# from them. The sources are generated again when a .stn file (or a .stn file
# next to it or in IMPORT_DIRS, which it may import), the configuration or
# fusec itself changes. The headers' directory is a public include directory
# of the library; the Fortran module is compiled into it, its .mod file next to
# the headers, when the project enables Fortran. The CUDA backend needs the
# CUDA language enabled; the C++ backend links OpenMP and compiles with
# CXX_FLAGS, by default -O3 -march=native -fno-math-errno (the emitted loops
# are bound by instructions on CPUs, and errno keeps a sqrt from vectorising;
# give CXX_FLAGS, possibly empty, for a portable build). LAYOUT columns (C++
# backend) compiles for ICON's blocked layout with nproma = 1 only, whose
# kernels vectorise over levels; the default, any, runs in the layout the
# create call gives. See docs/integration.md.
function(fusec_add_stencils)
  cmake_parse_arguments(ARG "" "TARGET;PIPELINE;BACKEND;LAYOUT;CONFIG"
                        "SOURCES;DEFINES;IMPORT_DIRS;CXX_FLAGS" ${ARGN})
  if(NOT ARG_TARGET OR NOT ARG_SOURCES)
    message(FATAL_ERROR "fusec_add_stencils: TARGET and SOURCES are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "fusec_add_stencils: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_PIPELINE)
    set(ARG_PIPELINE fuse-all)
  endif()
  if(NOT ARG_BACKEND)
    set(ARG_BACKEND cuda)
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(ARG_BACKEND STREQUAL "cuda")
    set(extension cu)
    if(NOT "CUDA" IN_LIST languages)
      message(FATAL_ERROR "fusec_add_stencils: BACKEND cuda needs the CUDA language "
                          "(project(... CUDA) or enable_language(CUDA))")
    endif()
  elseif(ARG_BACKEND STREQUAL "cpp")
    set(extension cpp)
    if(NOT "CXX" IN_LIST languages)
      message(FATAL_ERROR "fusec_add_stencils: BACKEND cpp needs the CXX language")
    endif()
  else()
    message(FATAL_ERROR "fusec_add_stencils: BACKEND must be cuda or cpp, not '${ARG_BACKEND}'")
  endif()

  if(NOT ARG_LAYOUT)
    set(ARG_LAYOUT any)
  endif()
  if(NOT ARG_LAYOUT MATCHES "^(any|columns)$")
    message(FATAL_ERROR "fusec_add_stencils: LAYOUT must be any or columns, not '${ARG_LAYOUT}'")
  endif()
  if(ARG_LAYOUT STREQUAL "columns" AND NOT ARG_BACKEND STREQUAL "cpp")
    message(FATAL_ERROR "fusec_add_stencils: LAYOUT columns is a layout of the C++ backend "
                        "(BACKEND cpp)")
  endif()

  set(options -O "${ARG_PIPELINE}" "--layout=${ARG_LAYOUT}")
  set(depends "${FuseC_EXECUTABLE}")
  if(ARG_CONFIG)
    get_filename_component(config "${ARG_CONFIG}" ABSOLUTE)
    list(APPEND options --config "${config}")
    list(APPEND depends "${config}")
  endif()
  foreach(define ${ARG_DEFINES})
    list(APPEND options -D "${define}")
  endforeach()
  foreach(dir ${ARG_IMPORT_DIRS})
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND options -I "${dir}")
    file(GLOB imported CONFIGURE_DEPENDS "${dir}/*.stn")
    list(APPEND depends ${imported})
  endforeach()

  set(outdir "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}")
  file(MAKE_DIRECTORY "${outdir}")
  set(generated)
  set(fortran_sources)
  foreach(source ${ARG_SOURCES})
    get_filename_component(source "${source}" ABSOLUTE)
    get_filename_component(stem "${source}" NAME_WE)
    get_filename_component(sourcedir "${source}" DIRECTORY)
    file(GLOB siblings CONFIGURE_DEPENDS "${sourcedir}/*.stn")
    set(code "${outdir}/${stem}.${extension}")
    set(header "${outdir}/${stem}.h")
    set(fortran "${outdir}/${stem}.F90")
    add_custom_command(
      OUTPUT "${code}" "${header}" "${fortran}"
      COMMAND "${FuseC_EXECUTABLE}" "${source}" ${options} -o "${code}"
      COMMAND "${FuseC_EXECUTABLE}" "${source}" ${options} -o "${header}"
      COMMAND "${FuseC_EXECUTABLE}" "${source}" ${options} -o "${fortran}"
      DEPENDS "${source}" ${siblings} ${depends}
      COMMENT "fusec: ${stem}.stn -> ${stem}.${extension}, ${stem}.h, ${stem}.F90 (${ARG_PIPELINE})"
      VERBATIM)
    list(APPEND generated "${code}" "${header}")
    list(APPEND fortran_sources "${fortran}")
  endforeach()

  if("Fortran" IN_LIST languages)
    list(APPEND generated ${fortran_sources})
  endif()
  add_library(${ARG_TARGET} STATIC ${generated})
  target_include_directories(${ARG_TARGET} PUBLIC "${outdir}")
  target_link_libraries(${ARG_TARGET} PUBLIC FuseC::headers)
  set_target_properties(${ARG_TARGET} PROPERTIES
    Fortran_MODULE_DIRECTORY "${outdir}"
    POSITION_INDEPENDENT_CODE ON)
  if(ARG_BACKEND STREQUAL "cpp")
    target_compile_features(${ARG_TARGET} PRIVATE cxx_std_17)
    if(NOT DEFINED ARG_CXX_FLAGS AND NOT "CXX_FLAGS" IN_LIST ARG_KEYWORDS_MISSING_VALUES)
      set(ARG_CXX_FLAGS -O3 -march=native -fno-math-errno)
    endif()
    target_compile_options(${ARG_TARGET} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${ARG_CXX_FLAGS}>")
    find_package(OpenMP REQUIRED COMPONENTS CXX)
    target_link_libraries(${ARG_TARGET} PUBLIC OpenMP::OpenMP_CXX)
  else()
    target_compile_features(${ARG_TARGET} PRIVATE cuda_std_17)
  endif()
endfunction()
