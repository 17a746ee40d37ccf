package harness

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// Backend is a small upstream HTTP server.
type Backend struct {
	URL  string // http://127.0.0.1:<port>
	Host string // 127.0.0.1
	Port int
	Stop func()
}

// BackendReply is what every Backend answers, as JSON.
type BackendReply struct {
	Backend string            `json:"backend"`
	Host    string            `json:"host"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers"`
}

// StartBackend starts an HTTP server that answers every request with
// BackendReply naming itself. It stops when the test ends.
func StartBackend(t testing.TB, name string) *Backend {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := make(map[string]string, len(r.Header))
		for k := range r.Header {
			h[k] = r.Header.Get(k)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(BackendReply{Backend: name, Host: r.Host, Path: r.URL.Path, Headers: h})
	}))
	t.Cleanup(srv.Close)
	host, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	n, _ := strconv.Atoi(port)
	return &Backend{URL: srv.URL, Host: host, Port: n, Stop: srv.Close}
}
