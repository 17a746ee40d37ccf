#!/usr/bin/env bash
# Builds (once) and prints the path of a real Traefik binary for end-to-end tests.
#
# Traefik is published as a Go module, but `go install` refuses it because its
# go.mod has replace directives, so we download the module source, copy it to a
# writable place and build ./cmd/traefik there. The binary is cached outside the
# repository, keyed by version. v3.6.x is used because v3.7 needs a dependency
# that is not always served by module proxies.
#
# Usage: scripts/traefik.sh            # prints the binary path on stdout
#        TRAEFIK_VERSION=v3.6.12 scripts/traefik.sh
set -euo pipefail

version="${TRAEFIK_VERSION:-v3.6.12}"
cache="${GATEHOUSE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gatehouse}/traefik/${version}"
bin="${cache}/traefik"

if [ -x "$bin" ] && "$bin" version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi

mkdir -p "$cache"
echo "building traefik ${version} into ${cache} (several minutes the first time)" >&2
dir=$(cd "$cache" && go mod download -json "github.com/traefik/traefik/v3@${version}" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$dir" ] || { echo "traefik.sh: could not download traefik ${version}" >&2; exit 1; }

src=$(mktemp -d "${cache}/src.XXXXXX")
trap 'chmod -R u+w "$src" 2>/dev/null; rm -rf "$src"' EXIT
cp -R "$dir"/. "$src"/
chmod -R u+w "$src"
(
  cd "$src"
  # The webui is embedded from webui/static; an empty directory is enough for the API.
  mkdir -p webui/static && [ -n "$(ls -A webui/static)" ] || echo '<!doctype html>' > webui/static/index.html
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/traefik/traefik/v3/pkg/version.Version=${version#v}" \
    -o "${bin}.tmp" ./cmd/traefik
)
mv "${bin}.tmp" "$bin"
echo "$bin"
