//go:build e2e

package e2e

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/geoip/geoiptest"
)

// TestAccessRulesFromOutside sends requests from a host on the internet
// (a network namespace) through an extra Traefik entrypoint bound to the
// link: the LAN bypass lets loopback through but not the stranger, wrong
// tokens block the stranger's address and no other, and a country rule
// refuses the stranger's country.
func TestAccessRulesFromOutside(t *testing.T) {
	harness.TraefikBin(t)
	o := harness.StartOutside(t)
	db := t.TempDir() + "/country.mmdb"
	geoiptest.Write(t, db, map[string]string{o.Addr + "/30": "FR"})
	p := harness.StartPanel(t, map[string]string{"PANEL_GEOIP_DB": db})
	be := harness.StartBackend(t, "upstream")
	outside := net.JoinHostPort(o.HostAddr, fmt.Sprint(harness.FreePort(t)))
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config",
		Static: "entryPoints:\n  outside:\n    address: \"" + outside + "\"\n"})
	local := browser(t, tr)
	stranger := o.Client(func(string) string { return outside })
	entrypoints := []string{"web", "outside"}

	t.Run("LAN bypass", func(t *testing.T) {
		const host = "lan.rules.access.test"
		var set struct{ ID string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
			"name": "lan", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
		id := ruleService(t, p, be, host, entrypoints, nil, map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
		putRules(t, p, id, "", presetRules(t, p, "lan-bypass"))
		harness.Eventually(t, 30*time.Second, func() bool {
			return send(t, stranger, http.MethodGet, "http://"+host+"/", nil).code == http.StatusUnauthorized
		}, host+" never asked the outside host for credentials")
		if r := send(t, local, http.MethodGet, "http://"+host+"/", nil); !r.passed() {
			t.Fatalf("from 127.0.0.1: %d %s", r.code, r.body)
		}
		r := send(t, stranger, http.MethodGet, "http://"+host+"/", map[string]string{"X-Forwarded-For": "192.168.1.5"})
		if r.code != http.StatusUnauthorized || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic ") {
			t.Fatalf("from outside claiming a LAN address: %d %s", r.code, r.body)
		}
		if r := send(t, stranger, http.MethodGet, "http://"+host+"/",
			map[string]string{"Authorization": basicAuth("alice", "correct horse")}); !r.passed() {
			t.Fatalf("from outside with credentials: %d %s", r.code, r.body)
		}
		items := accessLog(t, p, id)
		if _, ok := findLog(items, id, "unauthenticated", "/", o.Addr); !ok {
			t.Errorf("no unauthenticated entry from %s: %+v", o.Addr, items)
		}
		if _, ok := findLog(items, id, "allowed", "/", "127.0.0.1"); !ok {
			t.Errorf("no allowed entry from 127.0.0.1: %+v", items)
		}
	})

	t.Run("wrong tokens rate limited per address", func(t *testing.T) {
		const host = "limit.rules.access.test"
		id := ruleService(t, p, be, host, entrypoints, nil, map[string]any{"type": "tokens"})
		_, value := machineToken(t, p, "backup", "", nil, id)
		harness.Eventually(t, 30*time.Second, func() bool {
			return send(t, stranger, http.MethodGet, "http://"+host+"/", nil).code == http.StatusUnauthorized
		}, host+" never asked the outside host for a token")
		wrong := map[string]string{"Authorization": "Bearer ght_not-a-real-token"}
		codes := make([]int, 0, 11)
		for range 11 {
			codes = append(codes, send(t, stranger, http.MethodGet, "http://"+host+"/", wrong).code)
		}
		t.Logf("11 wrong tokens from %s: %v", o.Addr, codes)
		if codes[0] != http.StatusUnauthorized || codes[10] != http.StatusTooManyRequests {
			t.Fatalf("wrong tokens from outside: %v", codes)
		}
		if r := send(t, stranger, http.MethodGet, "http://"+host+"/", wrong); r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
			t.Fatalf("another wrong token from the blocked address: %d %q", r.code, r.header.Get("Retry-After"))
		}
		// A live token is not a guess: it is decided from memory, as
		// remembered basic-auth credentials are, without the limiter.
		good := map[string]string{"Authorization": "Bearer " + value}
		if r := send(t, stranger, http.MethodGet, "http://"+host+"/", good); !r.passed() || r.backend.Headers["Remote-User"] != "token:backup" {
			t.Fatalf("a good token from the blocked address: %d %+v", r.code, r.backend)
		}
		if r := send(t, local, http.MethodGet, "http://"+host+"/", good); !r.passed() || r.backend.Headers["Remote-User"] != "token:backup" {
			t.Fatalf("a good token from 127.0.0.1: %d %+v", r.code, r.backend)
		}
		if _, ok := findLog(accessLog(t, p, id), id, "rate_limited", "/", o.Addr); !ok {
			t.Errorf("no rate_limited entry from %s", o.Addr)
		}
	})

	t.Run("deny by country", func(t *testing.T) {
		const host = "geo.rules.access.test"
		id := ruleService(t, p, be, host, entrypoints, nil)
		putRules(t, p, id, "", []map[string]any{{"action": "deny", "note": "no visitors from France", "countries": []string{"FR"}}})
		harness.Eventually(t, 30*time.Second, func() bool {
			return send(t, stranger, http.MethodGet, "http://"+host+"/", nil).code == http.StatusForbidden
		}, host+" never refused the outside host")
		if r := send(t, local, http.MethodGet, "http://"+host+"/", nil); !r.passed() {
			t.Fatalf("from 127.0.0.1: %d %s", r.code, r.body)
		}
		var explain struct{ Decision, Country, Reason string }
		p.MustJSON(t, http.StatusOK, http.MethodPost, "/api/services/"+id+"/access/test",
			map[string]any{"method": "GET", "url": "http://" + host + "/", "clientAddress": o.Addr}, &explain)
		if explain.Decision != "deny" || explain.Country != "FR" {
			t.Errorf("rule tester for %s: %+v", o.Addr, explain)
		}
		if _, ok := findLog(accessLog(t, p, id), id, "denied", "/", o.Addr); !ok {
			t.Errorf("no denied entry from %s", o.Addr)
		}
	})
}

