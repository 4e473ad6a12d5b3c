#include "build_paths.hpp"

namespace ibkit::test {

const char* source_dir() { return IBKIT_SOURCE_DIR; }
const char* fixtures_dir() { return IBKIT_FIXTURES_DIR; }
const char* ibkit_binary() { return IBKIT_BINARY; }
const char* project_version() { return IBKIT_PROJECT_VERSION; }

}  // namespace ibkit::test
