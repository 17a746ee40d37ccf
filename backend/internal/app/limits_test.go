package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"runtime"
	"strings"
	"testing"
)

// heapInUse is the heap in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// signInFlood sends n unauthenticated requests with a value of size bytes
// each from n distinct addresses, to sign-in, SSO start and an API-token
// route, and returns how much the heap grew once they were answered.
func signInFlood(t testing.TB, a *testApp, n, size int, seed string) uint64 {
	t.Helper()
	before := heapInUse()
	for i := range n {
		long := strings.Repeat(seed, size/len(seed)+1)[:size] + fmt.Sprint(i)
		addr := fmt.Sprintf("203.0.%d.%d:40000", i/250, i%250+1)
		for _, r := range []struct {
			method, path, body string
			headers            []string
		}{
			{"POST", "/api/admin/login", `{"username":"` + long + `","password":"wrong-password!"}`, nil},
			{"POST", "/api/admin/login/totp", `{"code":"` + long + `"}`, []string{"Cookie", "gatehouse_pending=" + long[:min(len(long), 2048)]}},
			{"GET", "/api/admin/sso/start?rd=" + long[:min(len(long), 4<<10+1)], "", nil},
			{"GET", "/api/auth/sso/start?service=" + long[:min(len(long), 4<<10+1)], "", nil},
			{"GET", "/api/services", "", []string{"Authorization", "Bearer gha_" + long[:min(len(long), 32<<10)]}},
		} {
			rec := a.do(r.method, r.path, r.body, append([]string{"RemoteAddr", addr}, r.headers...)...)
			if rec.Code >= 500 {
				t.Fatalf("%s %.60s... with %d bytes = %d %.300s", r.method, r.path, size, rec.Code, rec.Body)
			}
		}
	}
	after := heapInUse()
	if after < before {
		return 0
	}
	return after - before
}

// Bound of TestSignInFloodKeepsMemoryBounded: 300 sign-ins with a 512 KiB
// username from 300 addresses (150 MiB of usernames, which the limiter
// kept for 15 minutes) grow the heap by less than this.
const signInFloodBound = 16 << 20

// A sign-in flood of long usernames from many addresses holds no more memory
// than the limiters' fixed cost per address: the body limit and the
// username's bound refuse the values, and the limiters keep only hashes.
func TestSignInFloodKeepsMemoryBounded(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.cookie = ""
	if grown := signInFlood(t, a, 300, 512<<10, "u"); grown > signInFloodBound {
		t.Fatalf("300 sign-ins with 512 KiB usernames grew the heap by %d MiB; want under %d MiB",
			grown>>20, signInFloodBound>>20)
	}
}

// Over-long fields are refused with the field named, before any limiter
// counts them.
func TestOverlongSignInFieldsAreRefused(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	a.cookie = ""
	long := strings.Repeat("a", 300)
	for _, tt := range []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		field                    string
	}{
		{"username", "POST", "/api/admin/login", `{"username":"` + long + `","password":"wrong-password!"}`, nil, 422, "username"},
		{"password", "POST", "/api/admin/login", `{"username":"admin","password":"` + strings.Repeat(long, 4) + `"}`, nil, 422, "password"},
		{"code", "POST", "/api/admin/login/totp", `{"code":"` + long + `"}`, nil, 422, "code"},
		{"sso state", "GET", "/api/admin/sso/callback?state=" + strings.Repeat(long, 14) + "&code=x", "", nil, 400, "state"},
		{"sso return", "GET", "/api/auth/sso/start?service=x&rd=" + strings.Repeat(long, 14), "", nil, 400, "rd"},
		{"api token", "GET", "/api/services", "", []string{"Authorization", "Bearer gha_" + long}, 401, "Authorization"},
		{"body", "POST", "/api/admin/login", `{"username":"admin","password":"` + strings.Repeat("p", 70<<10) + `"}`, nil, 413, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := a.do(tt.method, tt.path, tt.body, append([]string{"RemoteAddr", stranger}, tt.headers...)...)
			if rec.Code != tt.status {
				t.Fatalf("= %d %.300s; want %d", rec.Code, rec.Body, tt.status)
			}
			e := decodeEnvelope(t, rec)
			if tt.field != "" && (len(e.Error.Fields) != 1 || e.Error.Fields[0].Field != tt.field) {
				t.Fatalf("envelope = %+v; want the field %s named", e, tt.field)
			}
		})
	}
	// None of them used up the address's sign-in failures... but the
	// token did count: a wrong token is a wrong token.
	rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"correct-horse-battery"}`, "RemoteAddr", stranger)
	if rec.Code != http.StatusOK {
		t.Fatalf("sign-in after the refusals = %d %s", rec.Code, rec.Body)
	}
}

// X-Forwarded-For counts only from Traefik (PANEL_TRAEFIK_ADDRESSES): a host
// on the panel's network that sends it is still one address, blocked after
// its failures, and the audit log shows its own address.
func TestForwardedForCountsOnlyFromTraefik(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		peer    string
		blocked bool // the peer's 6th wrong password, each from a new forwarded address, is refused
		client  string
	}{
		{"a LAN host", nil, "10.0.0.5:40000", true, "10.0.0.5"},
		{"a Docker neighbour", map[string]string{"PANEL_TRAEFIK_ADDRESSES": "172.18.0.3"}, "172.18.0.4:40000", true, "172.18.0.4"},
		{"the configured Traefik", map[string]string{"PANEL_TRAEFIK_ADDRESSES": "172.18.0.3"}, "172.18.0.3:40000", false, "203.0.113.5"},
		{"loopback by default", nil, "127.0.0.1:40000", false, "203.0.113.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestApp(t, tt.env)
			a.signIn()
			owner := a.cookie
			a.cookie = ""
			for i := range 6 {
				rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"wrong-password!"}`,
					"RemoteAddr", tt.peer, "X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i))
				want := http.StatusUnauthorized
				if tt.blocked && i == 5 {
					want = http.StatusTooManyRequests
				}
				if rec.Code != want {
					t.Fatalf("attempt %d = %d; want %d", i+1, rec.Code, want)
				}
			}
			a.cookie = ""
			rec := a.do("POST", "/api/admin/login", `{"username":"admin","password":"correct-horse-battery"}`,
				"RemoteAddr", tt.peer, "X-Forwarded-For", "203.0.113.5")
			if tt.blocked {
				if rec.Code != http.StatusTooManyRequests {
					t.Fatalf("right password from the blocked peer = %d", rec.Code)
				}
				return
			}
			if rec.Code != http.StatusOK {
				t.Fatalf("right password = %d %s", rec.Code, rec.Body)
			}
			a.cookie = owner
			if body := a.do("GET", "/api/admin/me/sessions", "").Body.String(); !strings.Contains(body, `"`+tt.client+`"`) {
				t.Fatalf("sessions do not show %s: %.500s", tt.client, body)
			}
		})
	}
}

