package runtime

import (
	"context"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// recorded builds the recorded Traefik 3.6.12 setup: panel services grafana
// (routers gh-grafana-web, gh-grafana-websecure) and wiki (gh-wiki-web, which
// names a middleware Traefik does not have), next to file-provider routers
// legacy (same host as grafana on web) and catchall (HostRegexp).
func recorded(t *testing.T, files map[string]string) (*env, *fakeTraefik, string, string) {
	t.Helper()
	e := newEnv(t)
	grafana := e.addService("grafana", []string{"grafana.example.test"}, []string{"web", "websecure"}, nil,
		store.Target{Scheme: "http", Host: "127.0.0.1", Port: 28091}, store.Target{Scheme: "http", Host: "127.0.0.1", Port: 28092})
	wiki := e.addService("wiki", []string{"wiki.example.test"}, []string{"web"}, []string{"missing@file"})
	tr := newFakeTraefik(t, files)
	e.deps.Client = e.client(tr.URL, ClientOptions{})
	e.deps.Owners = fakeOwners{"gh-grafana-web": grafana, "gh-grafana-websecure": grafana, "gh-wiki-web": wiki}
	return e, tr, grafana, wiki
}

func TestEntrypointsFromRecordedTraefik(t *testing.T) {
	e, _, _, _ := recorded(t, traefik36())
	var v EntrypointsView
	if code := get(t, serve(t, e.deps), "/api/proxy/entrypoints", &v); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if !v.Configured || !v.Reachable || v.Error != "" {
		t.Fatalf("status = %+v", v.Status)
	}
	want := []Entrypoint{
		{Name: "dns", Address: "127.0.0.1:28053/udp", Protocol: "udp"},
		{Name: "traefik", Address: "127.0.0.1:28081", Protocol: "tcp"},
		{Name: "web", Address: "127.0.0.1:28080", Protocol: "tcp"},
		{Name: "websecure", Address: "127.0.0.1:28443", TLS: true, CertResolver: "le", Protocol: "tcp"},
	}
	if !reflect.DeepEqual(v.Items, want) {
		t.Fatalf("items = %+v\nwant %+v", v.Items, want)
	}
}

func TestMiddlewaresHideInternalAndPanelOwn(t *testing.T) {
	e, _, _, _ := recorded(t, traefik36())
	var v MiddlewaresView
	get(t, serve(t, e.deps), "/api/proxy/middlewares", &v)
	if len(v.Items) != 1 {
		t.Fatalf("items = %+v", v.Items)
	}
	m := v.Items[0]
	if m.Name != "compress@file" || m.Provider != "file" || m.Type != "compress" || m.Status != "enabled" {
		t.Fatalf("middleware = %+v", m)
	}
}

func TestRuntimeAttributesRoutersAndServices(t *testing.T) {
	e, _, grafana, wiki := recorded(t, traefik36())
	var v View
	get(t, serve(t, e.deps), "/api/proxy/runtime", &v)
	if !v.Reachable || v.Version != "3.6.12" || !v.OwnersKnown {
		t.Fatalf("view = %+v", v.Status)
	}
	routers := map[string]Router{}
	for _, r := range v.Routers {
		routers[r.Name] = r
	}
	tests := []struct {
		name, serviceID, status string
		errors                  int
	}{
		{"gh-grafana-web@http", grafana, "enabled", 0},
		{"gh-grafana-websecure@http", grafana, "enabled", 0},
		{"gh-wiki-web@http", wiki, "disabled", 1},
		{"legacy@file", "", "enabled", 0},
		{"websecure-catchall@file", "", "enabled", 0},
		{"api@internal", "", "enabled", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := routers[tt.name]
			if !ok {
				t.Fatalf("router missing from %v", v.Routers)
			}
			if r.ServiceID != tt.serviceID || r.Status != tt.status || len(r.Errors) != tt.errors {
				t.Fatalf("router = %+v", r)
			}
		})
	}
	if r := routers["legacy@file"]; r.Priority != 56 || r.Provider != "file" || !reflect.DeepEqual(r.EntryPoints, []string{"web"}) {
		t.Fatalf("legacy = %+v", r)
	}
	if r := routers["api@internal"]; r.Priority < 1<<62 {
		t.Fatalf("internal priority = %d", r.Priority)
	}
	var gs TraefikService
	for _, s := range v.Services {
		if s.Name == "gh-grafana@http" {
			gs = s
		}
	}
	if gs.ServiceID != grafana || gs.ServersUp != 1 || gs.ServersTotal != 2 || gs.Type != "loadbalancer" {
		t.Fatalf("gh-grafana = %+v", gs)
	}
	if len(v.TCPRouters) != 1 || v.TCPRouters[0].Name != "db@file" || len(v.UDPRouters) != 1 || v.UDPRouters[0].Name != "dns@file" {
		t.Fatalf("tcp %+v udp %+v", v.TCPRouters, v.UDPRouters)
	}
	if len(v.Entrypoints) != 4 || len(v.Middlewares) != 4 {
		t.Fatalf("entrypoints %d middlewares %d", len(v.Entrypoints), len(v.Middlewares))
	}
}

