package forwardauth

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func linkService(t testing.TB, v *env, host string) string {
	t.Helper()
	id := v.service(host)
	protect(t, v, id, map[string]any{"type": "shared_links"})
	return id
}

func newLink(t testing.TB, v *env, id string, body map[string]any) (LinkResponse, string) {
	t.Helper()
	var l LinkResponse
	v.must(http.StatusCreated, http.MethodPost, "/api/services/"+id+"/shared-links", body, &l)
	u, err := url.Parse(l.URL)
	if err != nil {
		t.Fatalf("link URL %q: %v", l.URL, err)
	}
	return l, u.RequestURI()
}

// press is what verify sees when a person presses the button on the link
// page at uri: Traefik forwards the POST's method and the page's Origin.
func press(id, host, uri string) fwd {
	return fwd{service: id, method: http.MethodPost, host: host, uri: uri, browser: true,
		hdr: map[string]string{"Origin": "https://" + host, "Sec-Fetch-Site": "same-origin"}}
}

func TestSharedLinkLifecycle(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	l, uri := newLink(t, v, id, map[string]any{"lifetimeSeconds": 3600, "sessionSeconds": 600, "note": "for Bob"})
	if want := "https://app.example.com/?gh_link="; len(l.URL) < len(want) || l.URL[:len(want)] != want || l.Status != LinkActive {
		t.Fatalf("created %+v", l)
	}

	rec := v.verify(press(id, "app.example.com", "/docs?a=1&gh_link="+uri[len("/?gh_link="):]))
	ck := sessionCookie(t, rec)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "https://app.example.com/docs?a=1" || ck == nil {
		t.Fatalf("first use: %d %q cookie %v", rec.Code, rec.Header().Get("Location"), ck)
	}
	if !ck.HttpOnly || !ck.Secure || ck.SameSite != http.SameSiteLaxMode || ck.Domain != "" || ck.Path != "/" || ck.MaxAge != 600 {
		t.Fatalf("cookie attributes: %+v", ck)
	}
	rec = v.verify(fwd{service: id, host: "app.example.com", uri: "/docs", cookie: ck.Value})
	if rec.Code != 200 || rec.Header().Get("Remote-Name") != "for Bob" {
		t.Fatalf("with cookie: %d %q", rec.Code, rec.Header().Get("Remote-Name"))
	}
	// A fresh client re-using the link is refused with a clear page, on
	// sight and when it presses the button of a page it kept open.
	rec = v.verify(fwd{service: id, host: "app.example.com", uri: uri, browser: true})
	if rec.Code != http.StatusUnauthorized || !contains(rec.Body.String(), "already used") {
		t.Fatalf("second visit: %d %s", rec.Code, rec.Body.String())
	}
	rec = v.verify(press(id, "app.example.com", uri))
	if rec.Code != http.StatusUnauthorized || !contains(rec.Body.String(), "already used") {
		t.Fatalf("second use: %d %s", rec.Code, rec.Body.String())
	}
	// The same browser following the link again just lands on the clean URL.
	rec = v.verify(fwd{service: id, host: "app.example.com", uri: uri, cookie: ck.Value, browser: true})
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "https://app.example.com/" {
		t.Fatalf("re-follow with session: %d %q", rec.Code, rec.Header().Get("Location"))
	}

	var list httpx.List[LinkResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/services/"+id+"/shared-links", nil, &list)
	if len(list.Items) != 1 || list.Items[0].Status != LinkUsed || list.Items[0].URL != "" {
		t.Fatalf("list: %+v", list.Items)
	}
	var sess httpx.List[SessionResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/sessions", nil, &sess)
	if len(sess.Items) != 1 || sess.Items[0].Kind != "shared_link" || sess.Items[0].ServiceName == "" {
		t.Fatalf("sessions: %+v", sess.Items)
	}

	// Revoking ends the session it opened, cached or not.
	v.must(http.StatusNoContent, http.MethodDelete, "/api/services/"+id+"/shared-links/"+l.ID, nil, nil)
	if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: ck.Value}); rec.Code != 401 {
		t.Fatalf("after revoke: %d", rec.Code)
	}
	v.must(http.StatusOK, http.MethodGet, "/api/services/"+id+"/shared-links", nil, &list)
	if list.Items[0].Status != LinkRevoked {
		t.Fatalf("status after revoke: %s", list.Items[0].Status)
	}
}

