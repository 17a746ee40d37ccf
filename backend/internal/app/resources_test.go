package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

type item struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	FQDNs     []string `json:"fqdns"`
	Enabled   bool     `json:"enabled"`
	ExpiresAt *string  `json:"expiresAt"`
}

func (a *testApp) mustCreate(path, body string) item {
	a.t.Helper()
	rec := a.do("POST", path, body)
	if rec.Code != http.StatusCreated {
		a.t.Fatalf("POST %s: %d %s", path, rec.Code, rec.Body)
	}
	return decode[item](a.t, rec)
}

func svcBody(domainID, sub string, extra string) string {
	return fmt.Sprintf(`{"name":"app","domainId":%q,"hostnames":[{"type":"subdomain","value":%q}],
		"targets":[{"scheme":"http","host":"10.0.0.5","port":8080}]%s}`, domainID, sub, extra)
}

func TestServiceAndDomainCRUD(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"name":"Home","domain":"Example.com.","certResolver":"le","isDefault":true}`)
	s := a.mustCreate("/api/services", svcBody(d.ID, "App", `,"hostnames":[{"type":"subdomain","value":"app"},{"type":"apex"},{"type":"custom","value":"Other.example.org"}]`))
	if strings.Join(s.FQDNs, ",") != "app.example.com,example.com,other.example.org" {
		t.Fatalf("fqdns = %v", s.FQDNs)
	}

	list := decode[struct{ Items []item }](t, a.do("GET", "/api/services", ""))
	if len(list.Items) != 1 || list.Items[0].ID != s.ID {
		t.Fatalf("list = %+v", list)
	}

	rec := a.do("PUT", "/api/services/"+s.ID, svcBody(d.ID, "web", `,"enabled":false`))
	if rec.Code != http.StatusOK {
		t.Fatalf("update: %d %s", rec.Code, rec.Body)
	}
	if u := decode[item](t, rec); u.Enabled || strings.Join(u.FQDNs, ",") != "web.example.com" {
		t.Fatalf("updated = %+v", u)
	}

	// Renaming the domain renames the service's hosts.
	rec = a.do("PUT", "/api/domains/"+d.ID, `{"name":"Home","domain":"example.net","certResolver":"le"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("rename domain: %d %s", rec.Code, rec.Body)
	}
	if g := decode[item](t, a.do("GET", "/api/services/"+s.ID, "")); g.FQDNs[0] != "web.example.net" {
		t.Fatalf("after rename fqdns = %v", g.FQDNs)
	}

	// A domain in use cannot be deleted; after the service goes, it can.
	if rec := a.do("DELETE", "/api/domains/"+d.ID, ""); rec.Code != http.StatusConflict {
		t.Fatalf("delete used domain = %d", rec.Code)
	}
	if rec := a.do("DELETE", "/api/services/"+s.ID, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete service = %d", rec.Code)
	}
	if rec := a.do("GET", "/api/services/"+s.ID, ""); rec.Code != http.StatusNotFound {
		t.Fatalf("get deleted = %d", rec.Code)
	}
	if rec := a.do("DELETE", "/api/domains/"+d.ID, ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete domain = %d %s", rec.Code, rec.Body)
	}
}

