// Package procmem trims the memory the process holds outside the Go heap:
// the pages of its own executable and the C allocator's arenas (SQLite's
// memory, through cgo). Both are hints to the kernel and to the C library:
// they change how much is resident, never what the program computes, and
// where a platform lacks them they do nothing.
package procmem

// MallocArenas is how many arenas the C allocator may keep (the main one
// included). glibc creates one per thread that meets contention, up to
// eight per core, each holding freed memory of its own; SQLite's
// allocations are few and short, and two arenas serve them as fast. The
// cap is set as the program loads, merely by linking this package in (see
// arenas_glibc.go): importing it is enough.
const MallocArenas = 2
