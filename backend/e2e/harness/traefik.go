package harness

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// TraefikBin returns $TRAEFIK_BIN, or skips the test with how to get one.
func TraefikBin(t testing.TB) string {
	t.Helper()
	return traefikBinFrom(t, "TRAEFIK_BIN")
}

// TraefikBinary is a Traefik binary and the version it reports.
type TraefikBinary struct {
	Version string // as `traefik version` prints it, e.g. "3.7.11"
	Path    string
}

// Name is the subtest name for the binary, e.g. "v3.7.11".
func (b TraefikBinary) Name() string { return "v" + b.Version }

// AtLeast reports whether the binary's version is major.minor or later.
func (b TraefikBinary) AtLeast(major, minor int) bool {
	parts := strings.SplitN(b.Version, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	return err1 == nil && err2 == nil && (ma > major || ma == major && mi >= minor)
}

// TraefikBinaries returns the Traefik binaries the version-sensitive
// scenarios run against: $TRAEFIK_BIN (3.6) and $TRAEFIK_BIN_37 (3.7). A
// scenario calls ForEachTraefik, which skips a version whose variable is not
// set; `make e2e-go` sets both.
func TraefikBinaries(t testing.TB) []TraefikBinary {
	t.Helper()
	var out []TraefikBinary
	for _, env := range []string{"TRAEFIK_BIN", "TRAEFIK_BIN_37"} {
		path := os.Getenv(env)
		if path == "" {
			continue
		}
		out = append(out, TraefikBinary{Version: traefikVersion(t, traefikBinFrom(t, env)), Path: path})
	}
	if len(out) == 0 {
		t.Skip("TRAEFIK_BIN and TRAEFIK_BIN_37 are not set: run `make e2e` (it builds and caches Traefik via backend/scripts/traefik.sh)")
	}
	return out
}

// ForEachTraefik runs fn as a subtest named after each binary's version.
func ForEachTraefik(t *testing.T, fn func(t *testing.T, bin TraefikBinary)) {
	t.Helper()
	for _, bin := range TraefikBinaries(t) {
		t.Run(bin.Name(), func(t *testing.T) { fn(t, bin) })
	}
}

func traefikBinFrom(t testing.TB, env string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		t.Skipf("%s is not set: run `make e2e` (it builds and caches Traefik via backend/scripts/traefik.sh)", env)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s=%s: %v", env, bin, err)
	}
	return bin
}

// traefikVersion reads the "Version:" line of `traefik version`.
func traefikVersion(t testing.TB, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", bin, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Version:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("%s version printed no version:\n%s", bin, out)
	return ""
}

// TraefikOptions configures StartTraefik.
type TraefikOptions struct {
	Bin         string // the binary to run; empty for $TRAEFIK_BIN
	ProviderURL string // HTTP provider endpoint (the panel's /api/proxy/config); empty for none
	FileDir     string // optional file provider directory (watched)
	Static      string // optional extra static configuration (YAML), merged over the defaults
	APIPort     int    // the "traefik" entrypoint's port; 0 for a free one
}

// Traefik is a running Traefik.
type Traefik struct {
	WebURL       string // http://127.0.0.1:<port>, the plain "web" entrypoint
	WebsecureURL string // https://127.0.0.1:<port>, the TLS "websecure" entrypoint (default cert)
	APIURL       string // http://127.0.0.1:<port>, the "traefik" entrypoint: /api, /ping
	MetricsURL   string // APIURL + /metrics (Prometheus)
	LogFile      string
	Stop         func()
}

