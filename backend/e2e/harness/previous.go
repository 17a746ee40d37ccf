package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// PreviousRelease is the commit of the release before the current one: the
// upgrade scenarios run its binary on a fresh data directory, then the
// current code on that directory. Move it forward with each release.
const PreviousRelease = "5b5ecb7"

// BuildPreviousRelease builds cmd/gatehouse of PreviousRelease (with the
// committed SPA placeholder), from the repository's own history, once: the
// binary is kept in ~/.cache/gatehouse/previous/<commit>. Without the
// commit in the history (a shallow clone), the test is skipped and says so.
func BuildPreviousRelease(t testing.TB) string {
	t.Helper()
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(home, ".cache", "gatehouse", "previous", PreviousRelease, "gatehouse")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if out, err := exec.Command("git", "cat-file", "-e", PreviousRelease+"^{commit}").CombinedOutput(); err != nil {
		t.Skipf("the previous release %s is not in this clone's history (a shallow clone?): %v %s", PreviousRelease, err, out)
	}
	src := t.TempDir()
	archive := exec.Command("sh", "-c", `cd "$(git rev-parse --show-toplevel)" && git archive "$1" backend | tar -x -C "$2"`, "sh", PreviousRelease, src)
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("git archive %s: %v\n%s", PreviousRelease, err, out)
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := bin + ".tmp"
	build := exec.Command("go", "build", "-o", tmp, "./cmd/gatehouse")
	build.Dir = filepath.Join(src, "backend")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build the previous release %s: %v\n%s", PreviousRelease, err, strings.TrimSpace(string(out)))
	}
	if err := os.Rename(tmp, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// Stop ends the process with SIGTERM, as a service manager does before an
// upgrade, and waits for its graceful shutdown.
func (r *Replica) Stop() {
	if r.cmd.Process == nil {
		return
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	<-r.done
}
