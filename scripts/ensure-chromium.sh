#!/usr/bin/env bash
# CI (.ci/run) and `npm test` run this: the browser tests (test/browser/) drive Debian's headless `chromium`
# through puppeteer-core, which downloads no browser of its own. Installs the package with apt-get as root, or
# through `sudo -n` (never prompts) otherwise; apt's own errors are shown. REII_CHROMIUM names another binary.
find_chromium() {
  for c in "${REII_CHROMIUM:-}" chromium chromium-browser; do
    [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && return 0
  done
  return 1
}
find_chromium && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "the browser tests need chromium and there is no apt-get here: install it with your package manager (or set REII_CHROMIUM)" >&2
  exit 1
fi
if [ "$(id -u)" = 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "the browser tests need chromium: not root and no password-less sudo, so install it yourself (Debian: sudo apt-get install chromium)" >&2
  exit 1
fi
echo "installing chromium from Debian's packages for the browser tests..." >&2
log=$(mktemp)
if ! { "${SUDO[@]}" apt-get update -qq && "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core; } >"$log" 2>&1; then
  echo "could not install chromium; apt-get said:" >&2
  tail -n 40 "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
find_chromium || { echo "chromium was installed but is not on PATH" >&2; exit 1; }
