package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"sync"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/app"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// Admin credentials of every panel the harness starts.
const (
	AdminUser     = "admin"
	AdminPassword = "e2e-admin-password"
)

// Panel is a running Gatehouse.
type Panel struct {
	URL     string       // http://127.0.0.1:<port>
	DataDir string       // the temporary PANEL_DATA_DIR
	Client  *http.Client // carries the admin session cookie
	stop    func()       // ends an in-process panel; nil for others
}

// Stop ends an in-process panel (StartPanel) now rather than when the test
// ends, waiting for app.Run to return; it does nothing for other panels.
func (p *Panel) Stop() {
	if p.stop != nil {
		p.stop()
	}
}

// StartPanel runs app.Run in-process on 127.0.0.1:0 with a temporary data
// directory and env on top of the defaults, bootstraps the administrator and
// signs in. The panel stops when the test ends; its log is printed if the
// test failed.
func StartPanel(t testing.TB, env map[string]string) *Panel {
	t.Helper()
	dir := t.TempDir()
	vars := map[string]string{
		"PANEL_LISTEN":         "127.0.0.1:0",
		"PANEL_DATA_DIR":       dir,
		"PANEL_ADMIN_USER":     AdminUser,
		"PANEL_ADMIN_PASSWORD": AdminPassword,
		"PANEL_LOG_LEVEL":      "info",
	}
	for k, v := range env {
		vars[k] = v
	}
	if d, ok := vars["PANEL_DATA_DIR"]; ok {
		dir = d
	}
	logs := &testutil.LockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan int, 1)
	go func() {
		done <- app.Run(ctx, app.Options{
			Args:   []string{"serve"},
			Getenv: func(k string) string { return vars[k] },
			Stdout: logs, Stderr: logs,
			Ready: func(addr string) { ready <- addr },
		})
	}()
	var addr string
	select {
	case addr = <-ready:
	case code := <-done:
		cancel()
		t.Fatalf("panel exited with code %d before listening:\n%s", code, logs.String())
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatalf("panel did not listen within 30s:\n%s", logs.String())
	}
	stop := sync.OnceFunc(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Errorf("panel did not stop within 15s")
		}
	})
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("panel log:\n%s", logs.String())
		}
	})

	p := signIn(t, "http://"+addr, dir)
	p.stop = stop
	return p
}

// signIn signs in to the panel at base as the administrator the harness
// bootstraps and returns it with the session in its client.
func signIn(t testing.TB, base, dataDir string) *Panel {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatalf("cookie jar: %v", err)
	}
	p := &Panel{URL: base, DataDir: dataDir, Client: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	var out map[string]any
	if code := p.JSON(t, http.MethodPost, "/api/admin/login",
		map[string]string{"username": AdminUser, "password": AdminPassword}, &out); code != http.StatusOK {
		t.Fatalf("sign in to the panel: status %d %v", code, out)
	}
	return p
}

// JSON sends an admin-authenticated request with body encoded as JSON (nil
// for none), decodes the answer into out (if non-nil and the answer has a
// body) and returns the status code. Transport errors fail the test.
func (p *Panel) JSON(t testing.TB, method, path string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("encode %s %s body: %v", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, p.URL+path, rd)
	if err != nil {
		t.Fatalf("build %s %s: %v", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := p.Client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s %s: %v", method, path, err)
	}
	if out != nil && len(bytes.TrimSpace(b)) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("decode %s %s (status %d): %v\n%s", method, path, resp.StatusCode, err, b)
		}
	}
	return resp.StatusCode
}

// MustJSON is JSON that fails the test unless the status is want.
func (p *Panel) MustJSON(t testing.TB, want int, method, path string, body, out any) {
	t.Helper()
	var raw json.RawMessage
	code := p.JSON(t, method, path, body, &raw)
	if code != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, code, want, raw)
	}
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("decode %s %s: %v", method, path, err)
		}
	}
}
