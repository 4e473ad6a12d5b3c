# CPack reads this when it runs (CPACK_PROJECT_CONFIG_FILE): the version and the file name
# come from the build (write_package_version.cmake), not from the time cmake configured.
set(version_file "${CPACK_IBKIT_FILES_DIR}/package_version")
if(NOT EXISTS "${version_file}")
  message(FATAL_ERROR "${version_file} is missing: build the package with `make package`, "
                      "which writes it first (cmake --build build --target ibkit_package_files)")
endif()
file(STRINGS "${version_file}" CPACK_PACKAGE_VERSION LIMIT_COUNT 1)
set(CPACK_DEBIAN_PACKAGE_VERSION "${CPACK_PACKAGE_VERSION}")
execute_process(COMMAND dpkg --print-architecture OUTPUT_VARIABLE arch OUTPUT_STRIP_TRAILING_WHITESPACE)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE "${arch}")
set(CPACK_DEBIAN_FILE_NAME "ibkit_${CPACK_PACKAGE_VERSION}_${arch}.deb")
set(CPACK_RPM_PACKAGE_VERSION "${CPACK_PACKAGE_VERSION}")
# The .deb strips its agent itself, keeping the debug information for ibkit-dbgsym; the .rpm
# has no debuginfo package, and rpmbuild's own strip leaves the symbol table (rpmlint's
# unstripped-binary-or-object): CPack strips it at install.
if(CPACK_GENERATOR STREQUAL "RPM")
  set(CPACK_STRIP_FILES ON)
endif()
set(CPACK_RPM_CHANGELOG_FILE "${CPACK_IBKIT_FILES_DIR}/rpm_changelog")
execute_process(COMMAND uname -m OUTPUT_VARIABLE rpm_arch OUTPUT_STRIP_TRAILING_WHITESPACE)
set(CPACK_RPM_PACKAGE_ARCHITECTURE "${rpm_arch}")
set(CPACK_RPM_FILE_NAME "ibkit-${CPACK_PACKAGE_VERSION}-1.${rpm_arch}.rpm")
