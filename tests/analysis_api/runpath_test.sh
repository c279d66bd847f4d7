#!/bin/sh
# No installed binary may carry an empty RUNPATH entry: glibc reads one as the
# current directory, a library (and `plugin:NAME`) search path anyone who
# picks the working directory controls (cmake/rpath.cmake).
# usage: runpath_test.sh READELF BINARY...
set -eu
readelf=$1
shift
for bin in "$@"; do
  "$readelf" -d "$bin" > /dev/null || { echo "runpath_test: FAIL: readelf cannot read $bin" >&2; exit 1; }
  path=$("$readelf" -d "$bin" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]$/\2/p')
  case ":$path:" in
    *::*) if [ -n "$path" ]; then echo "runpath_test: FAIL: $bin has an empty entry in '$path'" >&2; exit 1; fi ;;
  esac
  echo "runpath_test: $bin: '$path'"
done
echo "runpath_test: ok"
