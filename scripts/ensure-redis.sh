#!/usr/bin/env bash
# `npm test` runs this first: the Redis tests need a redis-server binary (Debian package redis-server).
command -v redis-server >/dev/null 2>&1 && exit 0
bash "$(dirname "$0")/apt-install.sh" "the Redis tests" redis-server || exit 1
# The tests start their own servers on free ports: stop the one the package may have started.
if [ "$(id -u)" = 0 ]; then service redis-server stop >/dev/null 2>&1 || true; else sudo -n service redis-server stop >/dev/null 2>&1 || true; fi
command -v redis-server >/dev/null 2>&1 || { echo "redis-server was installed but is not on PATH" >&2; exit 1; }
