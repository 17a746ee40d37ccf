// Package bench holds the performance measurements `make bench` prints
// (go test -tags bench -run '^TestBench' -v ./bench/...). Each TestBench<Name>
// starts the real app or service in-process, drives load with wrk against it
// and against a bare baseline handler in the same run, and prints a short
// table. Timings are printed, never asserted.
package bench
