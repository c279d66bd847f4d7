# weir_runpath(TARGET INSTALL_DIR [LIBS lib...]): one RUNPATH for the build
# tree and the installation of an installed binary. Left to itself CMake links
# such a binary with the build tree's RUNPATH plus a trailing ':' (room to
# rewrite it at install time), and glibc reads that empty entry as the current
# directory: whoever chose the working directory could then supply the
# libraries (and analysis plugins named without a '/') it loads. Built with
# its install RUNPATH instead, there is nothing to rewrite and no padding:
#   $ORIGIN/<INSTALL_DIR to the libdir>   the installed libweir
#   $ORIGIN/<build dir to each of LIBS>   the build tree's (shared builds)
#   the link directories outside the project (LLVM's, MPI's)
# INSTALL_DIR is where the binary is installed (absolute).
function(weir_runpath target install_dir)
  cmake_parse_arguments(PARSE_ARGV 2 _rp "" "" "LIBS")
  set(_paths)
  if(WEIR_BUILD_SHARED)
    file(RELATIVE_PATH _to_lib ${install_dir} ${CMAKE_INSTALL_FULL_LIBDIR})
    list(APPEND _paths "$ORIGIN/${_to_lib}")
    get_target_property(_type ${target} TYPE)
    if(_type STREQUAL "EXECUTABLE")
      get_target_property(_here ${target} RUNTIME_OUTPUT_DIRECTORY)
    else()
      get_target_property(_here ${target} LIBRARY_OUTPUT_DIRECTORY)
    endif()
    if(NOT _here)
      get_target_property(_here ${target} BINARY_DIR)
    endif()
    foreach(_lib IN LISTS _rp_LIBS)
      get_target_property(_there ${_lib} LIBRARY_OUTPUT_DIRECTORY)
      if(NOT _there)
        get_target_property(_there ${_lib} BINARY_DIR)
      endif()
      file(RELATIVE_PATH _rel ${_here} ${_there})
      list(APPEND _paths "$ORIGIN/${_rel}")
    endforeach()
  endif()
  list(TRANSFORM _paths REPLACE "/$" "")
  list(REMOVE_DUPLICATES _paths)
  set_target_properties(${target} PROPERTIES BUILD_WITH_INSTALL_RPATH ON INSTALL_RPATH_USE_LINK_PATH ON
                        INSTALL_RPATH "${_paths}")
endfunction()
