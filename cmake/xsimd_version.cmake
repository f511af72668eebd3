# The xsimd versions posenc builds with and is tested against (8.1 as in Debian 12; 12.1.1,
# 13.2.0 and 14.3.0 by scripts/xsimd-versions.sh). Read from the headers, which every install
# has (a package config file may state no version, and the WASM build uses none).
set(POSENC_XSIMD_MIN 8.1)
set(POSENC_XSIMD_BELOW 15)

function(posenc_check_xsimd_version include_dirs)
  # A plain EXISTS test: find_file would be confined to the Emscripten sysroot.
  set(_posenc_xsimd_config "")
  foreach(_dir IN LISTS include_dirs)
    if(NOT _posenc_xsimd_config AND EXISTS "${_dir}/xsimd/config/xsimd_config.hpp")
      set(_posenc_xsimd_config "${_dir}/xsimd/config/xsimd_config.hpp")
    endif()
  endforeach()
  if(NOT _posenc_xsimd_config)
    message(FATAL_ERROR "posenc: xsimd/config/xsimd_config.hpp not found in '${include_dirs}' "
      "(xsimd ${POSENC_XSIMD_MIN} to <${POSENC_XSIMD_BELOW} is needed)")
  endif()
  file(STRINGS "${_posenc_xsimd_config}" _lines REGEX "^#define XSIMD_VERSION_(MAJOR|MINOR|PATCH) ")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX MATCH "XSIMD_VERSION_${_part} ([0-9]+)" _ "${_lines}")
    set(_${_part} "${CMAKE_MATCH_1}")
  endforeach()
  set(_version "${_MAJOR}.${_MINOR}.${_PATCH}")
  if(_version VERSION_LESS POSENC_XSIMD_MIN OR NOT _version VERSION_LESS POSENC_XSIMD_BELOW)
    message(FATAL_ERROR "posenc: xsimd ${_version} (${_posenc_xsimd_config}) is outside the supported "
      "range ${POSENC_XSIMD_MIN} to <${POSENC_XSIMD_BELOW}; point CMake at a supported one "
      "with -Dxsimd_DIR=<folder of its xsimdConfig.cmake>")
  endif()
  message(STATUS "posenc: xsimd ${_version}")
endfunction()
