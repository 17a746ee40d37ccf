package procmem

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ReleaseExecutable asks the kernel to read the executable's code and
// read-only data page by page as they are used, and to drop what start-up
// loaded so far. Go binaries keep their code and tables in two large
// segments (about 29 MB here) of which a running panel uses about half;
// without this a kernel that caches files in large folios maps the
// segments whole on the first touches, and they count in the resident set.
//
// MADV_RANDOM turns off read-ahead for the mappings, so a later fault reads
// only its page; MADV_PAGEOUT (Linux 5.4) reclaims the pages mapped so far
// that no other process maps. Both only ever change residency: a page
// dropped is read again from the file when touched, and the few pages the
// dynamic linker wrote (a read-only part of the data segment) are kept as
// they are, or swapped like any other. Writable mappings are left alone.
func ReleaseExecutable() error {
	ranges, err := exeRanges()
	if err != nil {
		return err
	}
	for _, r := range ranges {
		if err := madvise(r, unix.MADV_RANDOM); err != nil {
			return fmt.Errorf("madvise random: %w", err)
		}
		if err := madvise(r, unix.MADV_PAGEOUT); err != nil {
			return fmt.Errorf("madvise pageout: %w", err)
		}
	}
	return nil
}

// exeRanges returns the read-only mappings of the running executable, as
// /proc/self/maps lists them.
func exeRanges() ([]span, error) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return nil, err
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return nil, err
	}
	return parseMaps(maps, exe), nil
}

// parseMaps picks from a /proc/<pid>/maps listing the private read-only
// mappings of file (r--p, r-xp).
func parseMaps(maps []byte, file string) []span {
	var out []span
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		// address perms offset dev inode path
		f := strings.Fields(sc.Text())
		if len(f) < 6 || strings.Join(f[5:], " ") != file || len(f[1]) != 4 ||
			f[1][0] != 'r' || f[1][1] != '-' || f[1][3] != 'p' {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		out = append(out, span{start: uintptr(start), len: uintptr(end - start)})
	}
	return out
}

// span is a range of this process's address space.
type span struct{ start, len uintptr }

// madvise is madvise(2) on a span. The memory is named by its address, as
// the kernel takes it: x/sys/unix's Madvise wants a []byte over it.
func madvise(s span, advice int) error {
	if _, _, e := unix.Syscall(unix.SYS_MADVISE, s.start, s.len, uintptr(advice)); e != 0 {
		return e
	}
	return nil
}