func TestSharedLinkRefusals(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	_, expired := newLink(t, v, id, map[string]any{"lifetimeSeconds": 60})
	revoked, revokedURI := newLink(t, v, id, nil)
	v.must(http.StatusNoContent, http.MethodDelete, "/api/services/"+id+"/shared-links/"+revoked.ID, nil, nil)
	v.clock.Add(2 * time.Minute)
	other := linkService(t, v, "other.example.com")
	_, foreign := newLink(t, v, other, nil)

	tests := []struct{ name, uri, text string }{
		{"expired", expired, "expired"},
		{"revoked", revokedURI, "revoked"},
		{"unknown", "/?gh_link=nonsense", "not valid"},
		{"other service's link", foreign, "not valid"},
		{"oversized", "/?gh_link=" + string(make([]byte, 0)) + "x" + url.QueryEscape(string(make([]rune, 300))), "not valid"},
	}
	for _, tt := range tests {
		for _, f := range []fwd{{service: id, host: "app.example.com", uri: tt.uri, browser: true}, press(id, "app.example.com", tt.uri)} {
			t.Run(tt.name+" "+f.method, func(t *testing.T) {
				rec := v.verify(f)
				if rec.Code != http.StatusUnauthorized || !contains(rec.Body.String(), tt.text) || sessionCookie(t, rec) != nil ||
					contains(rec.Body.String(), "<form") {
					t.Fatalf("%d %s", rec.Code, rec.Body.String())
				}
			})
		}
	}
	// Links cannot be made for a service without the protection.
	plain := v.service("plain.example.com")
	v.must(http.StatusConflict, http.MethodPost, "/api/services/"+plain+"/shared-links", map[string]any{}, nil)
	v.must(http.StatusUnprocessableEntity, http.MethodPost, "/api/services/"+id+"/shared-links", map[string]any{"lifetimeSeconds": 5}, nil)
	v.must(http.StatusNotFound, http.MethodPost, "/api/services/nope/shared-links", map[string]any{}, nil)
}

// TestSharedLinkOneUseUnderConcurrency: of 100 simultaneous uses of one
// link, exactly one gets the redirect with a cookie.
func TestSharedLinkOneUseUnderConcurrency(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	_, uri := newLink(t, v, id, nil)
	var ok, refused, other atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			rec := v.verify(press(id, "app.example.com", uri))
			switch {
			case rec.Code == http.StatusSeeOther && sessionCookie(t, rec) != nil:
				ok.Add(1)
			case rec.Code == http.StatusUnauthorized:
				refused.Add(1)
			default:
				other.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()
	if ok.Load() != 1 || refused.Load() != 99 || other.Load() != 0 {
		t.Fatalf("successes %d, refusals %d, other %d; want 1, 99, 0", ok.Load(), refused.Load(), other.Load())
	}
}

// The link's scheme follows the TLS rules the generated routers follow: a
// service only on plain-HTTP entrypoints gets an http:// link, whatever they
// are called, and one with any TLS entrypoint an https:// link.
func TestSharedLinkSchemeFollowsEntrypoints(t *testing.T) {
	tests := []struct {
		name     string
		eps      []string
		defaults []string        // global default entrypoints
		tls      map[string]bool // Traefik's answer; nil: names alone
		want     string
	}{
		{"web", []string{"web"}, nil, nil, "http"},
		{"plain entrypoint with another name", []string{"lan"}, nil, nil, "http"},
		{"lan known as plain", []string{"lan"}, nil, map[string]bool{"lan": false, "websecure": true}, "http"},
		{"websecure", []string{"websecure"}, nil, nil, "https"},
		{"plain and TLS", []string{"web", "websecure"}, nil, nil, "https"},
		{"TLS entrypoint without a TLS name", []string{"edge"}, nil, map[string]bool{"edge": true}, "https"},
		{"default entrypoints", nil, []string{"lan"}, nil, "http"},
		{"TLS default entrypoints", nil, []string{"web", "websecure"}, nil, "https"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newEnv(t)
			v.tls = tt.tls
			if tt.defaults != nil {
				if err := store.PutConfig(t.Context(), v.db, store.KeyGlobalConfig, map[string]any{"defaultEntrypoints": tt.defaults}); err != nil {
					t.Fatal(err)
				}
			}
			host := fmt.Sprintf("app%d.example.com", i)
			r, err := v.svcs.Create(t.Context(), servicesRequest(host, tt.eps))
			if err != nil {
				t.Fatal(err)
			}
			protect(t, v, r.ID, map[string]any{"type": "shared_links"})
			l, _ := newLink(t, v, r.ID, nil)
			if want := tt.want + "://" + host + "/?gh_link="; !strings.HasPrefix(l.URL, want) {
				t.Fatalf("url %q, want it to start with %q", l.URL, want)
			}
		})
	}
}