// fuzzHeapBound is FuzzSignInMemory's bound: however many inputs the fuzzer
// sends (each a username, SSO parameter and API token of up to 1 MiB, from
// an address of its choosing), the heap in use after a collection stays
// within this of where it started. The limiters' own bound is 100,000 keys
// of at most ~260 bytes each; the fuzzer reaches a small part of that.
const fuzzHeapBound = 64 << 20

// FuzzSignInMemory drives the sign-in, second-factor, SSO-start and
// API-token routes through the real Echo stack with long random values from
// random addresses, and checks every 200 inputs that the heap stays within
// fuzzHeapBound of its start (e.g. after 5,000 distinct 1 MiB usernames
// from 5,000 addresses). Run: go test -fuzz FuzzSignInMemory -run '^$' ./internal/app/
func FuzzSignInMemory(f *testing.F) {
	f.Add("admin", uint32(0xcb007101), uint32(1<<20), "gha_x", "x")
	f.Add("élan\x00\"\\", uint32(0x0a000005), uint32(60<<10), "gha_"+strings.Repeat("A", 300), "https://a.test/%2e")
	f.Add("", uint32(0x7f000001), uint32(0), "", "")
	a := newTestApp(f, nil)
	a.signIn()
	a.cookie = ""
	base := heapInUse()
	n := 0
	f.Fuzz(func(t *testing.T, seed string, ip uint32, size uint32, tok, rd string) {
		a.t = t
		if seed == "" {
			seed = "u"
		}
		size %= 1<<20 + 1
		long := strings.Repeat(seed, int(size)/len(seed)+1)[:size]
		user, _ := json.Marshal(long)
		addr := netip.AddrFrom4([4]byte{byte(ip >> 24), byte(ip >> 16), byte(ip >> 8), byte(ip)}).String() + ":40000" //nolint:gosec // the bytes of ip, truncation intended
		for _, r := range []struct {
			method, path, body string
			headers            []string
		}{
			{"POST", "/api/admin/login", `{"username":` + string(user) + `,"password":"wrong-password!"}`, nil},
			{"POST", "/api/admin/login/totp", `{"code":` + string(user) + `}`, []string{"Cookie", "gatehouse_pending=" + url.QueryEscape(tok)}},
			{"GET", "/api/admin/sso/start?rd=" + url.QueryEscape(rd+long[:min(len(long), 8<<10)]), "", nil},
			{"GET", "/api/auth/sso/start?service=" + url.QueryEscape(tok) + "&rd=" + url.QueryEscape(rd), "", nil},
			{"GET", "/api/services", "", []string{"Authorization", "Bearer " + strings.Map(headerSafe, tok+long[:min(len(long), 64<<10)])}},
		} {
			rec := a.do(r.method, r.path, r.body, append([]string{"RemoteAddr", addr, "X-Forwarded-For", rd}, r.headers...)...)
			if rec.Code >= 500 {
				t.Fatalf("%s %.60s... = %d %.300s", r.method, r.path, rec.Code, rec.Body)
			}
		}
		if n++; n%200 == 0 {
			if h := heapInUse(); h > base+fuzzHeapBound {
				t.Fatalf("after %d inputs the heap grew by %d MiB; want under %d MiB", n, (h-base)>>20, fuzzHeapBound>>20)
			}
		}
	})
}

// headerSafe keeps a fuzzed token a valid header value.
func headerSafe(r rune) rune {
	if r < 0x21 || r > 0x7e {
		return 'x'
	}
	return r
}