// TestHTTPSOptionsRoundTrip: a domain's HTTPS defaults and a service's
// overrides are stored and shown as sent; a service that sends none inherits.
func TestHTTPSOptionsRoundTrip(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"domain":"example.com","https":{"redirect":true,"hsts":{"maxAge":31536000,"includeSubdomains":true,"preload":true}}}`)
	rec := a.do("GET", "/api/domains/"+d.ID, "")
	if !strings.Contains(rec.Body.String(), `"https":{"redirect":true,"hsts":{"maxAge":31536000,"includeSubdomains":true,"preload":true}}`) {
		t.Fatalf("domain = %s", rec.Body)
	}
	inherit := a.mustCreate("/api/services", svcBody(d.ID, "a", ""))
	rec = a.do("GET", "/api/services/"+inherit.ID, "")
	if !strings.Contains(rec.Body.String(), `"https":{"redirect":null,"hsts":null}`) {
		t.Fatalf("inheriting service = %s", rec.Body)
	}
	own := a.mustCreate("/api/services", svcBody(d.ID, "b", `,"https":{"redirect":false,"hsts":{"maxAge":600,"includeSubdomains":false,"preload":false}}`))
	rec = a.do("GET", "/api/services/"+own.ID, "")
	if !strings.Contains(rec.Body.String(), `"https":{"redirect":false,"hsts":{"maxAge":600,"includeSubdomains":false,"preload":false}}`) {
		t.Fatalf("overriding service = %s", rec.Body)
	}
	// The switch keeps the overrides.
	if rec := a.do("PATCH", "/api/services/"+own.ID, `{"enabled":false}`); rec.Code != http.StatusOK ||
		!strings.Contains(rec.Body.String(), `"https":{"redirect":false,"hsts":{"maxAge":600`) {
		t.Fatalf("after toggle = %d %s", rec.Code, rec.Body)
	}
}

// TestRedirectKindKeepsTargets: a redirect needs no targets, and a proxy
// turned into a redirect and back keeps its targets and its redirect.
func TestRedirectKindKeepsTargets(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"domain":"example.com"}`)
	r := a.mustCreate("/api/services", svcBody(d.ID, "old", `,"targets":[],"kind":"redirect","redirect":{"url":"https://new.example.org/","permanent":true,"keepPath":true}`))
	rec := a.do("GET", "/api/services/"+r.ID, "")
	if !strings.Contains(rec.Body.String(), `"kind":"redirect","redirect":{"url":"https://new.example.org/","permanent":true,"keepPath":true}`) {
		t.Fatalf("redirect = %s", rec.Body)
	}
	p := a.mustCreate("/api/services", svcBody(d.ID, "app", ""))
	rec = a.do("PUT", "/api/services/"+p.ID, svcBody(d.ID, "app", `,"kind":"redirect","redirect":{"url":"https://x.test/"}`))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"targets":[{"scheme":"http","host":"10.0.0.5","port":8080}]`) {
		t.Fatalf("proxy to redirect = %d %s", rec.Code, rec.Body)
	}
	rec = a.do("PUT", "/api/services/"+p.ID, svcBody(d.ID, "app", `,"kind":"proxy","redirect":{"url":"https://x.test/"}`))
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"kind":"proxy","redirect":{"url":"https://x.test/"`) {
		t.Fatalf("back to proxy = %d %s", rec.Code, rec.Body)
	}
}

