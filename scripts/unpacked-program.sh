#!/usr/bin/env bash
# Sourced. A program from a Debian package, unpacked into a cache instead of installed: for
# tools whose package would bring a service to this machine (opensm, prometheus), which a CI
# sandbox does not run and a developer does not want.

# unpacked_program PACKAGE PATH CACHE [only]: prints the path of PATH (usr/sbin/opensm) from
# PACKAGE's candidate version, downloaded (apt's lists updated first when they have no candidate)
# and unpacked into CACHE/PACKAGE-VERSION once per version; with "only", PATH alone is kept.
# Returns 1, saying why on stderr, when it cannot be had.
unpacked_program() {
  local package=$1 path=$2 cache=$3 only=${4:-} version dir download
  version=$(apt-cache policy "$package" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then
    timeout 300 apt-get update -qq >/dev/null 2>&1
    version=$(apt-cache policy "$package" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
  fi
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then echo "no $package package in apt's lists" >&2; return 1; fi
  dir=$cache/$package-$version
  if [ ! -x "$dir/$path" ]; then
    # A new machine has no ~/.cache: the cache is made here, or the mv below has nowhere to go.
    mkdir -p "$cache" || { echo "cannot create $cache" >&2; return 1; }
    download=$(mktemp -d)
    # Run as root where apt's _apt user cannot write the directory, apt says so and downloads
    # anyway: that note is not a failure.
    (cd "$download" && timeout 300 apt-get download -qq "$package=$version" >/dev/null 2>&1) &&
      dpkg-deb -x "$download/${package}_"*.deb "$download/root" && rm -rf "$dir" &&
      if [ "$only" = only ]; then
        mkdir -p "$dir/$(dirname "$path")" && mv "$download/root/$path" "$dir/$path"
      else
        mv "$download/root" "$dir"
      fi
    rm -rf "$download"
    [ -x "$dir/$path" ] || { echo "apt-get download $package=$version did not give $path" >&2; return 1; }
  fi
  echo "$dir/$path"
}
