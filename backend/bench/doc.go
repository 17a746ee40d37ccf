// Package bench holds the performance measurements `make bench` prints
// (go test -tags bench -run '^TestBench' -v ./bench/...). Each TestBench<Name>
// starts the real app or service in-process (and a real Traefik where
// forward-auth is measured end to end), drives load against it (wrk, or
// timed requests), measures a baseline in the same run (a bare handler, a
// full rebuild, a warm cache) and prints a short table. Timings are printed,
// never asserted.
package bench
