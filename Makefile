# The front door. `make` builds the agent; `make test` installs what is missing, builds and
# runs every test tier; `make lab` runs the main job on the built-in virtual fabric.
# `make test` builds the agent plainly (GCC) and everything once more instrumented (build-asan,
# clang, ASan+UBSan: scripts/instrumented-build.sh), where the unit tests run; `make sanitize`
# and `make fuzz` use that build too. `make package`
# writes $(BUILD_DIR)/ibkit_<version>_<arch>.deb and $(BUILD_DIR)-portable/ibkit-<version>-1.<arch>.rpm
# (packaging/).
BUILD_DIR ?= build
# -g1: line tables and functions, enough for a backtrace; full -g made every compile 22% slower
# and the agent the lab copies to its nodes 126 MB.
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
JOBS ?= $(shell nproc)

.PHONY: all build agent deps test sanitize fuzz lab lab-down format clean portable package

all: build

deps:
	@scripts/install-deps.sh build

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja $(CMAKE_FLAGS)

build: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The agent alone, without the unit tests: what make lab installs on the nodes.
agent: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS) --target ibkit

test:
	@start=$$(date +%s); scripts/install-deps.sh build ansible host subnet lab fuzz && \
	  echo "dependencies ready in $$(( $$(date +%s) - start ))s"
	@start=$$(date +%s); $(MAKE) --no-print-directory agent && \
	  echo "build ready in $$(( $$(date +%s) - start ))s"
	@scripts/instrumented-build.sh
	@BUILD_DIR=$(BUILD_DIR) scripts/run-tests.sh

# ASan+UBSan (clang) build of the agent and its tests in build-asan: ctest and the host tier.
sanitize:
	@scripts/install-deps.sh build host fuzz
	@tests/sanitize/run.sh

# The libFuzzer targets of fuzz/ (clang-14) in build-asan: regressions, then FUZZ_SECONDS each.
fuzz:
	@scripts/install-deps.sh build fuzz
	@scripts/run-tests.sh fuzz

# The man pages, units and changelog are not in `all`; CPack's own package target needs them.
# The .deb from this build; the .rpm from the portable one (CPACK_GENERATOR RPM there), whose
# agent starts on AlmaLinux and RHEL 9 images.
package: agent portable
	cmake --build $(BUILD_DIR) -j $(JOBS) --target ibkit_package_files
	cmake --build $(BUILD_DIR) --target package
	cmake --build $(BUILD_DIR)-portable -j $(JOBS) --target ibkit_package_files
	cmake --build $(BUILD_DIR)-portable --target package

lab:
	@scripts/install-deps.sh build ansible lab
	@$(MAKE) --no-print-directory agent
	@tests/lab/make-lab.sh

lab-down:
	@tests/lab/labctl down

# The agent for nodes older than this machine (docs/azure.md): libstdc++ and libcrypto linked
# in, then held to the Azure HPC images' libraries.
portable: deps
	cmake -S . -B $(BUILD_DIR)-portable -G Ninja $(CMAKE_FLAGS) -DIBKIT_PORTABLE=ON -DIBKIT_BUILD_TESTS=OFF
	cmake --build $(BUILD_DIR)-portable -j $(JOBS) --target ibkit
	python3 tests/portability/check_portability.py $(BUILD_DIR)-portable/agent/ibkit \
	  --require ubuntu-hpc-22.04,ubuntu-hpc-24.04,almalinux-hpc-9

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR) build-asan