func TestConflictsAttributedToTheRightService(t *testing.T) {
	e, _, grafana, wiki := recorded(t, traefik36())
	var v ConflictsView
	get(t, serve(t, e.deps), "/api/proxy/conflicts", &v)
	type key struct{ service, kind, host, router, middleware, eps string }
	got := map[key]Conflict{}
	for _, c := range v.Items {
		got[key{c.ServiceID, c.Kind, c.Host, c.Router, c.Middleware, strings.Join(c.Entrypoints, ",")}] = c
	}
	want := []key{
		{grafana, KindHost, "grafana.example.test", "legacy@file", "", "web"},
		{grafana, KindHost, "grafana.example.test", "catchall@file", "", "web"},
		{grafana, KindHost, "grafana.example.test", "websecure-catchall@file", "", "websecure"},
		{wiki, KindHost, "wiki.example.test", "catchall@file", "", "web"},
		{wiki, KindMissingMiddleware, "", "", "missing@file", ""},
	}
	for _, k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("missing conflict %+v", k)
		}
	}
	if len(v.Items) != len(want) {
		t.Errorf("got %d conflicts, want %d: %+v", len(v.Items), len(want), v.Items)
	}
	legacy := got[want[0]]
	if legacy.Priority != 56 || legacy.PanelPriority != 28 || !strings.Contains(legacy.Message, "it wins") {
		t.Errorf("legacy conflict = %+v", legacy)
	}
}

func TestConflictsWithoutOwnersUseTheDatabase(t *testing.T) {
	e, _, grafana, _ := recorded(t, traefik36())
	e.deps.Owners = nil
	var v ConflictsView
	get(t, serve(t, e.deps), "/api/proxy/conflicts", &v)
	found := false
	for _, c := range v.Items {
		if strings.HasPrefix(c.Router, "gh-") {
			t.Errorf("the panel's own router reported: %+v", c)
		}
		if c.ServiceID == grafana && c.Router == "legacy@file" {
			found = true
		}
	}
	if !found {
		t.Errorf("legacy@file not reported against grafana: %+v", v.Items)
	}
}

func TestCertResolversFromEverySource(t *testing.T) {
	e, _, _, _ := recorded(t, traefik36())
	ctx := context.Background()
	if _, err := e.domains.Create(ctx, domains.Request{Name: "Home", Domain: "example.test", CertResolver: "letsencrypt",
		CertConfigs: []store.CertConfig{{Main: "example.org", Resolver: "dns"}}}); err != nil {
		t.Fatal(err)
	}
	e.deps.Managed = managedResolvers{"letsencrypt", "staging"}
	var v CertResolversView
	get(t, serve(t, e.deps), "/api/proxy/cert-resolvers", &v)
	want := []CertResolver{
		{Name: "dns", Sources: []string{"domain:example.test"}},
		// Traefik copies the entrypoint's TLS onto the router it splits off.
		{Name: "le", Sources: []string{"entrypoint:websecure", "router:websecure-catchall@file"}},
		{Name: "letsencrypt", Sources: []string{"domain:example.test", "managed"}},
		{Name: "staging", Sources: []string{"managed"}},
	}
	if !reflect.DeepEqual(v.Items, want) {
		t.Fatalf("items = %+v\nwant %+v", v.Items, want)
	}

	// Traefik down: the panel's own sources still answer.
	e.deps.Client = e.client("http://127.0.0.1:1", ClientOptions{})
	get(t, serve(t, e.deps), "/api/proxy/cert-resolvers", &v)
	if v.Reachable || len(v.Items) != 3 {
		t.Fatalf("degraded = %+v", v)
	}
}

