package harness

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"filippo.io/age"

	"github.com/gatehouse-proxy/gatehouse/internal/managed"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// AgeIdentity returns a new age identity in the form PANEL_AGE_IDENTITY
// takes: every replica of one panel must share it to open what another
// sealed.
func AgeIdentity(t testing.TB) string {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	return id.String()
}

// Replica is one panel process of the real binary, signed in as the
// administrator.
type Replica struct {
	*Panel
	Name string
	Port int
	Log  *testutil.LockedBuffer // the process's output
	cmd  *exec.Cmd
	done chan struct{}
}

// StartReplica runs bin as a panel on 127.0.0.1:<free port> with its own
// data directory and env on top of the defaults (PANEL_DATABASE_URL, shared
// by the replicas of one panel, comes in env), waits for /api/health and
// signs in. The process is killed when the test ends; its output is printed
// if the test failed. Start replicas one after the other: the first one
// migrates the database and creates the administrator.
func StartReplica(t testing.TB, bin, name string, env map[string]string) *Replica {
	t.Helper()
	port := FreePort(t)
	dir := t.TempDir()
	vars := map[string]string{
		"PANEL_LISTEN":         loopback(port),
		"PANEL_DATA_DIR":       dir,
		"PANEL_ADMIN_USER":     AdminUser,
		"PANEL_ADMIN_PASSWORD": AdminPassword,
		"PANEL_LOG_LEVEL":      "warn",
	}
	for k, v := range env {
		vars[k] = v
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	r := &Replica{Name: name, Port: port, Log: &testutil.LockedBuffer{}, cmd: cmd, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = r.Log, r.Log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start replica %s: %v", name, err)
	}
	go func() { _ = cmd.Wait(); close(r.done) }()
	t.Cleanup(func() {
		r.Kill()
		if t.Failed() {
			t.Logf("replica %s output:\n%s", name, r.Log.String())
		}
	})
	base := "http://" + loopback(port)
	deadline := time.Now().Add(60 * time.Second)
	for !Healthy(base) {
		select {
		case <-r.done:
			t.Fatalf("replica %s exited during start-up:\n%s", name, r.Log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %s did not answer /api/health within 60s:\n%s", name, r.Log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.Panel = signIn(t, base, dir)
	return r
}

// PID is the process's id.
func (r *Replica) PID() int { return r.cmd.Process.Pid }

// Kill ends the process with SIGKILL (no graceful shutdown) and waits for it.
func (r *Replica) Kill() {
	if r.cmd.Process == nil {
		return
	}
	_ = r.cmd.Process.Signal(syscall.SIGKILL)
	<-r.done
}

// Healthy reports whether the panel at base answers /api/health with 200.
func Healthy(base string) bool {
	c := &http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(base + "/api/health")
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// ReplicaBalancer is the Traefik configuration that puts several replicas
// behind one loopback entrypoint, "gatehouse", as the forward-auth address
// of every replica (PANEL_INTERNAL_URL) names it: a router for every path,
// a retry on connection errors, and a load balancer that leaves out a
// replica whose /api/health fails (checked every second).
type ReplicaBalancer struct {
	Port int // the entrypoint's loopback port
}

// URL is the entrypoint's address, for PANEL_INTERNAL_URL.
func (b ReplicaBalancer) URL() string { return "http://" + loopback(b.Port) }

// Static is the static configuration that adds the entrypoint
// (TraefikOptions.Static). It trusts the X-Forwarded-* headers that come
// from loopback: they are what forwardAuth sends to the verify address,
// and an entrypoint removes them from a client it does not trust, which
// leaves the panel unable to tell which request it is asked about.
func (b ReplicaBalancer) Static() string {
	return fmt.Sprintf("entryPoints:\n  gatehouse:\n    address: %q\n"+
		"    forwardedHeaders:\n      trustedIPs: [\"127.0.0.1/32\", \"::1/128\"]\n", loopback(b.Port))
}

// Write writes the file provider's dynamic configuration for servers (the
// replicas' base URLs) into dir (TraefikOptions.FileDir): the one managed
// mode hands the wrapper (managed.BuildReplicas).
func (b ReplicaBalancer) Write(t testing.TB, dir string, servers ...string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "replicas.yml"), managed.BuildReplicas(servers), 0o600); err != nil {
		t.Fatal(err)
	}
}

// EstablishedTo counts the established TCP connections whose local port is
// port (a server's accepted connections), from /proc/net/tcp.
func EstablishedTo(port int) int {
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return -1
	}
	want := fmt.Sprintf(":%04X", port)
	n := 0
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		// sl local_address rem_address st ...; 01 is ESTABLISHED.
		if len(f) > 3 && strings.HasSuffix(f[1], want) && f[3] == "01" {
			n++
		}
	}
	return n
}
