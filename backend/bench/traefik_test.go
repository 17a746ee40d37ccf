//go:build bench

package bench

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
)

// TestBenchVerifyThroughTraefik measures requests through a real Traefik
// (TRAEFIK_BIN; `make bench` builds it once) to a service the panel
// protects (app.Run in-process, 50 rules, a machine token and a session
// cookie) against a second router on the same Traefik, with the same
// upstream, whose forwardAuth middleware (file provider, the panel's
// middleware copied with another address) calls a bare net/http handler
// answering 200 with the same identity headers: the limit of forward-auth
// itself, in the same run, at 8 and 64 connections.
func TestBenchVerifyThroughTraefik(t *testing.T) {
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Skip("wrk is not installed (apt-get install wrk)")
	}
	harness.TraefikBin(t) // skips without one
	bin := harness.TraefikBinaries(t)[0]
	p := harness.StartPanel(t, nil)
	be := harness.StartBackend(t, "upstream")
	bareAuth := serve(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set(contract.HeaderUser, "alice")
		h.Set(contract.HeaderEmail, "")
		h.Set(contract.HeaderName, "")
		h.Set(contract.HeaderGroups, "")
		w.WriteHeader(http.StatusOK)
	}))
	fileDir := t.TempDir()
	tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config", FileDir: fileDir})
	web, err := url.Parse(tr.WebURL)
	if err != nil {
		t.Fatal(err)
	}

	const host, bareHost = "panel.bench.test", "bare.bench.test"
	var svc struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": host, "hostnames": []map[string]string{{"type": "custom", "value": host}},
		"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "entrypoints": []string{"web"},
	}, &svc)
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+svc.ID+"/access", map[string]any{"rules": fiftyRules()}, nil)
	for _, typ := range []string{"tokens", "shared_links"} {
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/security-configs", map[string]any{"type": typ}, nil)
	}
	var tok struct{ Value string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/machine-tokens",
		map[string]any{"name": "bench", "serviceIds": []string{svc.ID}}, &tok)
	writeBareRouter(t, p, fileDir, host, bareHost, bareAuth, be)

	headers := []string{"Accept: text/html,application/xhtml+xml", "User-Agent: Mozilla/5.0 (bench)"}
	token := append([]string{"Host: " + host, "Authorization: Bearer " + tok.Value}, headers...)
	bare := append([]string{"Host: " + bareHost}, headers...)
	harness.Eventually(t, 30*time.Second, func() bool {
		return through(t, tr.WebURL, token) == "token:bench" && through(t, tr.WebURL, bare) == "alice"
	}, "Traefik never passed the token request (Remote-User token:bench) and the bare one (alice) to the upstream")

	// A shared link redeemed through Traefik gives the session cookie.
	var link struct{ URL string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/shared-links", map[string]any{"sessionSeconds": 86400}, &link)
	cookie := redeemThrough(t, web.Host, link.URL)
	session := append([]string{"Host: " + host, "Cookie: theme=dark; " + contract.SessionCookie + "=" + cookie}, headers...)
	if user := through(t, tr.WebURL, session); user == "" {
		t.Fatalf("the session cookie reached the upstream with Remote-User %q", user)
	}

	cases := []struct {
		name    string
		headers []string
	}{
		{"machine token, 50 rules", token},
		{"session cookie, 50 rules", session},
	}
	fmt.Printf("\nthrough Traefik %s: panel forwardAuth vs forwardAuth to a bare net/http handler\n", bin.Name())
	fmt.Printf("(wrk -t2 -d5s, same Traefik and upstream, same run; the panel's 50 rules: 49 that miss, then the one that matches)\n")
	fmt.Printf("%-25s %5s %12s %12s %7s %10s %10s %9s\n", "case", "conns", "panel rps", "bare rps", "ratio", "panel p99", "bare p99", "p99 ratio")
	for _, c := range cases {
		for _, conns := range []int{8, 64} {
			b := wrk(t, tr.WebURL+"/dashboard?tab=1", conns, bare)
			v := wrk(t, tr.WebURL+"/dashboard?tab=1", conns, c.headers)
			fmt.Printf("%-25s %5d %12.0f %12.0f %6.2fx %8.2fms %8.2fms %8.2fx\n", c.name, conns, v.rps, b.rps, v.rps/b.rps,
				ms(v.p99), ms(b.p99), float64(v.p99)/float64(b.p99))
		}
	}
	fmt.Println("goal: throughput >= 0.90x")
}