// TestPastedDomainIsCleaned: a domain pasted as the browser shows it
// (https://Example.com/) is stored as the name alone.
func TestPastedDomainIsCleaned(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"domain":" https://Pasted.Example.com/ "}`)
	var got struct {
		Domain, Name string
	}
	_ = json.Unmarshal(a.do("GET", "/api/domains/"+d.ID, "").Body.Bytes(), &got)
	if got.Domain != "pasted.example.com" || got.Name != "pasted.example.com" {
		t.Fatalf("stored %+v", got)
	}
}

func TestOnlyOneDefaultDomain(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	first := a.mustCreate("/api/domains", `{"domain":"a.test","isDefault":true}`)
	a.mustCreate("/api/domains", `{"domain":"b.test","isDefault":true}`)
	var got struct {
		IsDefault bool `json:"isDefault"`
	}
	_ = json.Unmarshal(a.do("GET", "/api/domains/"+first.ID, "").Body.Bytes(), &got)
	if got.IsDefault {
		t.Fatal("the old default kept its flag")
	}
}

func TestValidationNamesTheField(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"domain":"example.com","certResolver":"le"}`)
	a.mustCreate("/api/services", svcBody(d.ID, "taken", ""))

	tests := []struct {
		name, path, body string
		status           int
		field            string
	}{
		{"port zero", "/api/services", svcBody(d.ID, "a", `,"targets":[{"host":"x","port":0}]`), 422, "targets[0].port"},
		{"port too big", "/api/services", svcBody(d.ID, "a", `,"targets":[{"host":"x","port":70000}]`), 422, "targets[0].port"},
		{"bad scheme", "/api/services", svcBody(d.ID, "a", `,"targets":[{"scheme":"ftp","host":"x","port":1}]`), 422, "targets[0].scheme"},
		{"target host injection", "/api/services", svcBody(d.ID, "a", `,"targets":[{"host":"x/evil","port":1}]`), 422, "targets[0].host"},
		{"no targets", "/api/services", svcBody(d.ID, "a", `,"targets":[]`), 422, "targets"},
		{"backtick host", "/api/services", svcBody(d.ID, "a`) || Host(`evil", ""), 422, "hostnames[0].value"},
		{"space host", "/api/services", `{"name":"x","hostnames":[{"type":"custom","value":"a b.com"}],"targets":[{"host":"x","port":1}]}`, 422, "hostnames[0].value"},
		{"paren host", "/api/services", `{"name":"x","hostnames":[{"type":"custom","value":"a(b).com"}],"targets":[{"host":"x","port":1}]}`, 422, "hostnames[0].value"},
		{"wildcard service host", "/api/services", `{"name":"x","hostnames":[{"type":"custom","value":"*.a.com"}],"targets":[{"host":"x","port":1}]}`, 422, "hostnames[0].value"},
		{"subdomain without domain", "/api/services", `{"name":"x","hostnames":[{"type":"subdomain","value":"a"}],"targets":[{"host":"x","port":1}]}`, 422, "domainId"},
		{"unknown domain", "/api/services", svcBody("nope", "a", ""), 422, "domainId"},
		{"no hostnames", "/api/services", `{"name":"x","hostnames":[],"targets":[{"host":"x","port":1}]}`, 422, "hostnames"},
		{"hostname taken", "/api/services", svcBody(d.ID, "taken", ""), 409, "hostnames[0]"},
		{"duplicate host in one service", "/api/services", svcBody(d.ID, "a", `,"hostnames":[{"type":"subdomain","value":"dup"},{"type":"custom","value":"dup.example.com"}]`), 422, "hostnames[1]"},
		{"empty name", "/api/services", svcBody(d.ID, "a", `,"name":" "`), 422, "name"},
		{"path rule injection", "/api/services", svcBody(d.ID, "a", ",\"rules\":[{\"type\":\"pathPrefix\",\"value\":\"/a`)||Path(`/b\"}]"), 422, "rules[0].value"},
		{"relative path rule", "/api/services", svcBody(d.ID, "a", `,"rules":[{"type":"path","value":"api"}]`), 422, "rules[0].value"},
		{"header rule quote", "/api/services", svcBody(d.ID, "a", `,"rules":[{"type":"header","name":"X-A","value":"a\"b"}]`), 422, "rules[0].value"},
		{"bad method", "/api/services", svcBody(d.ID, "a", `,"rules":[{"type":"method","value":"FETCH"}]`), 422, "rules[0].value"},
		{"bad cidr", "/api/services", svcBody(d.ID, "a", `,"rules":[{"type":"clientIP","value":"10.0.0.0/99"}]`), 422, "rules[0].value"},
		{"unknown rule", "/api/services", svcBody(d.ID, "a", `,"rules":[{"type":"regex","value":"x"}]`), 422, "rules[0].type"},
		{"bad entrypoint", "/api/services", svcBody(d.ID, "a", `,"entrypoints":["web secure"]`), 422, "entrypoints[0]"},
		{"bad middleware", "/api/services", svcBody(d.ID, "a", `,"middlewares":["a@b@c"]`), 422, "middlewares[0]"},
		{"header newline", "/api/services", svcBody(d.ID, "a", `,"headers":{"X-A":"a\nb"}`), 422, "headers.X-A"},
		{"expiry in past", "/api/services", svcBody(d.ID, "a", `,"expiry":{"type":"at","at":"2001-01-01T00:00:00Z"}`), 422, "expiry.at"},
		{"expiry too short", "/api/services", svcBody(d.ID, "a", `,"expiry":{"type":"duration","seconds":5}`), 422, "expiry.seconds"},
		{"hsts negative", "/api/services", svcBody(d.ID, "a", `,"https":{"hsts":{"maxAge":-1}}`), 422, "https.hsts.maxAge"},
		{"hsts too long", "/api/services", svcBody(d.ID, "a", `,"https":{"hsts":{"maxAge":999999999}}`), 422, "https.hsts.maxAge"},
		{"hsts preload short", "/api/services", svcBody(d.ID, "a", `,"https":{"hsts":{"maxAge":600,"includeSubdomains":true,"preload":true}}`), 422, "https.hsts.preload"},
		{"hsts subdomains without age", "/api/services", svcBody(d.ID, "a", `,"https":{"hsts":{"maxAge":0,"includeSubdomains":true}}`), 422, "https.hsts.maxAge"},
		{"redirect not a bool", "/api/services", svcBody(d.ID, "a", `,"https":{"redirect":"yes"}`), 400, "https.redirect"},
		{"unknown kind", "/api/services", svcBody(d.ID, "a", `,"kind":"static"`), 422, "kind"},
		{"redirect without url", "/api/services", svcBody(d.ID, "a", `,"kind":"redirect"`), 422, "redirect.url"},
		{"redirect relative url", "/api/services", svcBody(d.ID, "a", `,"kind":"redirect","redirect":{"url":"/elsewhere"}`), 422, "redirect.url"},
		{"redirect javascript url", "/api/services", svcBody(d.ID, "a", `,"kind":"redirect","redirect":{"url":"javascript:alert(1)"}`), 422, "redirect.url"},
		{"redirect url with backtick", "/api/services", svcBody(d.ID, "a", ",\"kind\":\"redirect\",\"redirect\":{\"url\":\"https://x.test/`\"}"), 422, "redirect.url"},
		{"redirect keep path with query", "/api/services", svcBody(d.ID, "a", `,"kind":"redirect","redirect":{"url":"https://x.test/?a=1","keepPath":true}`), 422, "redirect.url"},
		{"maintenance control character", "/api/services", svcBody(d.ID, "a", `,"maintenance":{"enabled":true,"message":"a\u0000b"}`), 422, "maintenance.message"},
		{"weight too big", "/api/services", svcBody(d.ID, "a", `,"targets":[{"host":"x","port":1,"weight":5000}]`), 422, "targets[0].weight"},
		{"health check path injection", "/api/services", svcBody(d.ID, "a", `,"loadBalancer":{"healthCheck":{"path":"/a\"b","intervalSeconds":10,"timeoutSeconds":1}}`), 422, "loadBalancer.healthCheck.path"},
		{"health check timeout over interval", "/api/services", svcBody(d.ID, "a", `,"loadBalancer":{"healthCheck":{"path":"/","intervalSeconds":5,"timeoutSeconds":10}}`), 422, "loadBalancer.healthCheck.timeoutSeconds"},
		{"health check status", "/api/services", svcBody(d.ID, "a", `,"loadBalancer":{"healthCheck":{"path":"/","intervalSeconds":5,"timeoutSeconds":1,"status":700}}`), 422, "loadBalancer.healthCheck.status"},
		{"sticky cookie name", "/api/services", svcBody(d.ID, "a", `,"loadBalancer":{"sticky":{"cookieName":"a;b"}}`), 422, "loadBalancer.sticky.cookieName"},
		{"sticky samesite none insecure", "/api/services", svcBody(d.ID, "a", `,"loadBalancer":{"sticky":{"sameSite":"none"}}`), 422, "loadBalancer.sticky.sameSite"},
		{"negative timeout", "/api/services", svcBody(d.ID, "a", `,"loadBalancer":{"timeouts":{"dialSeconds":-1}}`), 422, "loadBalancer.timeouts.dialSeconds"},
		{"wrong type", "/api/services", `{"name":"x","targets":"many"}`, 400, "targets"},
		{"bad domain", "/api/domains", `{"domain":"exa mple.com"}`, 422, "domain"},
		{"pasted domain with a path", "/api/domains", `{"domain":"https://p.test/app"}`, 422, "domain"},
		{"pasted domain with a port", "/api/domains", `{"domain":"https://p.test:8443/"}`, 422, "domain"},
		{"duplicate domain", "/api/domains", `{"domain":"example.com"}`, 409, "domain"},
		{"wildcard without resolver", "/api/domains", `{"domain":"w.test","wildcard":true}`, 422, "certResolver"},
		{"domain hsts preload", "/api/domains", `{"domain":"h.test","https":{"hsts":{"maxAge":31536000,"preload":true}}}`, 422, "https.hsts.preload"},
		{"bad cert san", "/api/domains", `{"domain":"c.test","certResolver":"le","certConfigs":[{"main":"c.test","sans":["a b"]}]}`, 422, "certConfigs[0].sans[0]"},
		{"bad config entrypoint", "/api/config", `{"defaultEntrypoints":["a/b"]}`, 422, "defaultEntrypoints[0]"},
		{"empty default entrypoints", "/api/config", `{"defaultEntrypoints":[]}`, 422, "defaultEntrypoints"},
		{"bad admin domain", "/api/config", `{"adminDomain":"x y","defaultEntrypoints":["web"]}`, 422, "adminDomain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := "POST"
			if tt.path == "/api/config" {
				method = "PUT"
			}
			rec := a.do(method, tt.path, tt.body)
			if rec.Code != tt.status {
				t.Fatalf("= %d %s; want %d", rec.Code, rec.Body, tt.status)
			}
			e := decodeEnvelope(t, rec)
			for _, f := range e.Error.Fields {
				if f.Field == tt.field {
					return
				}
			}
			t.Fatalf("fields %+v do not name %q", e.Error.Fields, tt.field)
		})
	}
	// Nothing above was half-saved.
	if list := decode[struct{ Items []item }](t, a.do("GET", "/api/services", "")); len(list.Items) != 1 {
		t.Fatalf("services after failed writes = %d", len(list.Items))
	}
}

