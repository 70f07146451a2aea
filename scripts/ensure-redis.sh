#!/usr/bin/env bash
# `npm test` runs this first: the Redis tests need a redis-server binary (Debian package redis-server).
command -v redis-server >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing redis-server from Debian's packages for the Redis tests..." >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >/dev/null 2>&1 || { echo "could not install redis-server" >&2; exit 1; }
  (service redis-server stop || true) >/dev/null 2>&1  # the tests start their own on free ports
  exit 0
fi
echo "the Redis tests need redis-server: install it (Debian: apt-get install redis-server)" >&2
exit 1
