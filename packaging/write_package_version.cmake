# Writes the packages' version and their changelogs from the agent's build version (the line
# agent/cmake/write_build_version.cmake leaves), run at every `make package`. One version for
# the .deb and the .rpm: both order `~` before anything and compare digits as numbers.
#   DIR/package_version       0.1.0~git812.gdff25b2 from 0.1.0+dff25b2 (812 commits, no release
#                             tag yet: before 0.1.0, and a later commit sorts after it whatever
#                             its hash); 0.1.0+3.ga5e85cb from 0.1.0+v0.1.0-3-ga5e85cb (3 commits
#                             after the tag: after 0.1.0); a trailing -dirty becomes .dirty.
#                             COMMIT_COUNT, when given, stands for `git rev-list --count HEAD`
#   DIR/changelog.gz          one entry for that version, dated by the commit (reproducible);
#                             changelog.gz, not changelog.Debian.gz: a version without a Debian
#                             revision makes a native package, whose changelog lintian wants so
#   DIR/rpm_changelog         the same entry in the %changelog form of the .rpm's spec
#   cmake -DVERSION_TEXT=... -DSOURCE_DIR=... -DDIR=... -DMAINTAINER="Name <mail>" [-DCOMMIT_COUNT=N]
#         -P write_package_version.cmake
file(STRINGS "${VERSION_TEXT}" version LIMIT_COUNT 1)
if(NOT version)
  message(FATAL_ERROR "${VERSION_TEXT} is empty or missing: build the agent first (ninja -C build ibkit)")
endif()

# Debian's upstream version without a revision: digits first, then only [A-Za-z0-9.+~].
set(base "${version}")
set(commit "")
if(version MATCHES "^([^+]+)\\+(.*)$")
  set(base "${CMAKE_MATCH_1}")
  set(commit "${CMAKE_MATCH_2}")
endif()
string(TOLOWER "${commit}" commit)
if(commit MATCHES "-([0-9]+)-g([0-9a-f]+)(-dirty)?$")
  set(commit "${CMAKE_MATCH_1}.g${CMAKE_MATCH_2}${CMAKE_MATCH_3}")
  string(REPLACE "-" "." commit "${commit}")
  set(package_version "${base}+${commit}")
elseif(commit MATCHES "^[0-9a-f]+(-dirty)?$")
  if(NOT DEFINED COMMIT_COUNT)
    execute_process(COMMAND git -C "${SOURCE_DIR}" rev-list --count HEAD
                    OUTPUT_VARIABLE COMMIT_COUNT OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE failed ERROR_QUIET)
    if(failed OR NOT COMMIT_COUNT MATCHES "^[0-9]+$")
      message(FATAL_ERROR "cannot count the commits of ${SOURCE_DIR} (git rev-list --count HEAD), "
                          "which order a snapshot's version: build from a git clone, or tag a release")
    endif()
  endif()
  string(REPLACE "-" "." commit "${commit}")
  set(package_version "${base}~git${COMMIT_COUNT}.g${commit}")
elseif(commit)
  string(REPLACE "-" "." commit "${commit}")
  set(package_version "${base}+${commit}")
else()
  set(package_version "${base}")
endif()
if(NOT package_version MATCHES "^[0-9][A-Za-z0-9.+~]*$")
  message(FATAL_ERROR "agent version '${version}' (${VERSION_TEXT}) makes '${package_version}', not a Debian "
                      "version; tag releases as vX.Y.Z or set project(VERSION) in CMakeLists.txt")
endif()
file(WRITE "${DIR}/package_version" "${package_version}\n")

# The commit's date, so two builds of one commit give the same changelog; now without git.
execute_process(COMMAND git -C "${SOURCE_DIR}" log -1 --format=%cD
                OUTPUT_VARIABLE date OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed ERROR_QUIET)
if(failed OR NOT date)
  string(TIMESTAMP date "%a, %d %b %Y %H:%M:%S +0000" UTC)
endif()
file(WRITE "${DIR}/changelog" "ibkit (${package_version}) unstable; urgency=medium

  * Built from ibkit ${version}.
  * The project's git history is its changelog.

 -- ${MAINTAINER}  ${date}
")
execute_process(COMMAND gzip -9nf "${DIR}/changelog" RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "gzip -9n ${DIR}/changelog failed")
endif()

# RPM's changelog dates are days ("Fri Nov 27 2026"), from the same date; the release is 1.
string(REGEX REPLACE "^([A-Za-z]+), ([0-9]+) ([A-Za-z]+) ([0-9]+) .*$" "\\1 \\3 \\2 \\4" rpm_date "${date}")
if(rpm_date MATCHES "^[A-Za-z]+ [A-Za-z]+ [0-9] ")
  string(REGEX REPLACE "^([A-Za-z]+ [A-Za-z]+) ([0-9]) " "\\1 0\\2 " rpm_date "${rpm_date}")
endif()
file(WRITE "${DIR}/rpm_changelog" "* ${rpm_date} ${MAINTAINER} - ${package_version}-1
- Built from ibkit ${version}.
- The project's git history is its changelog.
")