// TestTrustedProxyFromOutside puts the outside host in the place of a CDN in
// front of Traefik, listed in PANEL_TRUSTED_PROXIES: the panel takes the
// client's address from the CDN's X-Forwarded-For when Traefik's entrypoint
// trusts the CDN too (forwardedHeaders.trustedIPs), and ignores whatever the
// client wrote further left. An entrypoint that does not trust the CDN
// drops the header, so every request counts as the CDN's own.
func TestTrustedProxyFromOutside(t *testing.T) {
	harness.TraefikBin(t)
	o := harness.StartOutside(t)
	p := harness.StartPanel(t, map[string]string{"PANEL_TRUSTED_PROXIES": o.Addr})
	be := harness.StartBackend(t, "upstream")
	const host = "cdn.rules.access.test"
	id := ruleService(t, p, be, host, []string{"cdn", "plain"}, nil)
	putRules(t, p, id, "deny", []map[string]any{{"action": "allow", "note": "the office", "sources": []string{"203.0.113.0/24"}}})

	harness.ForEachTraefik(t, func(t *testing.T, b harness.TraefikBinary) {
		cdn := net.JoinHostPort(o.HostAddr, fmt.Sprint(harness.FreePort(t)))
		plain := net.JoinHostPort(o.HostAddr, fmt.Sprint(harness.FreePort(t)))
		harness.StartTraefik(t, harness.TraefikOptions{Bin: b.Path, ProviderURL: p.URL + "/api/proxy/config",
			Static: "entryPoints:\n" +
				"  cdn:\n    address: \"" + cdn + "\"\n    forwardedHeaders:\n      trustedIPs: [\"" + o.Addr + "\"]\n" +
				"  plain:\n    address: \"" + plain + "\"\n"})
		throughCDN := o.Client(func(string) string { return cdn })
		direct := o.Client(func(string) string { return plain })
		harness.Eventually(t, 30*time.Second, func() bool {
			return send(t, direct, http.MethodGet, "http://"+host+"/", nil).code == http.StatusForbidden
		}, host+" never refused the CDN's own address")

		for _, c := range []struct {
			name   string
			client *http.Client
			xff    string
			want   int
			addr   string
		}{
			{"office client through the CDN", throughCDN, "203.0.113.7", http.StatusOK, "203.0.113.7"},
			{"office address forged left of the real client", throughCDN, "203.0.113.7, 198.51.100.9", http.StatusForbidden, "198.51.100.9"},
			{"entrypoint that does not trust the CDN", direct, "203.0.113.7", http.StatusForbidden, o.Addr},
		} {
			r := send(t, c.client, http.MethodGet, "http://"+host+"/", map[string]string{"X-Forwarded-For": c.xff})
			if r.code != c.want || (c.want == http.StatusOK && !r.passed()) {
				t.Errorf("%s: %d, want %d: %s", c.name, r.code, c.want, r.body)
			}
			var page struct{ Items []logItem }
			p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+id+"/access-log?limit=1", nil, &page)
			if len(page.Items) == 0 || page.Items[0].ClientAddress != c.addr {
				t.Errorf("%s: the panel saw %+v, want client %s", c.name, page.Items, c.addr)
			}
		}
	})
}
