#!/usr/bin/env bash
# Tests both peer adapters end to end over the protocol (after adapters/install.sh).
# Usage: adapters/test.sh [typescript] [python]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec python3 "$here/tests/adapters_test.py" "$@"
