package testutil

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update is the -update flag of every test binary that imports testutil.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Golden compares got with the file at path (testdata/<name>.golden.<ext>).
// With -update it writes got there instead; review the diff before
// committing it.
func Golden(tb testing.TB, path string, got []byte) {
	tb.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o600); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path) //nolint:gosec // a test's own golden file
	if err != nil {
		tb.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("%s differs from the golden file (go test -update rewrites it after review):\n%s", path, got)
	}
}

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }
