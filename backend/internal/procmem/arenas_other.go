//go:build !linux || !cgo

package procmem

// MallocArenasLimited is false without cgo on Linux: there is no C
// allocator of glibc's kind to tune.
func MallocArenasLimited() bool { return false }
