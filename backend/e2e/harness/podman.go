package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Podman is a throwaway container engine (scripts/podman.sh): podman's
// Docker-compatible API on a unix socket, with storage of its own.
type Podman struct {
	// Host is the engine's address for PANEL_DOCKER_HOST.
	Host string
	// Image is the test image: the whoami server of e2e/whoami, answering
	// "name=$NAME addrs=…" on port 8080.
	Image  string
	dir    string
	script string
}

// StartPodman starts the engine, removed when the test ends. Without
// podman (or runc) the test skips, saying what to install.
func StartPodman(t testing.TB) *Podman {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "scripts", "podman.sh")
	if err := exec.Command(script, "check").Run(); err != nil {
		t.Skip("podman is not installed (apt-get install podman runc): the container scenarios need a real engine API")
	}
	p := &Podman{dir: t.TempDir(), script: script}
	p.Host = p.script1(t, "start")
	t.Cleanup(func() {
		if out, err := p.command("stop").CombinedOutput(); err != nil {
			t.Logf("podman.sh stop: %v\n%s", err, out)
		}
	})
	p.Image = p.script1(t, "image")
	return p
}

func (p *Podman) command(args ...string) *exec.Cmd {
	cmd := exec.Command(p.script, args...)
	cmd.Env = append(os.Environ(), "GATEHOUSE_PODMAN_DIR="+p.dir)
	return cmd
}

func (p *Podman) script1(t testing.TB, args ...string) string {
	t.Helper()
	cmd := p.command(args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("podman.sh %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// Run runs podman with args (run and create get the ulimits these
// machines need) and returns its output.
func (p *Podman) Run(t testing.TB, args ...string) string {
	t.Helper()
	return p.script1(t, append([]string{"podman"}, args...)...)
}