// StartTraefik runs the real Traefik binary with entrypoints web, websecure
// (TLS with Traefik's default self-signed certificate) and traefik (API,
// ping and Prometheus metrics) on free loopback ports, and waits until its API
// answers. Traefik is killed when the test ends; its log is printed if the
// test failed.
func StartTraefik(t testing.TB, o TraefikOptions) *Traefik {
	t.Helper()
	bin := o.Bin
	if bin == "" {
		bin = TraefikBin(t)
	}
	dir := t.TempDir()
	web, websecure, api := FreePort(t), FreePort(t), o.APIPort
	if api == 0 {
		api = FreePort(t)
	}
	logFile := filepath.Join(dir, "traefik.log")

	static := map[string]any{
		"entryPoints": map[string]any{
			"web":       map[string]any{"address": loopback(web)},
			"websecure": map[string]any{"address": loopback(websecure), "http": map[string]any{"tls": map[string]any{}}},
			"traefik":   map[string]any{"address": loopback(api)},
		},
		"api":  map[string]any{"insecure": true, "dashboard": false},
		"ping": map[string]any{"entryPoint": "traefik"},
		"metrics": map[string]any{"prometheus": map[string]any{
			"entryPoint": "traefik", "addEntryPointsLabels": true,
			"addRoutersLabels": true, "addServicesLabels": true,
		}},
		"log":    map[string]any{"level": "INFO", "filePath": logFile},
		"global": map[string]any{"checkNewVersion": false, "sendAnonymousUsage": false},
	}
	providers := map[string]any{}
	if o.ProviderURL != "" {
		providers["http"] = map[string]any{"endpoint": o.ProviderURL, "pollInterval": "1s", "pollTimeout": "5s"}
	}
	if o.FileDir != "" {
		providers["file"] = map[string]any{"directory": o.FileDir, "watch": true}
	}
	if len(providers) > 0 {
		static["providers"] = providers
	}
	if o.Static != "" {
		var extra map[string]any
		if err := yaml.Unmarshal([]byte(o.Static), &extra); err != nil {
			t.Fatalf("TraefikOptions.Static: %v", err)
		}
		merge(static, extra)
	}
	b, err := yaml.Marshal(static)
	if err != nil {
		t.Fatalf("encode traefik static config: %v", err)
	}
	cfgFile := filepath.Join(dir, "traefik.yml")
	if err := os.WriteFile(cfgFile, b, 0o600); err != nil {
		t.Fatalf("write traefik static config: %v", err)
	}

	var out bytes.Buffer
	cmd := exec.Command(bin, "--configFile="+cfgFile)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start traefik: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Kill()
		<-exited
	}
	tr := &Traefik{
		WebURL: "http://" + loopback(web), WebsecureURL: "https://" + loopback(websecure),
		APIURL: "http://" + loopback(api), LogFile: logFile, Stop: stop,
	}
	tr.MetricsURL = tr.APIURL + "/metrics"
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			logs, _ := os.ReadFile(logFile)
			t.Logf("traefik static config:\n%s\ntraefik output:\n%s\ntraefik log:\n%s", b, out.String(), logs)
		}
	})

	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			logs, _ := os.ReadFile(logFile)
			t.Fatalf("traefik exited during start-up:\n%s\n%s", out.String(), logs)
		default:
		}
		if resp, err := http.Get(tr.APIURL + "/api/entrypoints"); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return tr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("traefik API did not answer within 30s at %s", tr.APIURL)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Router is one entry of Traefik's /api/http/routers.
type Router struct {
	Name        string   `json:"name"`
	Provider    string   `json:"provider"`
	Status      string   `json:"status"`
	Rule        string   `json:"rule"`
	Service     string   `json:"service"`
	EntryPoints []string `json:"entryPoints"`
	Middlewares []string `json:"middlewares"`
	Error       []string `json:"error"`
	TLS         any      `json:"tls"`
}

// Routers lists Traefik's HTTP routers (nil if the API did not answer).
func (tr *Traefik) Routers(t testing.TB) []Router {
	t.Helper()
	resp, err := http.Get(tr.APIURL + "/api/http/routers?per_page=1000")
	if err != nil {
		return nil
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	var rs []Router
	if err := json.NewDecoder(resp.Body).Decode(&rs); err != nil {
		t.Fatalf("decode traefik routers: %v", err)
	}
	return rs
}

// Get sends a GET through the entrypoint at base (WebURL or WebsecureURL)
// with the given Host header and returns status and body. A transport error
// is reported as status 0 with the error text as body.
func (tr *Traefik) Get(base, host, path string) (int, string) {
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		return 0, err.Error()
	}
	req.Host = host
	c := NoRedirectClient()
	// Send the host as SNI too, as a browser would.
	c.Transport.(*http.Transport).TLSClientConfig.ServerName = host
	resp, err := c.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// insecureTransport skips certificate checks: Traefik's default certificate
// is self-signed.
func insecureTransport() *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // test client against a self-signed proxy
	tr.DisableKeepAlives = true
	return tr
}

// merge copies src into dst recursively (maps merge, other values replace).
func merge(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				merge(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// String describes the entrypoints, for test logs.
func (tr *Traefik) String() string {
	return fmt.Sprintf("traefik web=%s websecure=%s api=%s", tr.WebURL, tr.WebsecureURL, tr.APIURL)
}
