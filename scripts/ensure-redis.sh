#!/usr/bin/env bash
# `npm test` runs this first: the Redis tests need a redis-server binary (Debian package redis-server).
# Installs it with apt-get as root, or through `sudo -n` (never prompts) otherwise; apt's own errors are shown.
command -v redis-server >/dev/null 2>&1 && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "the Redis tests need redis-server and there is no apt-get here: install it with your package manager" >&2
  exit 1
fi
if [ "$(id -u)" = 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "the Redis tests need redis-server: not root and no password-less sudo, so install it yourself (Debian: sudo apt-get install redis-server)" >&2
  exit 1
fi
echo "installing redis-server from Debian's packages for the Redis tests..." >&2
log=$(mktemp)
if ! { "${SUDO[@]}" apt-get update -qq && "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; } >"$log" 2>&1; then
  echo "could not install redis-server; apt-get said:" >&2
  tail -n 40 "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
# The tests start their own servers on free ports: stop the one the package may have started.
"${SUDO[@]}" service redis-server stop >/dev/null 2>&1 || true
command -v redis-server >/dev/null 2>&1 || { echo "redis-server was installed but is not on PATH" >&2; exit 1; }
