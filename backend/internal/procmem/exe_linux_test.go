package procmem

import (
	"os"
	"testing"
)

func TestParseMaps(t *testing.T) {
	const exe = "/usr/local/bin/gatehouse"
	maps := `00400000-00403000 r--p 00000000 fe:00 42 /usr/local/bin/gatehouse
00403000-01168000 r-xp 00003000 fe:00 42 /usr/local/bin/gatehouse
01168000-01ff7000 r--p 00d68000 fe:00 42 /usr/local/bin/gatehouse
01ffa000-020ae000 rw-p 01bfa000 fe:00 42 /usr/local/bin/gatehouse
020ae000-040f6000 rw-p 00000000 00:00 0
7f00000000-7f00001000 r--p 00000000 fe:00 43 /usr/local/bin/gatehouse-other
7f10000000-7f10001000 r--s 00000000 fe:00 42 /usr/local/bin/gatehouse
7f20000000-7f20001000 r-xp 00000000 fe:00 44 /usr/lib/libc.so.6
bad line
zz-01 r--p 00000000 fe:00 42 /usr/local/bin/gatehouse
02000000-01000000 r--p 00000000 fe:00 42 /usr/local/bin/gatehouse
`
	got := parseMaps([]byte(maps), exe)
	want := []span{{0x400000, 0x3000}, {0x403000, 0x1168000 - 0x403000}, {0x1168000, 0x1ff7000 - 0x1168000}}
	if len(got) != len(want) {
		t.Fatalf("got %d spans %x, want %x", len(got), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("span %d: got %x, want %x", i, got[i], want[i])
		}
	}
}

// TestReleaseExecutable runs it on the test binary: the advice is only
// ever a hint, so the process goes on as before.
func TestReleaseExecutable(t *testing.T) {
	spans, err := exeRanges()
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) == 0 {
		t.Fatal("no read-only mapping of the executable found")
	}
	if err := ReleaseExecutable(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/proc/self/exe"); err != nil { // still running code after the advice
		t.Fatal(err)
	}
}

func TestMallocArenasLimited(t *testing.T) {
	if !MallocArenasLimited() {
		t.Skip("no glibc arena cap in this build")
	}
}
