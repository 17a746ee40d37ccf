#!/usr/bin/env bash
# Builds (once) and prints the path of a real oauth2-proxy binary, the
# third-party OpenID Connect relying party the end-to-end tests put in front of
# an upstream to prove the panel's provider.
#
# oauth2-proxy is published as a Go module without replace directives, so
# `go install module@version` builds it straight from the module proxy. The
# binary is cached outside the repository, keyed by version.
#
# Usage: scripts/oauth2-proxy.sh        # prints the binary path on stdout
#        OAUTH2_PROXY_VERSION=v7.15.6 scripts/oauth2-proxy.sh
set -euo pipefail

version="${OAUTH2_PROXY_VERSION:-v7.15.6}"
module=github.com/oauth2-proxy/oauth2-proxy/v7
cache="${GATEHOUSE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gatehouse}/oauth2-proxy/${version}"
bin="${cache}/oauth2-proxy"

if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi

mkdir -p "$cache"
echo "building oauth2-proxy ${version} into ${cache} (several minutes the first time)" >&2
# go install writes into GOBIN under the module's last path element ("v7"), so
# build into a private directory and move the result into place in one step.
gobin=$(mktemp -d "${cache}/bin.XXXXXX")
trap 'rm -rf "$gobin"' EXIT
# Run outside any module so the repository's go.mod and go.work play no part.
(
  cd "$gobin"
  GOBIN="$gobin" GOFLAGS=-trimpath CGO_ENABLED=0 GOWORK=off \
    go install -ldflags "-s -w -X ${module}/pkg/version.VERSION=${version}" "${module}@${version}"
)
built=$(find "$gobin" -maxdepth 1 -type f -perm -u+x | head -n 1)
[ -n "$built" ] || { echo "oauth2-proxy.sh: go install produced no binary for ${module}@${version}" >&2; exit 1; }
"$built" --version >/dev/null 2>&1 || { echo "oauth2-proxy.sh: ${built} does not run" >&2; exit 1; }
mv "$built" "$bin"
echo "$bin"
