#pragma once

namespace ibkit::test {

// Where this build's files are. Only build_paths.cpp is compiled with them (agent/tests/
// CMakeLists.txt): a path in every test's command line would make each test's object differ
// between two checkouts of the same commit, and the compiler cache miss on all of them.

// The checkout's top folder (docs/, tests/fixtures/reports/, agent/tests/).
const char* source_dir();
// tests/fixtures/sysfs of the checkout: the captured machines.
const char* fixtures_dir();
// The agent this build made (run_ibkit runs it).
const char* ibkit_binary();
// The project's version in CMakeLists.txt (0.1.0).
const char* project_version();

}  // namespace ibkit::test
