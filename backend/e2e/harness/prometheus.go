package harness

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Prometheus is a running Prometheus (Debian's prometheus package), started
// from its binary in a temporary directory, never as a system service.
type Prometheus struct {
	URL string // http://127.0.0.1:<port>
}

// PrometheusBin returns the prometheus binary ($PROMETHEUS_BIN, else the
// one on PATH), or skips the test without one.
func PrometheusBin(t testing.TB) string {
	t.Helper()
	if b := os.Getenv("PROMETHEUS_BIN"); b != "" {
		return b
	}
	b, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed (apt-get install prometheus)")
	}
	return b
}

// StartPrometheus runs Prometheus scraping targets (host:port, path
// /metrics) every second, with its data in a temporary directory, and
// waits until it is ready. It is killed when the test ends; its output is
// printed if the test failed.
func StartPrometheus(t testing.TB, targets ...string) *Prometheus {
	t.Helper()
	bin := PrometheusBin(t)
	dir := t.TempDir()
	quoted := make([]string, len(targets))
	for i, tg := range targets {
		quoted[i] = strconv.Quote(tg)
	}
	cfg := fmt.Sprintf(`global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: traefik
    metrics_path: /metrics
    static_configs:
      - targets: [%s]
`, strings.Join(quoted, ", "))
	cfgFile := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	port := FreePort(t)
	var out bytes.Buffer
	cmd := exec.Command(bin, "--config.file="+cfgFile, "--storage.tsdb.path="+filepath.Join(dir, "data"), //nolint:gosec // the test's own binary and paths
		"--web.listen-address="+loopback(port), "--log.level=warn")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start prometheus: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("prometheus config:\n%s\nprometheus output:\n%s", cfg, out.String())
		}
	})
	p := &Prometheus{URL: "http://" + loopback(port)}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			t.Fatalf("prometheus exited during start-up:\n%s", out.String())
		default:
		}
		if resp, err := http.Get(p.URL + "/-/ready"); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus was not ready within 30s:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
