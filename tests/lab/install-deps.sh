#!/bin/bash
# Install the host packages the virtual lab needs, only those missing (quiet when none is).
# The list itself is the `lab` group of scripts/install-deps.sh: one list for the repo.
set -euo pipefail
exec "$(dirname "$0")/../../scripts/install-deps.sh" lab
