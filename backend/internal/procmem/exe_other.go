//go:build !linux

package procmem

// ReleaseExecutable does nothing here: it relies on Linux's madvise.
func ReleaseExecutable() error { return nil }