func TestHealthFromServerStatusAndProbe(t *testing.T) {
	e, _, grafana, wiki := recorded(t, traefik36())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	port := ln.Addr().(*net.TCPAddr).Port
	closed := freePort(t)
	// A service Traefik does not know yet: its targets come from the panel.
	fresh := e.addService("fresh", []string{"fresh.example.test"}, []string{"web"}, nil,
		store.Target{Scheme: "http", Host: "127.0.0.1", Port: port}, store.Target{Scheme: "http", Host: "127.0.0.1", Port: closed})

	var v HealthView
	get(t, serve(t, e.deps), "/api/proxy/health", &v)
	items := map[string]ServiceHealth{}
	for _, h := range v.Items {
		items[h.ServiceID] = h
	}
	g := items[grafana]
	if g.Source != "traefik" || g.Up != 1 || g.Total != 2 || g.Servers[1].Status != "DOWN" || g.Servers[0].Probe != "" {
		t.Fatalf("grafana = %+v", g)
	}
	if w := items[wiki]; w.Up != 1 || w.Total != 1 {
		t.Fatalf("wiki = %+v", w)
	}
	if f := items[fresh]; f.Source != "panel" || f.Servers[0].Status != "UNKNOWN" {
		t.Fatalf("fresh = %+v", f)
	}

	get(t, serve(t, e.deps), "/api/proxy/health?probe=true", &v)
	for _, h := range v.Items {
		if h.ServiceID != fresh {
			continue
		}
		if h.Servers[0].Probe != "up" || h.Servers[1].Probe != "down" || h.Servers[1].ProbeError != "connection refused" {
			t.Fatalf("probe = %+v", h.Servers)
		}
	}
	var bad map[string]any
	if code := get(t, serve(t, e.deps), "/api/proxy/health?probe=maybe", &bad); code != http.StatusUnprocessableEntity {
		t.Fatalf("bad probe flag: %d %v", code, bad)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	return port
}

func TestCertificates(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	t.Run("traefik 3.6 is not supported", func(t *testing.T) {
		e, _, _, _ := recorded(t, traefik36())
		var v CertificatesView
		if code := get(t, serve(t, e.deps), "/api/proxy/certificates", &v); code != http.StatusOK {
			t.Fatalf("status %d", code)
		}
		if !v.Reachable || v.Supported || v.Message != "requires Traefik 3.7 or later (running 3.6.12)" || len(v.Items) != 0 {
			t.Fatalf("view = %+v", v)
		}
	})
	t.Run("traefik 3.7 lists certificates", func(t *testing.T) {
		e, _, grafana, wiki := recorded(t, traefik37())
		e.deps.Now = func() time.Time { return now }
		var v CertificatesView
		get(t, serve(t, e.deps), "/api/proxy/certificates", &v)
		if !v.Supported || v.Version != "3.7.0" || len(v.Items) != 4 {
			t.Fatalf("view = %+v", v)
		}
		type row struct {
			subject, issuer, status string
			days                    int
			services                []string
		}
		var got []row
		for _, c := range v.Items {
			got = append(got, row{c.Subject, c.Issuer, c.Status, c.DaysLeft, c.ServiceIDs})
		}
		want := []row{ // soonest expiry first
			{"10.0.0.5", "Home Lab CA", "expired", -22, []string{}},
			{"old.example.test", "Let's Encrypt (E6)", "expiring", 9, []string{}},
			{"example.test", "Let's Encrypt (R11)", "valid", 58, []string{grafana, wiki}}, // *.example.test
			{"TRAEFIK DEFAULT CERT", "TRAEFIK DEFAULT CERT", "valid", 364, []string{}},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("certificates = %+v\nwant %+v", got, want)
		}
		if c := v.Items[2]; len(c.SANs) != 2 || len(c.Fingerprint) != 64 || c.NotAfter.IsZero() {
			t.Fatalf("certificate = %+v", c)
		}
	})
	t.Run("unknown version without the endpoint", func(t *testing.T) {
		files := traefik36()
		files["/api/version"] = "body:{\"Version\":\"dev\"}"
		e, _, _, _ := recorded(t, files)
		var v CertificatesView
		get(t, serve(t, e.deps), "/api/proxy/certificates", &v)
		if !v.Reachable || v.Supported || !strings.Contains(v.Message, "requires Traefik 3.7") {
			t.Fatalf("view = %+v", v)
		}
	})
}

func TestTLSEntrypointsKeepsTheLastGoodAnswer(t *testing.T) {
	// The first ask starts a refresh in the background, which reads the
	// clock while the test moves it: a clock safe for concurrent use.
	clock := testutil.NewClock(time.Unix(0, 0))
	tr := newFakeTraefik(t, traefik36())
	c, _ := NewClient(tr.URL, ClientOptions{Now: clock.Now})
	// The first ask knows nothing yet and never waits for Traefik; the
	// refresh it starts (run synchronously here) fills the map in.
	if _, ok := c.TLSEntrypoints(context.Background()); ok {
		t.Fatal("answered before Traefik was ever asked")
	}
	c.refreshTLS(context.Background())
	m, ok := c.TLSEntrypoints(context.Background())
	want := map[string]bool{"dns": false, "traefik": false, "web": false, "websecure": true}
	if !ok || !reflect.DeepEqual(m, want) {
		t.Fatalf("TLSEntrypoints = %v %v", m, ok)
	}
	tr.set("/api/entrypoints", "status:500")
	clock.Add(time.Minute)
	c.refreshTLS(context.Background())
	if m, ok := c.TLSEntrypoints(context.Background()); !ok || !reflect.DeepEqual(m, want) {
		t.Fatalf("after an outage = %v %v", m, ok)
	}
	var none *Client
	if _, ok := none.TLSEntrypoints(context.Background()); ok {
		t.Fatal("an unconfigured client claims to know")
	}
	down, _ := NewClient("http://127.0.0.1:1", ClientOptions{})
	down.refreshTLS(context.Background())
	if _, ok := down.TLSEntrypoints(context.Background()); ok {
		t.Fatal("a never-reached Traefik claims to know")
	}
}

// managedResolvers stands in for managed mode's stored resolvers.
type managedResolvers []string

func (m managedResolvers) ResolverNames(context.Context) ([]string, error) { return m, nil }
