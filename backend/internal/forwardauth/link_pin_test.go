package forwardauth

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// answer is what verify sees when a person types pin on the page of the
// link at uri and presses the button: a GET navigation of the same origin
// to the link's address with the answer added.
func answer(id, host, uri, pin string) fwd {
	return fwd{service: id, host: host, uri: uri + "&" + PinParam + "=" + url.QueryEscape(pin), browser: true,
		ip: "203.0.113.7", hdr: map[string]string{"Sec-Fetch-Site": "same-origin"}}
}

func linkRow(t *testing.T, v *env, id string) store.SharedLink {
	t.Helper()
	var l store.SharedLink
	if err := v.db.Where("id = ?", id).Take(&l).Error; err != nil {
		t.Fatal(err)
	}
	return l
}

func TestSharedLinkSecretValidation(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	tests := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"pin too short", map[string]any{"pin": "123"}, "pin"},
		{"pin too long", map[string]any{"pin": "1234567890123"}, "pin"},
		{"pin with letters", map[string]any{"pin": "12a4"}, "pin"},
		{"pin with spaces", map[string]any{"pin": "12 34"}, "pin"},
		{"password too short", map[string]any{"password": "short"}, "password"},
		{"password too long", map[string]any{"password": string(make([]byte, 129))}, "password"},
		{"both", map[string]any{"pin": "1234", "password": "long enough"}, "password"},
		{"oversized pin", map[string]any{"pin": string(make([]byte, 5000))}, "pin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := v.do(http.MethodPost, "/api/services/"+id+"/shared-links", tt.body, nil)
			if rec.Code != http.StatusUnprocessableEntity || !contains(rec.Body.String(), `"field":"`+tt.field+`"`) {
				t.Fatalf("%d %s", rec.Code, rec.Body.String())
			}
		})
	}
	// Write-only: neither the answer to the creation nor the list shows it.
	rec := v.do(http.MethodPost, "/api/services/"+id+"/shared-links", map[string]any{"pin": "482913"}, nil)
	if rec.Code != http.StatusCreated || contains(rec.Body.String(), "482913") || !contains(rec.Body.String(), `"challenge":"pin"`) {
		t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
	}
	rec = v.do(http.MethodGet, "/api/services/"+id+"/shared-links", nil, nil)
	if contains(rec.Body.String(), "482913") || contains(rec.Body.String(), "$2a$") || !contains(rec.Body.String(), `"challenge":"pin"`) {
		t.Fatalf("list: %s", rec.Body.String())
	}
}

