package forwardauth

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// TestSharedLinkPreviewConsumesNothing: chat and mail robots fetch a link
// (HEAD and GET, with or without text/html, any number of times) before the
// person it was sent to opens it. None of that uses the link: each fetch
// gets the page with the button, and only the button's POST redeems it.
func TestSharedLinkPreviewConsumesNothing(t *testing.T) {
	v := newEnv(t)
	const host = "app.example.com"
	id := linkService(t, v, host)
	_, uri := newLink(t, v, id, map[string]any{"sessionSeconds": 7200})

	robots := []fwd{
		{service: id, method: http.MethodHead, host: host, uri: uri},
		{service: id, method: http.MethodHead, host: host, uri: uri, browser: true},
		{service: id, method: http.MethodGet, host: host, uri: uri,
			hdr: map[string]string{"User-Agent": "Slackbot-LinkExpanding 1.0", "Accept": "*/*"}},
		{service: id, method: http.MethodGet, host: host, uri: uri, browser: true,
			hdr: map[string]string{"User-Agent": "Microsoft Office/16.0 (Outlook safe links)"}},
		{service: id, method: http.MethodOptions, host: host, uri: uri},
	}
	for round := range 3 {
		for _, f := range robots {
			rec := v.verify(f)
			if rec.Code != http.StatusUnauthorized || sessionCookie(t, rec) != nil {
				t.Fatalf("round %d, %s %v: %d %s", round, f.method, f.hdr, rec.Code, rec.Body.String())
			}
		}
	}
	var list httpx.List[LinkResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/services/"+id+"/shared-links", nil, &list)
	if len(list.Items) != 1 || list.Items[0].Status != LinkActive || list.Items[0].UsedAt != nil {
		t.Fatalf("after the robots the link is %+v, want active", list.Items)
	}
	var sess httpx.List[SessionResponse]
	v.must(http.StatusOK, http.MethodGet, "/api/sessions", nil, &sess)
	if len(sess.Items) != 0 {
		t.Fatalf("robots opened sessions: %+v", sess.Items)
	}

	// The person's browser gets a page that explains and has one button
	// posting back to the link's own address.
	rec := v.verify(fwd{service: id, host: host, uri: uri, browser: true})
	body := rec.Body.String()
	for _, want := range []string{"<form method=\"post\" action=\"" + strings.ReplaceAll(uri, "&", "&amp;") + "\">",
		"<button type=\"submit\">Open App " + host, "works once", "2 hours"} {
		if !strings.Contains(body, want) {
			t.Fatalf("link page lacks %q:\n%s", want, body)
		}
	}
	csp := rec.Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "form-action 'self'") ||
		rec.Header().Get("Referrer-Policy") != "same-origin" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("link page headers: %v", rec.Header())
	}
	// An API client is told the same in the envelope.
	rec = v.verify(fwd{service: id, host: host, uri: uri})
	if !strings.Contains(rec.Body.String(), `"code":"unauthenticated"`) {
		t.Fatalf("API client: %d %s", rec.Code, rec.Body.String())
	}

	// A POST from another site, or without any origin, uses nothing.
	for name, hdr := range map[string]map[string]string{
		"other origin":           {"Origin": "https://evil.example"},
		"other scheme":           {"Origin": "http://" + host},
		"cross-site fetch":       {"Sec-Fetch-Site": "cross-site"},
		"no origin":              {},
		"null origin":            {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
		"origin of a subdomain":  {"Origin": "https://x." + host},
		"origin with other port": {"Origin": "https://" + host + ":8443"},
	} {
		rec := v.verify(fwd{service: id, method: http.MethodPost, host: host, uri: uri, browser: true, hdr: hdr})
		if rec.Code != http.StatusForbidden || sessionCookie(t, rec) != nil {
			t.Fatalf("POST with %s: %d %s", name, rec.Code, rec.Body.String())
		}
	}

	// The button: a session and the clean address.
	rec = v.verify(press(id, host, uri))
	ck := sessionCookie(t, rec)
	if rec.Code != http.StatusSeeOther || ck == nil || rec.Header().Get("Location") != "https://"+host+"/" {
		t.Fatalf("press: %d %q %v", rec.Code, rec.Header().Get("Location"), ck)
	}
	if rec := v.verify(fwd{service: id, host: host, cookie: ck.Value}); rec.Code != http.StatusOK {
		t.Fatalf("with the session: %d", rec.Code)
	}
	// A second press (another browser) says the link is used.
	rec = v.verify(press(id, host, uri))
	if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "already used") {
		t.Fatalf("second press: %d %s", rec.Code, rec.Body.String())
	}
}

// TestSharedLinkOriginWithDefaultPort: browsers leave the default port out
// of Origin, while a Host header may carry it.
func TestSharedLinkOriginWithDefaultPort(t *testing.T) {
	tests := []struct {
		proto, host, origin string
		same                bool
	}{
		{"https", "app.example.com", "https://app.example.com", true},
		{"https", "app.example.com:443", "https://app.example.com", true},
		{"http", "app.example.com:80", "http://app.example.com", true},
		{"https", "App.Example.com", "https://app.example.com", true},
		{"http", "app.example.com:8080", "http://app.example.com:8080", true},
		{"http", "app.example.com:8080", "http://app.example.com", false},
		{"https", "app.example.com", "http://app.example.com", false},
		{"https", "app.example.com", "https://app.example.com.evil.example", false},
	}
	for _, tt := range tests {
		f := fwdRequest{proto: tt.proto, host: tt.host, header: http.Header{"Origin": {tt.origin}}}
		if got := sameOrigin(f); got != tt.same {
			t.Errorf("%s://%s with Origin %s: same %v, want %v", tt.proto, tt.host, tt.origin, got, tt.same)
		}
	}
}