func TestMalformedBodies(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	tests := []struct {
		name, body, ctype string
		status            int
	}{
		{"truncated", `{"name":`, "application/json", 400},
		{"not json", `hello`, "application/json", 400},
		{"two values", `{} {}`, "application/json", 400},
		{"empty", ``, "application/json", 400},
		{"wrong content type", `{}`, "text/plain", 400},
		{"too large", `{"name":"` + strings.Repeat("a", 2<<20) + `"}`, "application/json", 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := a.do("POST", "/api/services", tt.body, "Content-Type", tt.ctype)
			if rec.Code != tt.status {
				t.Fatalf("= %d %s; want %d", rec.Code, rec.Body, tt.status)
			}
			decodeEnvelope(t, rec)
		})
	}
}

func TestInternalErrorsDoNotLeak(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	// Break the database under the running app: the schema is gone.
	if err := a.c.db.Exec("DROP TABLE service_hostnames").Error; err != nil {
		t.Fatal(err)
	}
	d := a.mustCreate("/api/domains", `{"domain":"example.com"}`)
	rec := a.do("POST", "/api/services", svcBody(d.ID, "a", ""))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("= %d %s", rec.Code, rec.Body)
	}
	e := decodeEnvelope(t, rec)
	if e.Error.Code != "internal" || strings.Contains(rec.Body.String(), "service_hostnames") || e.Error.RequestID == "" {
		t.Fatalf("500 leaks or lacks a request id: %s", rec.Body)
	}
	if !strings.Contains(a.logs.String(), e.Error.RequestID) || !strings.Contains(a.logs.String(), "service_hostnames") {
		t.Fatal("the cause and request id are not in the log")
	}
	// And the failed write left nothing behind.
	if list := decode[struct{ Items []item }](t, a.do("GET", "/api/services", "")); len(list.Items) != 0 {
		t.Fatalf("half-saved service: %+v", list.Items)
	}
}