func TestSharedLinkPIN(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	l, uri := newLink(t, v, id, map[string]any{"pin": "4829", "sessionSeconds": 600})

	// On sight and on the old page's button: the form, nothing used.
	for _, f := range []fwd{{service: id, host: "app.example.com", uri: uri, browser: true}, press(id, "app.example.com", uri)} {
		rec := v.verify(f)
		body := rec.Body.String()
		if rec.Code != http.StatusUnauthorized || !contains(body, `<form method="GET"`) || !contains(body, `name="gh_pin"`) ||
			!contains(body, `inputmode="numeric"`) || !contains(body, `name="gh_link"`) || sessionCookie(t, rec) != nil {
			t.Fatalf("%s: %d %s", f.method, rec.Code, body)
		}
	}
	// A wrong PIN does not use the link; it says how many tries are left.
	rec := v.verify(answer(id, "app.example.com", uri, "0000"))
	if rec.Code != http.StatusUnauthorized || !contains(rec.Body.String(), "That PIN is not right. 9 more tries") || sessionCookie(t, rec) != nil {
		t.Fatalf("wrong PIN: %d %s", rec.Code, rec.Body.String())
	}
	if row := linkRow(t, v, l.ID); row.UsedAt != nil || row.PinFailures != 1 {
		t.Fatalf("after a wrong PIN: used %v, failures %d", row.UsedAt, row.PinFailures)
	}
	// The right PIN from another site (login CSRF) shows the form again.
	cross := answer(id, "app.example.com", uri, "4829")
	cross.hdr = map[string]string{"Sec-Fetch-Site": "cross-site"}
	if rec := v.verify(cross); rec.Code != http.StatusUnauthorized || sessionCookie(t, rec) != nil || linkRow(t, v, l.ID).UsedAt != nil {
		t.Fatalf("cross-site: %d", rec.Code)
	}
	// Only the form's GET answers: a HEAD with the right PIN uses nothing.
	head := answer(id, "app.example.com", uri, "4829")
	head.method = http.MethodHead
	if rec := v.verify(head); rec.Code != http.StatusUnauthorized || linkRow(t, v, l.ID).UsedAt != nil {
		t.Fatalf("HEAD: %d", rec.Code)
	}
	// The right PIN uses it, drops the answer from the address, and gives
	// the attempt it took back.
	rec = v.verify(answer(id, "app.example.com", uri, "4829"))
	ck := sessionCookie(t, rec)
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "https://app.example.com/" || ck == nil {
		t.Fatalf("right PIN: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if rec := v.verify(fwd{service: id, host: "app.example.com", cookie: ck.Value}); rec.Code != http.StatusOK {
		t.Fatalf("session: %d", rec.Code)
	}
	var list httpx.List[LinkResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/services/"+id+"/shared-links", nil, &list)
	if list.Items[0].Status != LinkUsed || list.Items[0].FailedAttempts != 1 || list.Items[0].Challenge != LinkSecretPIN {
		t.Fatalf("list: %+v", list.Items[0])
	}
	// One use, PIN or not.
	if rec := v.verify(answer(id, "app.example.com", uri, "4829")); rec.Code != http.StatusUnauthorized || !contains(rec.Body.String(), "already used") {
		t.Fatalf("second use: %d %s", rec.Code, rec.Body.String())
	}
}

func TestSharedLinkPassword(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	_, uri := newLink(t, v, id, map[string]any{"password": "correct horse"})
	rec := v.verify(fwd{service: id, host: "app.example.com", uri: uri, browser: true})
	if !contains(rec.Body.String(), `type="password"`) || !contains(rec.Body.String(), "protected the link with a password") {
		t.Fatalf("page: %s", rec.Body.String())
	}
	if rec := v.verify(answer(id, "app.example.com", uri, "correct horse!")); rec.Code != http.StatusUnauthorized ||
		!contains(rec.Body.String(), "That password is not right") {
		t.Fatalf("wrong: %d %s", rec.Code, rec.Body.String())
	}
	// An API client gets the envelope, not the page.
	api := answer(id, "app.example.com", uri, "nope")
	api.browser = false
	if rec := v.verify(api); rec.Code != http.StatusUnauthorized || !contains(rec.Body.String(), `"code":"unauthenticated"`) {
		t.Fatalf("api: %d %s", rec.Code, rec.Body.String())
	}
	if rec := v.verify(answer(id, "app.example.com", uri, "correct horse")); rec.Code != http.StatusFound || sessionCookie(t, rec) == nil {
		t.Fatalf("right: %d %s", rec.Code, rec.Body.String())
	}
}

// TestSharedLinkPINBruteForce: wrong PINs end in 429 with Retry-After, per
// link from any address and per address on any link, and a link locks for
// good after LinkPINMaxFailures, even for the right PIN.
func TestSharedLinkPINBruteForce(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	l, uri := newLink(t, v, id, map[string]any{"pin": "7391"})
	try := func(pin, ip string) int {
		f := answer(id, "app.example.com", uri, pin)
		f.ip = ip
		rec := v.verify(f)
		if rec.Code == http.StatusTooManyRequests {
			if ra, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || ra < 1 || ra > int(LinkPINWindow/time.Second)+1 {
				t.Fatalf("Retry-After %q", rec.Header().Get("Retry-After"))
			}
			if !contains(rec.Body.String(), "Too many tries") {
				t.Fatalf("429 page: %s", rec.Body.String())
			}
		}
		return rec.Code
	}
	for i := range LinkPINWindowFailures {
		if code := try(fmt.Sprintf("%04d", i), fmt.Sprintf("198.51.100.%d", i+1)); code != http.StatusUnauthorized {
			t.Fatalf("try %d: %d", i, code)
		}
	}
	// From a new address too: the link is limited, and the right PIN is
	// not even compared.
	if code := try("7391", "198.51.100.99"); code != http.StatusTooManyRequests {
		t.Fatalf("after %d failures: %d", LinkPINWindowFailures, code)
	}
	if row := linkRow(t, v, l.ID); row.UsedAt != nil || row.PinFailures != LinkPINWindowFailures {
		t.Fatalf("row: used %v failures %d", row.UsedAt, row.PinFailures)
	}
	// The window passes; the remaining failures lock the link for good.
	v.clock.Add(LinkPINWindow + time.Second)
	for i := range LinkPINMaxFailures - LinkPINWindowFailures {
		code := try(fmt.Sprintf("1%03d", i), fmt.Sprintf("192.0.2.%d", i+1))
		want := http.StatusUnauthorized
		if i == LinkPINMaxFailures-LinkPINWindowFailures-1 {
			want = http.StatusForbidden
		}
		if code != want {
			t.Fatalf("late try %d: %d, want %d", i, code, want)
		}
	}
	v.clock.Add(LinkPINWindow + time.Second)
	rec := v.verify(answer(id, "app.example.com", uri, "7391"))
	if rec.Code != http.StatusForbidden || !contains(rec.Body.String(), "This link is locked") || sessionCookie(t, rec) != nil {
		t.Fatalf("locked, right PIN: %d %s", rec.Code, rec.Body.String())
	}
	var list httpx.List[LinkResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/services/"+id+"/shared-links", nil, &list)
	if list.Items[0].Status != LinkLocked || list.Items[0].FailedAttempts != LinkPINMaxFailures {
		t.Fatalf("list: %+v", list.Items[0])
	}

	// One address trying many links is limited as well.
	v.clock.Add(LinkPINWindow + time.Second)
	for i := range LinkPINAddressFailures {
		_, u := newLink(t, v, id, map[string]any{"pin": "5555"})
		f := answer(id, "app.example.com", u, "0000")
		f.ip = "203.0.113.50"
		if rec := v.verify(f); rec.Code != http.StatusUnauthorized {
			t.Fatalf("address try %d: %d", i, rec.Code)
		}
	}
	_, u := newLink(t, v, id, map[string]any{"pin": "5555"})
	f := answer(id, "app.example.com", u, "5555")
	f.ip = "203.0.113.50"
	if rec := v.verify(f); rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("address limit: %d", rec.Code)
	}
}

// TestSharedLinkPINConcurrentGuesses: of many wrong guesses at once, no
// more than LinkPINMaxFailures are ever compared, and none uses the link.
func TestSharedLinkPINConcurrentGuesses(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	l, uri := newLink(t, v, id, map[string]any{"pin": "246810"})
	var wg sync.WaitGroup
	var ok atomic.Int64
	start := make(chan struct{})
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			f := answer(id, "app.example.com", uri, fmt.Sprintf("%06d", i))
			f.ip = fmt.Sprintf("198.51.100.%d", i+1)
			if rec := v.verify(f); rec.Code < 300 || sessionCookie(t, rec) != nil {
				ok.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()
	row := linkRow(t, v, l.ID)
	if ok.Load() != 0 || row.UsedAt != nil || row.PinFailures > LinkPINMaxFailures {
		t.Fatalf("successes %d, used %v, failures %d", ok.Load(), row.UsedAt, row.PinFailures)
	}
}

// A PIN link's token with the button of a link without PIN (a POST from a
// page kept open) never uses it: only the form with the right PIN does.
func TestSharedLinkPINNotUsedByButton(t *testing.T) {
	v := newEnv(t)
	id := linkService(t, v, "app.example.com")
	l, uri := newLink(t, v, id, map[string]any{"pin": "1357"})
	for range 3 {
		if rec := v.verify(press(id, "app.example.com", uri)); rec.Code != http.StatusUnauthorized || sessionCookie(t, rec) != nil {
			t.Fatalf("press: %d", rec.Code)
		}
	}
	if row := linkRow(t, v, l.ID); row.UsedAt != nil || row.PinFailures != 0 {
		t.Fatalf("row: %+v", row)
	}
}

func TestPinFormTarget(t *testing.T) {
	tests := []struct {
		uri, path string
		hidden    []pageField
	}{
		{"/?gh_link=abc", "/", []pageField{{"gh_link", "abc"}}},
		{"/docs?a=1&gh_link=x%2By&gh_pin=9", "/docs", []pageField{{"a", "1"}, {"gh_link", "x+y"}}},
		{"/p", "/p", nil},
		{"/p?%zz=1&b", "/p", []pageField{{"b", ""}}},
	}
	for _, tt := range tests {
		path, hidden := pinFormTarget(tt.uri)
		if path != tt.path || fmt.Sprint(hidden) != fmt.Sprint(tt.hidden) {
			t.Errorf("%q: %q %v, want %q %v", tt.uri, path, hidden, tt.path, tt.hidden)
		}
	}
}

// TestSharedLinkPINLimitAcrossReplicas: wrong PINs sent to two replicas on
// one PostgreSQL database count together, and the total lock holds on both.
func TestSharedLinkPINLimitAcrossReplicas(t *testing.T) {
	if !testutil.OnPostgres() {
		t.Skip("on SQLite one process serves: failures are counted in memory")
	}
	a := newEnv(t)
	id := linkService(t, a, "app.example.com")
	_, uri := newLink(t, a, id, map[string]any{"pin": "9182"})
	b := a.replica()
	for i := range LinkPINWindowFailures {
		v := []*env{a, b}[i%2]
		f := answer(id, "app.example.com", uri, fmt.Sprintf("%04d", i))
		f.ip = fmt.Sprintf("198.51.100.%d", i+1)
		if rec := v.verify(f); rec.Code != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i, rec.Code)
		}
	}
	for name, v := range map[string]*env{"a": a, "b": b} {
		if rec := v.verify(answer(id, "app.example.com", uri, "9182")); rec.Code != http.StatusTooManyRequests {
			t.Fatalf("replica %s after %d wrong PINs over two replicas: %d, want 429", name, LinkPINWindowFailures, rec.Code)
		}
	}
}