// writeBareRouter copies the router, service and middlewares the panel
// generated for host into the file provider under bareHost, with the
// forwardAuth address pointed at bareAuth, so the two routers differ only
// in who answers forward-auth.
func writeBareRouter(t *testing.T, p *harness.Panel, dir, host, bareHost, bareAuth string, be *harness.Backend) {
	t.Helper()
	type router struct {
		Rule        string   `json:"rule"`
		EntryPoints []string `json:"entryPoints"`
		Middlewares []string `json:"middlewares"`
		Service     string   `json:"service"`
	}
	var conf struct {
		HTTP struct {
			Routers     map[string]router                    `json:"routers"`
			Services    map[string]any                       `json:"services"`
			Middlewares map[string]map[string]map[string]any `json:"middlewares"`
		} `json:"http"`
	}
	var r router
	harness.Eventually(t, 10*time.Second, func() bool {
		p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/proxy/config", nil, &conf)
		for _, rt := range conf.HTTP.Routers {
			if strings.Contains(rt.Rule, host) {
				r = rt
				return true
			}
		}
		return false
	}, "the panel generated no router for "+host)
	mws := map[string]any{}
	var names []string
	for _, m := range r.Middlewares {
		mw, ok := conf.HTTP.Middlewares[m]
		if !ok {
			t.Fatalf("router for %s uses middleware %q the panel does not define", host, m)
		}
		if fa, ok := mw["forwardAuth"]; ok {
			fa["address"] = bareAuth + contract.VerifyPath
		}
		mws["bare-"+m] = mw
		names = append(names, "bare-"+m)
	}
	if len(names) == 0 {
		t.Fatalf("the panel's router for %s has no forwardAuth middleware", host)
	}
	bare := map[string]any{"http": map[string]any{
		"routers": map[string]any{"bare": router{Rule: "Host(`" + bareHost + "`)", EntryPoints: r.EntryPoints,
			Middlewares: names, Service: "bare"}},
		"services":    map[string]any{"bare": conf.HTTP.Services[r.Service]},
		"middlewares": mws,
	}}
	b, err := json.Marshal(bare) // JSON is YAML
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), be.URL) {
		t.Fatalf("the panel's service for %s does not point at the upstream %s: %s", host, be.URL, b)
	}
	if err := os.WriteFile(filepath.Join(dir, "bare.yml"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// through sends GET /dashboard?tab=1 to Traefik with the headers ("Host: x"
// sets the host) and returns the Remote-User the upstream received, "" for
// an answer other than 200.
func through(t *testing.T, base string, headers []string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/dashboard?tab=1", nil)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := harness.NoRedirectClient().Do(req)
	if err != nil {
		return ""
	}
	defer func() { _ = resp.Body.Close() }()
	var reply harness.BackendReply
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&reply) != nil {
		return ""
	}
	return reply.Headers[contract.HeaderUser]
}

// redeemThrough opens a shared link through Traefik at addr and returns the
// session cookie it sets.
func redeemThrough(t *testing.T, addr, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	// The link page's button: a POST to the link from its own origin.
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+u.RequestURI(), nil)
	req.Host = u.Host
	req.Header.Set("Origin", u.Scheme+"://"+u.Host)
	resp, err := harness.NoRedirectClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	for _, ck := range resp.Cookies() {
		if ck.Name == contract.SessionCookie {
			return ck.Value
		}
	}
	t.Fatalf("the shared link gave no session cookie through Traefik (status %d)", resp.StatusCode)
	return ""
}
