package runtime

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

var views = []string{
	"/api/proxy/entrypoints", "/api/proxy/middlewares", "/api/proxy/cert-resolvers",
	"/api/proxy/runtime", "/api/proxy/metrics", "/api/proxy/conflicts",
	"/api/proxy/certificates", "/api/proxy/health", "/api/proxy/health?probe=true",
}

// TestEveryViewDegradesTo200 proves no view answers 5xx when Traefik is not
// configured, refuses connections, hangs, or sends something else.
func TestEveryViewDegradesTo200(t *testing.T) {
	garbage := map[string]string{}
	for p := range traefik36() {
		garbage[p] = "body:<html>not traefik</html>"
	}
	failing := map[string]string{}
	for p := range traefik36() {
		failing[p] = "status:500"
	}
	tests := []struct {
		name       string
		files      map[string]string // nil: no Traefik at all
		url        string            // overrides the fake's URL
		delay      time.Duration
		configured bool
		errPart    string
	}{
		{name: "not configured", errPart: "PANEL_PROXY_API_URL"},
		{name: "connection refused", url: "http://127.0.0.1:1", configured: true, errPart: "connection refused"},
		{name: "timeout", files: traefik36(), delay: 2 * time.Second, configured: true, errPart: "no answer within"},
		{name: "garbage", files: garbage, configured: true, errPart: "unreadable answer"},
		{name: "http 500", files: failing, configured: true, errPart: "HTTP 500"},
		{name: "credentials in the URL stay out of messages", url: "http://user:s3cret@127.0.0.1:1", configured: true, errPart: "connection refused"}, //nolint:gosec // a made-up credential the test proves is redacted
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.addService("grafana", []string{"grafana.example.test"}, []string{"web"}, nil)
			url := tt.url
			if tt.files != nil {
				tr := newFakeTraefik(t, tt.files)
				tr.delay = tt.delay
				url = tr.URL
			}
			if url != "" {
				e.deps.Client = e.client(url, ClientOptions{Timeout: 200 * time.Millisecond})
				s, err := NewScraper(url+"/metrics", 200*time.Millisecond, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				s.Scrape(context.Background())
				e.deps.Scraper = s
			}
			e.deps.Owners = fakeOwners{}
			srv := serve(t, e.deps)
			for _, path := range views {
				var v map[string]any
				if code := get(t, srv, path, &v); code != http.StatusOK {
					t.Fatalf("GET %s = %d %v", path, code, v)
				}
				if v["configured"] != tt.configured || v["reachable"] != false {
					t.Errorf("GET %s: configured=%v reachable=%v", path, v["configured"], v["reachable"])
				}
				msg, _ := v["error"].(string)
				if path != "/api/proxy/metrics" && !strings.Contains(msg, tt.errPart) {
					t.Errorf("GET %s: error %q does not mention %q", path, msg, tt.errPart)
				}
				if strings.Contains(msg, "s3cret") {
					t.Errorf("GET %s: error leaks the password: %q", path, msg)
				}
				if _, ok := v["items"]; !ok && path != "/api/proxy/runtime" {
					t.Errorf("GET %s: no items: %v", path, v)
				}
			}
		})
	}
}

// TestConcurrentCallersShareOneFetch: twenty concurrent views cause one
// request to Traefik, and the answer is reused until the cache expires.
func TestConcurrentCallersShareOneFetch(t *testing.T) {
	tr := newFakeTraefik(t, traefik36())
	tr.delay = 50 * time.Millisecond
	clock := time.Unix(0, 0)
	var mu sync.Mutex
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	c, _ := NewClient(tr.URL, ClientOptions{Now: now, CacheTTL: 3 * time.Second})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.rawData(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := tr.hits.Load(); n != 1 {
		t.Fatalf("%d fetches, want 1", n)
	}
	_, _ = c.rawData(context.Background())
	if n := tr.hits.Load(); n != 1 {
		t.Fatalf("cached answer not reused: %d fetches", n)
	}
	mu.Lock()
	clock = clock.Add(4 * time.Second)
	mu.Unlock()
	_, _ = c.rawData(context.Background())
	if n := tr.hits.Load(); n != 2 {
		t.Fatalf("expired answer reused: %d fetches", n)
	}
}

// TestCallerGivingUpDoesNotFailOthers: the shared fetch runs on its own
// timeout, so a cancelled caller does not poison the cache.
func TestCallerGivingUpDoesNotFailOthers(t *testing.T) {
	tr := newFakeTraefik(t, traefik36())
	tr.delay = 100 * time.Millisecond
	c, _ := NewClient(tr.URL, ClientOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.rawData(ctx); err == nil {
		t.Fatal("cancelled caller got an answer")
	}
	if _, err := c.rawData(context.Background()); err != nil {
		t.Fatalf("second caller: %v", err)
	}
	if n := tr.hits.Load(); n != 1 {
		t.Fatalf("%d fetches, want 1", n)
	}
}

func TestNewClientValidatesTheURL(t *testing.T) {
	if c, err := NewClient("", ClientOptions{}); c != nil || err != nil {
		t.Fatalf("empty URL = %v, %v", c, err)
	}
	for _, bad := range []string{"traefik:8080", "ftp://traefik", "http://"} {
		if _, err := NewClient(bad, ClientOptions{}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
