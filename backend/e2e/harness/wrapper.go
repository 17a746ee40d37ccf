package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// Wrapper is the real deploy/traefik-wrapper.sh running under a shell.
type Wrapper struct {
	Cmd  *exec.Cmd
	Out  *testutil.LockedBuffer // the wrapper's and Traefik's output
	done chan struct{}
	Err  error // the wrapper's exit, once Exited
}

// Shells are the shells the wrapper is tried with: sh, and busybox's ash
// (the official Traefik image's shell) when installed.
func Shells() [][]string {
	out := [][]string{{"sh"}}
	if p, err := exec.LookPath("busybox"); err == nil {
		out = append(out, []string{p, "sh"})
	}
	return out
}

// StartWrapper runs the wrapper under shell against the panel at panelURL,
// polling every second, with $TRAEFIK_BIN as its Traefik. The wrapper and its
// Traefik are killed when the test ends; the output is logged if the test
// failed or runs verbose.
func StartWrapper(t testing.TB, shell []string, panelURL string, extraEnv ...string) *Wrapper {
	t.Helper()
	bin := TraefikBin(t)
	script, err := filepath.Abs("../deploy/traefik-wrapper.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(shell[0], append(shell[1:], script)...)
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"GATEHOUSE_URL=" + panelURL,
		"GATEHOUSE_WRAPPER_TOKEN=" + WrapperToken,
		"GATEHOUSE_POLL_INTERVAL=1",
		"GATEHOUSE_CONFIG_DIR=" + t.TempDir(),
		"TRAEFIK_BIN=" + bin,
	}, extraEnv...)
	w := &Wrapper{Cmd: cmd, Out: &testutil.LockedBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = w.Out, w.Out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.Err = cmd.Wait(); close(w.done) }()
	t.Cleanup(func() {
		if pid := w.TraefikPID(); pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		_ = cmd.Process.Kill()
		<-w.done
		if t.Failed() || testing.Verbose() {
			t.Logf("wrapper output:\n%s", w.Out.String())
		}
	})
	return w
}

// TraefikPID finds the wrapper's Traefik child: its parent is the wrapper
// and its command line carries --configFile; 0 when there is none.
func (w *Wrapper) TraefikPID() int {
	return ChildPID(w.Cmd.Process.Pid, "--configFile=")
}

// PID is the wrapper's own process id.
func (w *Wrapper) PID() int { return w.Cmd.Process.Pid }

// Exited reports whether the wrapper has exited (Err then holds why).
func (w *Wrapper) Exited() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}
