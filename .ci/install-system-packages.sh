#!/usr/bin/env bash
# Debian packages the test suite drives for real: headless Chromium (the /docs page test) and
# redis-server (the Redis payment store tests).
# Installs only what is missing, so a developer machine that has them is left alone.
set -euo pipefail
missing=()
# Chromium for the /docs page test; a real font so pages render as a person sees them.
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
# A real Redis for the shared payment store's tests (started per test file on a free port).
command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
