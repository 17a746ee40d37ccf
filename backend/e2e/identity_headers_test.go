//go:build e2e

package e2e

import (
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
)

// recordingBackend answers every request with all its header values, by
// the name as it arrived (Remote_user stays Remote_user).
func recordingBackend(t *testing.T) *harness.Backend {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(r.Header)
	}))
	t.Cleanup(srv.Close)
	host, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	n, _ := strconv.Atoi(port)
	return &harness.Backend{URL: srv.URL, Host: host, Port: n, Stop: srv.Close}
}

// cgiIdentity is what an upstream that folds "_" into "-" (CGI, WSGI, PHP)
// reads as identity: every value of every header whose name folds to one
// of the identity headers, by the folded name.
func cgiIdentity(h http.Header) map[string][]string {
	out := map[string][]string{}
	for k, v := range h {
		folded := strings.ToUpper(strings.ReplaceAll(k, "-", "_"))
		for _, id := range contract.IdentityHeaders() {
			if folded == strings.ToUpper(strings.ReplaceAll(id, "-", "_")) {
				out[folded] = append(out[folded], v...)
			}
		}
	}
	return out
}

// forgedIdentity is every spelling of every identity header a client could
// send, names written exactly so (Go's client sends map keys verbatim).
func forgedIdentity() http.Header {
	h := http.Header{}
	for _, id := range contract.IdentityHeaders() {
		under := strings.ReplaceAll(id, "-", "_")
		for _, k := range []string{id, strings.ToLower(id), strings.ToUpper(id), under, strings.ToLower(under), strings.ToUpper(under)} {
			h[k] = []string{"forged-" + strings.ToLower(under)}
		}
	}
	h["Remote_User"] = []string{"admin"}
	return h
}

// upstreamHeaders sends GET rawURL through c with extra headers (names as
// given) and returns what the upstream received.
func upstreamHeaders(t *testing.T, c *http.Client, rawURL string, extra http.Header) (int, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	var got http.Header
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("upstream answer %q: %v", b, err)
		}
	}
	return resp.StatusCode, got
}

// TestIdentityHeaderSpellings proves through each real Traefik that no
// spelling of a forged identity header (Remote_User, remote-user,
// REMOTE_GROUPS...) reaches the upstream of a protected service, while the
// values the panel's verify answers with do: what an upstream that folds
// "_" into "-" reads is exactly what it reads without the forgeries.
func TestIdentityHeaderSpellings(t *testing.T) {
	harness.ForEachTraefik(t, func(t *testing.T, bin harness.TraefikBinary) {
		p := harness.StartPanel(t, nil)
		be := recordingBackend(t)
		tr := harness.StartTraefik(t, harness.TraefikOptions{Bin: bin.Path, ProviderURL: p.URL + "/api/proxy/config"})

		t.Run("basic auth", func(t *testing.T) {
			var set struct{ ID string }
			p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{
				"name": "ids", "users": []map[string]string{{"username": "alice", "password": "correct horse"}}}, &set)
			accessService(t, p, be, "basic.ids.access.test", map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
			c := browser(t, tr)
			const u = "http://basic.ids.access.test/x"
			harness.Eventually(t, 30*time.Second, func() bool {
				code, _ := upstreamHeaders(t, c, u, nil)
				return code == http.StatusUnauthorized
			}, "basic.ids.access.test never asked for credentials")
			creds := http.Header{"Authorization": {basicAuth("alice", "correct horse")}}
			forged := forgedIdentity()
			forged["Authorization"] = creds["Authorization"]
			code, got := upstreamHeaders(t, c, u, forged)
			if code != http.StatusOK {
				t.Fatalf("with credentials and forged headers: %d", code)
			}
			want := map[string][]string{"REMOTE_USER": {"alice"}}
			if id := cgiIdentity(got); !equalIdentity(id, want) {
				t.Fatalf("the upstream reads identity %v, want %v (headers %v)", id, want, got)
			}
			// Without credentials the forged headers open nothing.
			delete(forged, "Authorization")
			if code, _ := upstreamHeaders(t, c, u, forged); code != http.StatusUnauthorized {
				t.Fatalf("forged headers alone: %d", code)
			}
		})

		t.Run("single sign-on", func(t *testing.T) {
			startProvider(t, p, "openid", "email", "profile", "groups")
			accessService(t, p, be, "sso.ids.access.test", map[string]any{"type": "sso", "groups": []string{"engineering"}})
			c := browser(t, tr)
			var a answer
			harness.Eventually(t, 30*time.Second, func() bool {
				a = fetch(t, c, "http://sso.ids.access.test/", nil)
				return a.code == http.StatusFound
			}, "sso.ids.access.test never redirected to sign-in")
			for _, step := range []string{"panel start", "provider", "panel callback", "exchange on the service host"} {
				if a = fetch(t, c, a.location, nil); a.code != http.StatusFound {
					t.Fatalf("%s: %d %s", step, a.code, a.body)
				}
			}
			code, clean := upstreamHeaders(t, c, "http://sso.ids.access.test/", nil)
			if code != http.StatusOK {
				t.Fatalf("signed in: %d", code)
			}
			signedIn := cgiIdentity(clean)
			if u := signedIn["REMOTE_USER"]; len(u) != 1 || u[0] != "jane.doe" || len(signedIn["REMOTE_GROUPS"]) != 1 ||
				!strings.Contains(signedIn["REMOTE_GROUPS"][0], "engineering") || len(signedIn["REMOTE_EMAIL"]) != 1 {
				t.Fatalf("signed in, the upstream reads identity %v (headers %v)", signedIn, clean)
			}
			code, got := upstreamHeaders(t, c, "http://sso.ids.access.test/", forgedIdentity())
			if code != http.StatusOK {
				t.Fatalf("signed in with forged headers: %d", code)
			}
			if id := cgiIdentity(got); !equalIdentity(id, signedIn) {
				t.Fatalf("with forged headers the upstream reads identity %v, want %v (headers %v)", id, signedIn, got)
			}
		})
	})
}

func equalIdentity(a, b map[string][]string) bool {
	return maps.EqualFunc(a, b, slices.Equal[[]string])
}
