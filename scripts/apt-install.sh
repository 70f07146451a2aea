#!/usr/bin/env bash
# apt-install.sh WHAT PACKAGE...: installs Debian packages the tests need (WHAT says which tests, for the messages),
# with apt-get as root or through `sudo -n` (never prompts); apt's own errors are shown. Used by ensure-*.sh.
set -u
what=$1
shift
if ! command -v apt-get >/dev/null 2>&1; then
  echo "$what need $* and there is no apt-get here: install it with your package manager" >&2
  exit 1
fi
if [ "$(id -u)" = 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "$what need $*: not root and no password-less sudo, so install it yourself (Debian: sudo apt-get install $*)" >&2
  exit 1
fi
echo "installing $* from Debian's packages for $what..." >&2
log=$(mktemp)
if ! { "${SUDO[@]}" apt-get update -qq && "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"; } >"$log" 2>&1; then
  echo "could not install $*; apt-get said:" >&2
  tail -n 40 "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
