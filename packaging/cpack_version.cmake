# CPack reads this when it runs (CPACK_PROJECT_CONFIG_FILE): the version and the file name
# come from the build (write_debian_files.cmake), not from the time cmake configured.
set(version_file "${CPACK_IBKIT_FILES_DIR}/debian_version")
if(NOT EXISTS "${version_file}")
  message(FATAL_ERROR "${version_file} is missing: build the package with `make package`, "
                      "which writes it first (cmake --build build --target ibkit_package_files)")
endif()
file(STRINGS "${version_file}" CPACK_PACKAGE_VERSION LIMIT_COUNT 1)
set(CPACK_DEBIAN_PACKAGE_VERSION "${CPACK_PACKAGE_VERSION}")
execute_process(COMMAND dpkg --print-architecture OUTPUT_VARIABLE arch OUTPUT_STRIP_TRAILING_WHITESPACE)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE "${arch}")
set(CPACK_DEBIAN_FILE_NAME "ibkit_${CPACK_PACKAGE_VERSION}_${arch}.deb")
