//go:build e2e

package e2e

import (
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/e2e/harness"
)

var (
	formRe   = regexp.MustCompile(`<form method="GET" action="([^"]*)">`)
	hiddenRe = regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`)
)

// pinURL is where a browser submitting the PIN form of a link's page goes:
// the form's action with its hidden fields and the answer.
func pinURL(t *testing.T, page answer, origin, pin string) string {
	t.Helper()
	m := formRe.FindStringSubmatch(page.body)
	if m == nil {
		t.Fatalf("no PIN form on the page: %s", page.body)
	}
	q := url.Values{}
	for _, h := range hiddenRe.FindAllStringSubmatch(page.body, -1) {
		q.Add(html.UnescapeString(h[1]), html.UnescapeString(h[2]))
	}
	q.Set("gh_pin", pin)
	return origin + html.UnescapeString(m[1]) + "?" + q.Encode()
}

// submitPIN submits the form as a navigation from the page's own origin.
func submitPIN(t *testing.T, c *http.Client, page answer, origin, pin string) answer {
	t.Helper()
	return fetch(t, c, pinURL(t, page, origin, pin), map[string]string{"Sec-Fetch-Site": "same-origin"})
}

type linkState struct {
	ID, Status, Challenge string
	FailedAttempts        int
}

func linkStates(t *testing.T, p *harness.Panel, serviceID string) map[string]linkState {
	t.Helper()
	var list struct{ Items []linkState }
	p.MustJSON(t, http.StatusOK, http.MethodGet, "/api/services/"+serviceID+"/shared-links", nil, &list)
	out := map[string]linkState{}
	for _, l := range list.Items {
		out[l.ID] = l
	}
	return out
}

// TestSharedLinkPINThroughTraefik: a link with a PIN, through a real
// Traefik. Its page asks for the PIN; a wrong one leaves the link unused;
// the right one opens the service, and the answer never reaches it; a
// brute force on another link ends in 429 with Retry-After and never uses
// that link, even with its right PIN.
func TestSharedLinkPINThroughTraefik(t *testing.T) {
	harness.TraefikBin(t)
	p := harness.StartPanel(t, nil)
	be := harness.StartBackend(t, "protected")
	tr := harness.StartTraefik(t, harness.TraefikOptions{ProviderURL: p.URL + "/api/proxy/config"})

	const origin = "http://pin.access.test"
	var svc struct{ ID string }
	p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services", map[string]any{
		"name": "pin", "hostnames": []map[string]string{{"type": "custom", "value": "pin.access.test"}},
		"targets": []map[string]any{{"host": be.Host, "port": be.Port}}, "entrypoints": []string{"web"},
	}, &svc)
	// The Security tab's one save.
	p.MustJSON(t, http.StatusOK, http.MethodPut, "/api/services/"+svc.ID+"/protection",
		map[string]any{"sharedLinks": map[string]any{"enabled": true}, "tokens": map[string]any{"enabled": false}}, nil)
	newPINLink := func(pin string) (id, link string) {
		var l struct{ ID, URL string }
		p.MustJSON(t, http.StatusCreated, http.MethodPost, "/api/services/"+svc.ID+"/shared-links",
			map[string]any{"pin": pin, "note": "e2e"}, &l)
		return l.ID, l.URL
	}
	id, link := newPINLink("4829")
	probe := browser(t, tr)
	harness.Eventually(t, 30*time.Second, func() bool {
		return fetch(t, probe, origin+"/", nil).code == http.StatusUnauthorized
	}, "pin.access.test never became protected")

	c := browser(t, tr)
	page := fetch(t, c, link, nil)
	if page.code != http.StatusUnauthorized || !strings.Contains(page.body, `name="gh_pin"`) || !strings.Contains(page.body, "protected the link with a PIN") {
		t.Fatalf("the link's page: %d %s", page.code, page.body)
	}
	wrong := submitPIN(t, c, page, origin, "0000")
	if wrong.code != http.StatusUnauthorized || !strings.Contains(wrong.body, "That PIN is not right") {
		t.Fatalf("a wrong PIN: %d %s", wrong.code, wrong.body)
	}
	if st := linkStates(t, p, svc.ID)[id]; st.Status != "active" || st.FailedAttempts != 1 || st.Challenge != "pin" {
		t.Fatalf("after a wrong PIN the link is %+v", st)
	}
	u, _ := url.Parse(origin + "/")
	if len(c.Jar.Cookies(u)) != 0 {
		t.Fatal("a wrong PIN set a cookie")
	}
	right := submitPIN(t, c, wrong, origin, "4829")
	if right.code != http.StatusFound || right.location != origin+"/" || len(c.Jar.Cookies(u)) == 0 {
		t.Fatalf("the right PIN: %d %q %s", right.code, right.location, right.body)
	}
	if a := fetch(t, c, right.location, nil); a.code != http.StatusOK || a.reply.Backend != "protected" || strings.Contains(a.reply.Path, "gh_") {
		t.Fatalf("with the session: %d %+v", a.code, a.reply)
	}
	if st := linkStates(t, p, svc.ID)[id]; st.Status != "used" {
		t.Fatalf("after the right PIN the link is %+v", st)
	}

	// A brute force on another link: five wrong PINs, then 429.
	id2, link2 := newPINLink("7391")
	attacker := browser(t, tr)
	page = fetch(t, attacker, link2, nil)
	codes := []int{}
	for i := range 5 {
		codes = append(codes, submitPIN(t, attacker, page, origin, strconv.Itoa(1000+i)).code)
	}
	limited := visitWithHeaders(t, attacker, page, origin, "7391")
	if limited.code != http.StatusTooManyRequests || limited.retryAfter == "" || !strings.Contains(limited.body, "Too many tries") {
		t.Fatalf("after %v the right PIN answered %d (Retry-After %q): %s", codes, limited.code, limited.retryAfter, limited.body)
	}
	if ra, err := strconv.Atoi(limited.retryAfter); err != nil || ra < 1 || ra > 15*60+1 {
		t.Fatalf("Retry-After %q", limited.retryAfter)
	}
	if st := linkStates(t, p, svc.ID)[id2]; st.Status != "active" || st.FailedAttempts != 5 {
		t.Fatalf("after the brute force the link is %+v", st)
	}
	if len(attacker.Jar.Cookies(u)) != 0 {
		t.Fatal("the brute force got a session")
	}
}

type limitedAnswer struct {
	code       int
	retryAfter string
	body       string
}

// visitWithHeaders submits a PIN and keeps the Retry-After header Traefik
// passes on from forward-auth.
func visitWithHeaders(t *testing.T, c *http.Client, page answer, origin, pin string) limitedAnswer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, pinURL(t, page, origin, pin), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/html")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return limitedAnswer{code: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: string(b)}
}
