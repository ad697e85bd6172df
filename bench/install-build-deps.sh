#!/bin/sh
# The Debian/Ubuntu packages the benchmark needs to build the librdkafka
# binding (@confluentinc/kafka-javascript) from source, linked dynamically
# against the system's libraries (bench/clients/rdkafka-build.ts). Used by
# the benchmark only: nothing in `npm test` or CI's test path calls it.
#
#   sh bench/install-build-deps.sh --check   # list what is missing; exit 1 if anything is
#   sh bench/install-build-deps.sh           # install what is missing, if allowed (below)
#
# Installing needs root, or sudo without a password prompt (`sudo -n`): it
# never asks for a password and never runs under CI (CI set) unless
# TIDEMARK_BENCH_INSTALL_DEPS=1 says so. When it may not install, it prints
# the apt-get command to run and exits 2. Not Debian (no dpkg-query): it
# says so and exits 0, leaving the build to report what it lacks.
set -eu

PACKAGES="build-essential python3 libssl-dev zlib1g-dev libzstd-dev liblz4-dev libsasl2-dev libcurl4-openssl-dev"

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install-build-deps: not a Debian/Ubuntu system (no dpkg-query); install the equivalents of: $PACKAGES" >&2
  exit 0
fi

missing=""
for p in $PACKAGES; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  case "$status" in
    *"install ok installed"*) ;;
    *) missing="$missing $p" ;;
  esac
done
missing=${missing# }

if [ -z "$missing" ]; then
  echo "install-build-deps: all present ($PACKAGES)"
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  echo "install-build-deps: missing: $missing"
  exit 1
fi

command_line="apt-get install -y --no-install-recommends $missing"
if [ -n "${CI:-}" ] && [ "${TIDEMARK_BENCH_INSTALL_DEPS:-}" != "1" ]; then
  echo "install-build-deps: missing: $missing; not installing under CI (set TIDEMARK_BENCH_INSTALL_DEPS=1 to allow): $command_line" >&2
  exit 2
fi
if [ "$(id -u)" = "0" ]; then
  as_root=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root="sudo -n"
else
  echo "install-build-deps: missing: $missing; needs root (no password-less sudo here). Run: sudo $command_line" >&2
  exit 2
fi

echo "install-build-deps: installing $missing"
# shellcheck disable=SC2086 # word splitting of the package list is intended
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086
$as_root env DEBIAN_FRONTEND=noninteractive $command_line