func TestPatchTogglesOnlyEnabled(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"domain":"example.com"}`)
	s := a.mustCreate("/api/services", svcBody(d.ID, "app",
		`,"rules":[{"type":"pathPrefix","value":"/api"}],"expiry":{"type":"duration","seconds":3600}`))

	rec := a.do("PATCH", "/api/services/"+s.ID, `{"enabled":false}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("disable: %d %s", rec.Code, rec.Body)
	}
	var got struct {
		Enabled bool `json:"enabled"`
		Rules   []struct{ Value string }
		Expiry  struct {
			Type    string
			Seconds int64
		}
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &got)
	if got.Enabled || len(got.Rules) != 1 || got.Rules[0].Value != "/api" || got.Expiry.Seconds != 3600 {
		t.Fatalf("after PATCH = %s", rec.Body)
	}
	rec = a.do("PATCH", "/api/services/"+s.ID, `{"enabled":true}`)
	if rec.Code != http.StatusOK || decode[item](t, rec).ExpiresAt == nil {
		t.Fatalf("enable: %d %s", rec.Code, rec.Body)
	}
	if rec := a.do("PATCH", "/api/services/"+s.ID, `{}`); rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("PATCH without enabled = %d", rec.Code)
	}
	if rec := a.do("PATCH", "/api/services/nope", `{"enabled":true}`); rec.Code != http.StatusNotFound {
		t.Fatalf("PATCH unknown = %d", rec.Code)
	}
}

// TestDeleteUsedDomainNamesEveryService: the refusal lists the first five
// services and says how many more there are.
func TestDeleteUsedDomainNamesEveryService(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	d := a.mustCreate("/api/domains", `{"name":"Home","domain":"example.com","isDefault":true}`)
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		a.mustCreate("/api/services", svcBody(d.ID, n, ""))
	}
	rec := a.do("DELETE", "/api/domains/"+d.ID, "")
	if rec.Code != http.StatusConflict {
		t.Fatalf("delete used domain = %d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(rec.Body.String(), "services: app, app, app, app, app and 1 more;") {
		t.Fatalf("body = %s", rec.Body)
	}
}
