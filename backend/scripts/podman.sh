#!/usr/bin/env bash
# A throwaway container engine for the tests: Debian's podman serving the
# Docker Engine API on a unix socket, with its own storage in a temporary
# directory (nothing is shared with the host's podman).
#
#   scripts/podman.sh check        exit 0 when podman and runc are installed
#   scripts/podman.sh start        start the API service (if it is not running) and
#                                  print its address for PANEL_DOCKER_HOST (unix://…)
#   scripts/podman.sh url          print the address of the running service
#   scripts/podman.sh stop         remove its containers and networks, stop it, delete its files
#   scripts/podman.sh image        build (once; cached in ~/.cache/gatehouse/podman) the test
#                                  image, a static whoami server (e2e/whoami), import it
#                                  and print its name
#   scripts/podman.sh podman ARGS  run podman on this instance's storage, with the flags
#                                  these machines need (runc, cgroupfs, and ulimits on run)
#   scripts/podman.sh mktemp       create and print a new directory for an instance
#                                  (for GATEHOUSE_PODMAN_DIR)
#
# GATEHOUSE_PODMAN_DIR is the instance's directory (default
# /tmp/gatehouse-podman-<uid>). No image registry is needed: the image is
# made with `podman import` from a tarball holding one static binary.
set -euo pipefail

DIR=${GATEHOUSE_PODMAN_DIR:-/tmp/gatehouse-podman-$(id -u)}
SOCK=$DIR/docker.sock
CACHE=${GATEHOUSE_CACHE:-$HOME/.cache/gatehouse}/podman
HERE=$(cd "$(dirname "$0")/.." && pwd)

pm() {
  podman --root "$DIR/root" --runroot "$DIR/run" --network-config-dir "$DIR/networks" \
    --tmpdir "$DIR/tmp" --runtime runc --cgroup-manager=cgroupfs --events-backend file "$@"
}

# podman with the ulimits these machines need on run and create.
pm_user() {
  if [ "${1:-}" = run ] || [ "${1:-}" = create ]; then
    local cmd=$1
    shift
    pm "$cmd" --ulimit nofile=20000:20000 --ulimit nproc=4096:4096 "$@"
  else
    pm "$@"
  fi
}

url() { echo "unix://$SOCK"; }

running() { [ -S "$SOCK" ] && curl -sf --max-time 2 --unix-socket "$SOCK" http://engine/_ping >/dev/null 2>&1; }

start() {
  command -v podman >/dev/null 2>&1 || { echo "podman.sh: podman is not installed (apt-get install podman runc)" >&2; exit 1; }
  if running; then
    url
    return
  fi
  mkdir -p "$DIR/root" "$DIR/run" "$DIR/networks" "$DIR/tmp"
  rm -f "$SOCK"
  nohup podman --root "$DIR/root" --runroot "$DIR/run" --network-config-dir "$DIR/networks" \
    --tmpdir "$DIR/tmp" --runtime runc --cgroup-manager=cgroupfs --events-backend file \
    system service --time=0 "unix://$SOCK" >"$DIR/service.log" 2>&1 &
  echo $! >"$DIR/service.pid"
  for _ in $(seq 1 100); do
    running && { url; return; }
    sleep 0.1
  done
  echo "podman.sh: the API service did not start:" >&2
  tail -n 20 "$DIR/service.log" >&2
  exit 1
}

stop() {
  if [ -d "$DIR/root" ]; then
    pm rm -af -t 0 >/dev/null 2>&1 || true
    pm network prune -f >/dev/null 2>&1 || true
  fi
  if [ -f "$DIR/service.pid" ]; then
    kill "$(cat "$DIR/service.pid")" 2>/dev/null || true
  fi
  if [ -d "$DIR/root" ]; then
    pm system reset -f >/dev/null 2>&1 || true
  fi
  rm -rf "$DIR"
}

image() {
  local sum name tar
  sum=$(cat "$HERE/e2e/whoami/main.go" "$HERE/go.mod" | sha256sum | cut -c1-12)
  name=localhost/gatehouse-whoami:$sum
  tar=$CACHE/whoami-$sum.tar
  if [ ! -f "$tar" ]; then
    mkdir -p "$CACHE"
    local work
    work=$(mktemp -d)
    (cd "$HERE" && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$work/whoami" ./e2e/whoami)
    tar -C "$work" -cf "$tar.tmp" whoami
    mv "$tar.tmp" "$tar"
    rm -rf "$work"
  fi
  if ! pm image exists "$name" 2>/dev/null; then
    pm import -q --change 'ENTRYPOINT ["/whoami"]' --change 'EXPOSE 8080' "$tar" "$name" >/dev/null
  fi
  echo "$name"
}

case "${1:-}" in
  start) start ;;
  url)
    running || { echo "podman.sh: not running (scripts/podman.sh start)" >&2; exit 1; }
    url
    ;;
  stop) stop ;;
  image) image ;;
  podman)
    shift
    pm_user "$@"
    ;;
  check) command -v podman >/dev/null 2>&1 && command -v runc >/dev/null 2>&1 ;;
  mktemp) mktemp -d /tmp/gatehouse-podman.XXXXXX ;;
  *)
    echo "usage: $0 start|url|stop|image|podman ARGS|check|mktemp" >&2
    exit 2
    ;;
esac
