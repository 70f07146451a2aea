#!/usr/bin/env bash
# CI (.ci/run) and `npm test` run this: the browser tests (test/browser/) drive Debian's headless `chromium`
# through puppeteer-core, which downloads no browser of its own. REII_CHROMIUM names another binary.
find_chromium() {
  for c in "${REII_CHROMIUM:-}" chromium chromium-browser; do
    [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && return 0
  done
  return 1
}
find_chromium && exit 0
bash "$(dirname "$0")/apt-install.sh" "the browser tests" chromium fonts-dejavu-core || exit 1
find_chromium || { echo "chromium was installed but is not on PATH" >&2; exit 1; }
