#!/bin/sh
# Installs the Debian packages a real-program script needs, when missing.
#
# usage: install-packages.sh SCRIPT PACKAGE...
#   SCRIPT names the calling script in messages (real-ovsdb.sh, ...).
# Exits 0 when every package is installed (already, or now), 1 with a Fix
# when apt-get fails.
set -eu
me=$1
shift
missing=
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -n "$missing" ] || exit 0
echo "$me: installing$missing (Debian packages)" >&2
# shellcheck disable=SC2086 # a list of package names
if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >&2; then
  echo "$me: apt-get install$missing failed. Fix: run 'apt-get update' as root, then rerun" >&2
  exit 1
fi
