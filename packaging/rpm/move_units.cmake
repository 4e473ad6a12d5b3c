# CPACK_PRE_BUILD_SCRIPTS, run for each generator after CPack has installed into its staging
# directory. The units' install() destination is Debian's /lib/systemd/system (lintian on
# bookworm warns on /usr/lib); RHEL's is /usr/lib/systemd/system, where /lib is a symlink that
# the filesystem package owns. For the RPM they move there, and leave the list of absolute
# destinations, whose files CPack's RPM generator marks %config: a unit is not a config file.
if(NOT CPACK_GENERATOR STREQUAL "RPM")
  return()
endif()
set(staging "${CPACK_TEMPORARY_INSTALL_DIRECTORY}")
file(MAKE_DIRECTORY "${staging}/usr/lib")
file(RENAME "${staging}/lib/systemd" "${staging}/usr/lib/systemd")
file(REMOVE_RECURSE "${staging}/lib")
list(FILTER CPACK_ABSOLUTE_DESTINATION_FILES EXCLUDE REGEX "^/lib/")
