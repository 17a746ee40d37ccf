#!/usr/bin/env bash
# Builds (once) and prints the path of a real Traefik binary for end-to-end tests.
#
# Traefik is published as a Go module, but `go install` refuses it because its
# go.mod has replace directives, so we download the module source, copy it to a
# writable place and build ./cmd/traefik there. The binary is cached outside the
# repository, keyed by version.
#
# v3.7 needs two adjustments in the copied module, applied only when the module
# needs them (see patch_module):
#   - its replace of github.com/abbot/go-http-auth points at a pseudo-version of
#     github.com/containous/go-http-auth that module proxies do not serve; the
#     last served one is API-compatible for what Traefik uses;
#   - it replaces github.com/traefik/traefik/dynamic/ext with the nested module
#     ./pkg/config/dynamic/ext, which the module zip leaves out; two empty
#     structs embedded by pkg/config/dynamic are all it has to provide.
#
# Usage: scripts/traefik.sh            # prints the binary path on stdout
#        TRAEFIK_VERSION=v3.7.11 scripts/traefik.sh
set -euo pipefail

version="${TRAEFIK_VERSION:-v3.6.12}"
cache="${GATEHOUSE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gatehouse}/traefik/${version}"
bin="${cache}/traefik"

auth_module=github.com/containous/go-http-auth
auth_fallback=v0.4.1-0.20200324110947-a37a7636d23e

if [ -x "$bin" ] && "$bin" version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi

# json_field FIELD reads `go mod download -json` output on stdin.
json_field() {
  sed -n "s/^[[:space:]]*\"$1\": \"\(.*\)\",\{0,1\}$/\1/p"
}

# patch_module makes the copied module in the current directory buildable.
patch_module() {
  local pinned info
  pinned=$(sed -n "s|^[[:space:]]*github.com/abbot/go-http-auth => ${auth_module} \(v[^[:space:]]*\).*|\1|p" go.mod)
  if [ -n "$pinned" ] && ! go mod download "${auth_module}@${pinned}" >/dev/null 2>&1; then
    echo "traefik.sh: ${auth_module}@${pinned} is not served, using ${auth_fallback}" >&2
    info=$(go mod download -json "${auth_module}@${auth_fallback}")
    go mod edit -replace "github.com/abbot/go-http-auth=${auth_module}@${auth_fallback}"
    printf '%s %s %s\n%s %s/go.mod %s\n' \
      "$auth_module" "$auth_fallback" "$(echo "$info" | json_field Sum)" \
      "$auth_module" "$auth_fallback" "$(echo "$info" | json_field GoModSum)" >>go.sum
  fi

  if grep -q '=> ./pkg/config/dynamic/ext' go.mod && [ ! -f pkg/config/dynamic/ext/go.mod ]; then
    mkdir -p pkg/config/dynamic/ext
    printf 'module github.com/traefik/traefik/dynamic/ext\n\ngo 1.26.0\n' >pkg/config/dynamic/ext/go.mod
    cat >pkg/config/dynamic/ext/ext.go <<'GO'
// Package ext holds the extension points embedded by Traefik's dynamic configuration.
package ext

// HTTP is embedded in dynamic.HTTPConfiguration.
type HTTP struct{}

// Router is embedded in dynamic.Router.
type Router struct{}
GO
  fi
}

mkdir -p "$cache"
echo "building traefik ${version} into ${cache} (several minutes the first time)" >&2
dir=$(cd "$cache" && go mod download -json "github.com/traefik/traefik/v3@${version}" | json_field Dir)
[ -n "$dir" ] || { echo "traefik.sh: could not download traefik ${version}" >&2; exit 1; }

src=$(mktemp -d "${cache}/src.XXXXXX")
trap 'chmod -R u+w "$src" 2>/dev/null; rm -rf "$src"' EXIT
cp -R "$dir"/. "$src"/
chmod -R u+w "$src"
(
  cd "$src"
  patch_module
  # The webui is embedded from webui/static; an empty directory is enough for the API.
  mkdir -p webui/static && [ -n "$(ls -A webui/static)" ] || echo '<!doctype html>' > webui/static/index.html
  CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/traefik/traefik/v3/pkg/version.Version=${version#v}" \
    -o "${bin}.tmp" ./cmd/traefik
)
mv "${bin}.tmp" "$bin"
echo "$bin"
