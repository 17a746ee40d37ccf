// Package procmem trims the memory the process holds outside the Go heap:
// the pages of its own executable and the C allocator's arenas (SQLite's
// memory, through cgo). Both are hints to the kernel and to the C library:
// they change how much is resident, never what the program computes, and
// where a platform lacks them they do nothing.
package procmem

// MallocArenas is how many arenas the C allocator may keep (the main one
// included). glibc creates one per thread that meets contention, up to
// eight per core, each holding freed memory of its own. SQLite is the only
// C code here and its allocations are small: glibc's per-thread caches
// serve most of them without taking the arena's lock, so one arena serves
// them as fast, with about 2 MB less kept (measured with 10,000 services
// and 5,000 sessions, against two). The cap is set as the program loads,
// merely by linking this package in (see arenas_glibc.go): importing it is
// enough.
const MallocArenas = 1
