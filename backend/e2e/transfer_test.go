//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

// TestTransferThroughTraefik: a panel with several kinds of services is
// exported (secrets sealed to a passphrase), a fresh panel imports the file,
// and a Traefik polling the new panel routes every request as the one
// polling the first did; both panels hand Traefik the same configuration
// but for their own addresses.
func TestTransferThroughTraefik(t *testing.T) {
	harness.ForEachTraefik(t, testTransfer)
}

type probe struct {
	name, host, path, user, pass string
}

func testTransfer(t *testing.T, bin harness.TraefikBinary) {
	be := harness.StartBackend(t, "app")
	other := harness.StartBackend(t, "other")
	a := harness.StartPanel(t, nil)
	trA := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: a.URL + "/api/proxy/config"})

	var dom, set struct{ ID string }
	a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/domains", map[string]any{"domain": "move.test"}, &dom)
	a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
		"name": "team", "users": []map[string]string{{"username": "ann", "password": "correct-horse"}},
	}, &set)
	service := func(body map[string]any) string {
		body["entrypoints"] = []string{"web"}
		var out struct{ ID string }
		a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", body, &out)
		return out.ID
	}
	service(map[string]any{"name": "app", "domainId": dom.ID, "hostnames": []map[string]string{{"type": "subdomain", "value": "app"}},
		"targets": []map[string]any{{"host": be.Host, "port": be.Port}}})
	service(map[string]any{"name": "api", "domainId": dom.ID, "hostnames": []map[string]string{{"type": "subdomain", "value": "api"}},
		"rules": []map[string]string{{"type": "pathPrefix", "value": "/v1"}}, "targets": []map[string]any{{"host": other.Host, "port": other.Port}}})
	service(map[string]any{"name": "old", "hostnames": []map[string]string{{"type": "custom", "value": "old.test"}},
		"kind": "redirect", "redirect": map[string]any{"url": "https://app.move.test/", "permanent": true, "keepPath": true}})
	service(map[string]any{"name": "paused", "hostnames": []map[string]string{{"type": "custom", "value": "paused.test"}},
		"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "maintenance": map[string]any{"enabled": true, "message": "Soon"}})
	locked := service(map[string]any{"name": "locked", "hostnames": []map[string]string{{"type": "custom", "value": "locked.test"}},
		"targets": []map[string]any{{"host": other.Host, "port": other.Port}}})
	a.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+locked+"/security-configs",
		map[string]any{"type": "basic_auth", "credentialSetId": set.ID}, nil)

	probes := []probe{
		{name: "app", host: "app.move.test", path: "/"},
		{name: "rule", host: "api.move.test", path: "/v1/x"},
		{name: "outside the rule", host: "api.move.test", path: "/v2"},
		{name: "redirect", host: "old.test", path: "/a?b=c"},
		{name: "maintenance", host: "paused.test", path: "/"},
		{name: "no credentials", host: "locked.test", path: "/"},
		{name: "credentials", host: "locked.test", path: "/", user: "ann", pass: "correct-horse"},
		{name: "wrong password", host: "locked.test", path: "/", user: "ann", pass: "nope"},
		{name: "unknown host", host: "nowhere.test", path: "/"},
	}
	want := func() string { return answers(trA, probes) }
	harness.Eventually(t, 30*time.Second, func() bool { return strings.Contains(want(), "credentials: 200 other") }, "panel A's services are not routed")
	before := want()

	// Export with the secrets sealed to a passphrase.
	req, _ := http.NewRequest(http.MethodPost, a.URL+"/api/export", strings.NewReader(`{"secrets":true,"passphrase":"a long passphrase"}`))
	req.Header.Set("Content-Type", "application/json")
	file := do(t, a, req, http.StatusOK)

	// A fresh panel: dry run, then apply the reviewed plan.
	b := harness.StartPanel(t, nil)
	imp := func(query string) map[string]any {
		req, _ := http.NewRequest(http.MethodPost, b.URL+"/api/import?"+query, bytes.NewReader(file))
		req.Header.Set("Content-Type", "application/octet-stream")
		req.Header.Set("X-Gatehouse-Passphrase", "a long passphrase")
		var out map[string]any
		if err := json.Unmarshal(do(t, b, req, http.StatusOK), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	plan := imp("mode=merge")
	if s := plan["summary"].(map[string]any); s["refused"].(float64) != 0 || s["create"].(float64) < 7 {
		t.Fatalf("plan = %v", plan)
	}
	imp("mode=merge&apply=true&digest=" + plan["digest"].(string))
	trB := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: b.URL + "/api/proxy/config"})
	harness.Eventually(t, 30*time.Second, func() bool { return answers(trB, probes) == before },
		"Traefik polling the new panel does not route as the first did:\n"+before+"\n---\n"+answers(trB, probes))

	cfgA := string(do(t, a, mustReq(a.URL+"/api/proxy/config"), http.StatusOK))
	cfgB := string(do(t, b, mustReq(b.URL+"/api/proxy/config"), http.StatusOK))
	if strings.ReplaceAll(cfgA, strings.TrimPrefix(a.URL, "http://"), "PANEL") != strings.ReplaceAll(cfgB, strings.TrimPrefix(b.URL, "http://"), "PANEL") {
		t.Fatalf("configurations differ:\nA: %s\nB: %s", cfgA, cfgB)
	}
	for _, kind := range []string{"routers", "middlewares", "services"} {
		for _, o := range runtimeObjects(t, trB, kind) {
			if o.Provider == "http" && (o.Status != "enabled" || len(o.Error) > 0) {
				t.Errorf("%s %s: status %s, errors %v", kind, o.Name, o.Status, o.Error)
			}
		}
	}
}

func mustReq(url string) *http.Request {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	return req
}

// do sends req with the panel's session and returns the body, failing unless the status is want.
func do(t *testing.T, p *harness.Panel, req *http.Request, want int) []byte {
	t.Helper()
	resp, err := p.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d %s", req.Method, req.URL, resp.StatusCode, body)
	}
	return body
}

// answers sends every probe through tr and describes what came back: the
// status, the backend that answered, and where a redirect pointed.
func answers(tr *harness.Traefik, probes []probe) string {
	var out []string
	for _, pr := range probes {
		req, err := http.NewRequest(http.MethodGet, tr.WebURL+pr.path, nil)
		if err != nil {
			return err.Error()
		}
		req.Host = pr.host
		if pr.user != "" {
			req.SetBasicAuth(pr.user, pr.pass)
		}
		resp, err := harness.NoRedirectClient().Do(req)
		if err != nil {
			out = append(out, pr.name+": "+err.Error())
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		var r harness.BackendReply
		who := ""
		if json.Unmarshal(body, &r) == nil {
			who = r.Backend
		}
		out = append(out, pr.name+": "+resp.Status[:3]+" "+who+" "+resp.Header.Get("Location"))
	}
	return strings.Join(out, "\n")
}
