# Install rules: libweir (shared: libweir.so.0 with its SONAME links; or
# static), the public headers (include/weir), the weir command and its LLVM
# helper, the plugin template, a CMake package (weirConfig.cmake exporting
# weir::weir, and weir::mpi as component mpi when the MPI transport is built)
# and weir.pc (and weir-mpi.pc). Included from the root CMakeLists.txt when
# WEIR_INSTALL is ON; packaging and the ABI policy: docs/packaging.md.
include(CMakePackageConfigHelpers)
set(WEIR_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/weir CACHE STRING
    "Where weirConfig.cmake goes, relative to the prefix")

install(TARGETS weir EXPORT weirTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT weir_runtime NAMELINK_COMPONENT weir_dev
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT weir_dev
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT weir_runtime
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/weir DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT weir_dev FILES_MATCHING PATTERN "*.h")
install(EXPORT weirTargets NAMESPACE weir:: DESTINATION ${WEIR_INSTALL_CMAKEDIR}
        FILE weirTargets.cmake COMPONENT weir_dev)
# weir::mpi (libweir_mpi, include/weir/mpi/transport.h), when the MPI
# transport is built: a targets file of its own, which weirConfig.cmake loads
# for find_package(weir COMPONENTS mpi) only, so that plain consumers never
# need MPI.
if(TARGET weir_mpi)
  install(EXPORT weirMpiTargets NAMESPACE weir:: DESTINATION ${WEIR_INSTALL_CMAKEDIR}
          FILE weirMpiTargets.cmake COMPONENT weir_dev)
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/weirConfig.cmake.in
  ${PROJECT_BINARY_DIR}/weirConfig.cmake INSTALL_DESTINATION ${WEIR_INSTALL_CMAKEDIR})
# 0.x: a new minor version may break the API, so only the same minor matches.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/weirConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/weirConfig.cmake ${PROJECT_BINARY_DIR}/weirConfigVersion.cmake
        DESTINATION ${WEIR_INSTALL_CMAKEDIR} COMPONENT weir_dev)

# weir.pc, relocatable: paths relative to where the file is installed.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(WEIR_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(WEIR_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(WEIR_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH _up /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
  string(REGEX REPLACE "/$" "" _up "${_up}")
  set(WEIR_PC_PREFIX "\${pcfiledir}/${_up}")
  set(WEIR_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(WEIR_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# Libs.private (pkg-config --static): what libweir links privately. A shared
# libweir carries glslang/SPIRV-Tools (linked in) and libstdc++ (DT_NEEDED)
# itself; a static libweir.a needs them on the program's link line, after
# -lweir: the archives the Vulkan FFT (VkFFT + glslang) linked, as the paths
# CMake found (backends/vulkan/CMakeLists.txt), and -lstdc++. The system
# libraries come last, also for the static case without --static (Libs).
get_property(_weir_pc_private GLOBAL PROPERTY WEIR_PC_PRIVATE_LIBS)
list(JOIN _weir_pc_private " " _weir_pc_private)
if(WEIR_BUILD_SHARED)
  set(WEIR_PC_LIBS "-L\${libdir} -lweir")
  set(WEIR_PC_LIBS_PRIVATE "-lpthread -lm -ldl")
else() # a static library needs its dependencies on every link line
  set(WEIR_PC_LIBS "-L\${libdir} -lweir -lpthread -lm -ldl")
  string(STRIP "${_weir_pc_private} -lpthread -lm -ldl" WEIR_PC_LIBS_PRIVATE)
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/weir.pc.in ${PROJECT_BINARY_DIR}/weir.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/weir.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT weir_dev)
if(TARGET weir_mpi) # weir-mpi.pc: libweir_mpi with MPI's flags (as FindMPI found them)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/weir-mpi.pc.in ${PROJECT_BINARY_DIR}/weir-mpi.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/weir-mpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT weir_dev)
endif()

# The weir command (and weir-analyze, the LLVM frontend it runs) find
# libweir relative to themselves, with no empty RUNPATH entry (rpath.cmake).
if(TARGET weir_cli)
  weir_runpath(weir_cli ${CMAKE_INSTALL_FULL_BINDIR} LIBS weir)
  install(TARGETS weir_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT weir_runtime)
endif()
if(TARGET weir_analyze)
  weir_runpath(weir_analyze ${CMAKE_INSTALL_FULL_LIBEXECDIR}/weir LIBS weir)
  install(TARGETS weir_analyze RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/weir
          COMPONENT weir_runtime)
endif()

if(TARGET weir_solve_mpi) # `weir solve --mpi` runs it (tools/solve_mpi.c)
  weir_runpath(weir_solve_mpi ${CMAKE_INSTALL_FULL_LIBEXECDIR}/weir LIBS weir weir_mpi)
  install(TARGETS weir_solve_mpi RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/weir
          COMPONENT weir_runtime)
endif()

# The plugin template (backends/template): builds against an installed weir
# as it is (find_package(weir)); docs in its README.md.
install(FILES ${PROJECT_SOURCE_DIR}/backends/template/template.c
              ${PROJECT_SOURCE_DIR}/backends/template/CMakeLists.txt
              ${PROJECT_SOURCE_DIR}/backends/template/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/weir/template COMPONENT weir_dev)
# The analysis plugin template (frontends/llvm/api/template, secret-log):
# builds against an installed weir with find_package(weir) or pkg-config;
# docs/analysis-api.md walks through it. weir/analysis.h comes with the
# headers above; the API's functions with weir-analyze.
if(TARGET weir_analyze)
  install(FILES ${PROJECT_SOURCE_DIR}/frontends/llvm/api/template/secret_log.c
                ${PROJECT_SOURCE_DIR}/frontends/llvm/api/template/CMakeLists.txt
                ${PROJECT_SOURCE_DIR}/frontends/llvm/api/template/Makefile
                ${PROJECT_SOURCE_DIR}/frontends/llvm/api/template/README.md
          DESTINATION ${CMAKE_INSTALL_DATADIR}/weir/analysis-template COMPONENT weir_dev)
  install(FILES ${PROJECT_SOURCE_DIR}/docs/analysis-api.md DESTINATION ${CMAKE_INSTALL_DOCDIR}
          COMPONENT weir_dev)
  # The protocols of `weir analyze typestate --spec` (docs/typestate.md).
  install(FILES ${PROJECT_SOURCE_DIR}/share/weir/typestate/file.spec
          DESTINATION ${CMAKE_INSTALL_DATADIR}/weir/typestate COMPONENT weir_runtime)
  install(FILES ${PROJECT_SOURCE_DIR}/docs/typestate.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT weir_dev)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/docs/packaging.md DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT weir_dev)
