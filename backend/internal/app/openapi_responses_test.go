package app

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"

	"github.com/gatehouse-proxy/gatehouse/internal/openapi"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

type contract struct {
	validator.Validator
}

func newContract(t testing.TB, doc []byte) contract {
	t.Helper()
	d, err := libopenapi.NewDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(d, config.WithFormatAssertions())
	if len(errs) > 0 {
		t.Fatalf("load the document: %v", errs)
	}
	return contract{v}
}

// check validates one recorded answer: the path and method are described,
// the status is one the operation lists, and the body matches its schema.
func (c contract) check(r testutil.Recorded) []string {
	if r.Status == http.StatusInternalServerError && isInternalError(r.Body) {
		return nil // any operation may answer it (see the document's description)
	}
	req, err := http.NewRequest(r.Method, "http://panel"+r.Path, nil)
	if err != nil {
		return []string{err.Error()}
	}
	resp := &http.Response{StatusCode: r.Status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(r.Body))}
	if r.ContentType != "" {
		resp.Header.Set("Content-Type", r.ContentType)
	}
	ok, errs := c.GetResponseBodyValidator().ValidateResponseBody(req, resp)
	if ok {
		return nil
	}
	var out []string
	for _, e := range errs {
		msg := e.Message
		if e.Reason != "" {
			msg += ": " + e.Reason
		}
		for _, s := range e.SchemaValidationErrors {
			msg += fmt.Sprintf("; %s %s", s.FieldPath, s.Reason)
		}
		out = append(out, msg)
	}
	return out
}

func isInternalError(body string) bool {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	return json.Unmarshal([]byte(body), &e) == nil && e.Error.Code == "internal"
}

// TestContractRefusesWrongAnswers proves the check is not vacuous.
func TestContractRefusesWrongAnswers(t *testing.T) {
	doc, err := apiDocument()
	if err != nil {
		t.Fatal(err)
	}
	c := newContract(t, doc)
	// A domain whose HSTS policy is preloaded: the document's Hsts says preload needs
	// includeSubdomains and a year's maxAge (an if/then the forms read as well).
	domain := func(hsts string) testutil.Recorded {
		return testutil.Recorded{Method: "GET", Path: "/api/domains/x", Status: 200, ContentType: "application/json", Body: `{"id":"x","name":"n",` +
			`"domain":"example.com","certResolver":"","wildcard":false,"isDefault":false,"certConfigs":[],"https":{"redirect":true,"hsts":` + hsts + `},` +
			`"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}`}
	}
	for _, ok := range []testutil.Recorded{
		{Method: "GET", Path: "/api/health", Status: 200, ContentType: "application/json", Body: `{"status":"ok"}`},
		domain(`{"maxAge":31536000,"includeSubdomains":true,"preload":true}`),
	} {
		if errs := c.check(ok); len(errs) > 0 {
			t.Fatalf("a right answer is refused: %v", errs)
		}
	}
	for _, r := range []testutil.Recorded{
		{Method: "GET", Path: "/api/health", Status: 200, ContentType: "application/json", Body: `{"status":"fine"}`},
		{Method: "GET", Path: "/api/health", Status: 200, ContentType: "application/json", Body: `{"status":"ok","extra":1}`},
		{Method: "GET", Path: "/api/health", Status: 418, ContentType: "application/json", Body: `{"status":"ok"}`},
		{Method: "GET", Path: "/api/services/x", Status: 200, ContentType: "application/json", Body: `{"id":"x"}`},
		{Method: "GET", Path: "/api/services/x", Status: 404, ContentType: "application/json", Body: `{"error":{"code":"nope","message":""}}`},
		{Method: "GET", Path: "/api/domains/x", Status: 200, ContentType: "application/json", Body: `{"id":"x","name":"n","domain":"d",` +
			`"certResolver":"","wildcard":false,"isDefault":false,"certConfigs":[],"createdAt":"yesterday","updatedAt":"2026-01-01T00:00:00Z"}`},
		domain(`{"maxAge":600,"includeSubdomains":true,"preload":true}`),
		domain(`{"maxAge":31536000,"includeSubdomains":false,"preload":true}`),
	} {
		if errs := c.check(r); len(errs) == 0 {
			t.Errorf("%s %s %d %s passed the check", r.Method, r.Path, r.Status, r.Body)
		}
	}
}

// routerAnswer reports whether r is Echo's own answer to a path or method
// no route has (tests of the guard and of unknown routes), or the answer of
// a route only a test registers: TestOpenAPICoversEveryRoute proves every
// route of the real app is described, so an undescribed path is a test's.
//
// The sign-in portal's host refuses every route not marked for it with the
// router's own 404 (TestNoAdministrationRouteAnswersOnThePortalHost walks
// them all): that answer is the host's, not the route's.
func routerAnswer(r testutil.Recorded, described func(method, path string) (pathKnown, methodKnown bool)) bool {
	if r.Host == portalHost && r.Status == http.StatusNotFound && strings.Contains(r.Body, `"route not found"`) {
		return true
	}
	pathKnown, methodKnown := described(r.Method, r.Path)
	if methodKnown {
		return false
	}
	return !pathKnown || r.Status == http.StatusMethodNotAllowed
}

// TestRecordedResponses checks answers recorded by the handler tests
// (GATEHOUSE_API_RECORDED names the directory GATEHOUSE_API_RECORD wrote;
// make test-go runs both) against the document. Without it, it checks the
// answers of a short tour of the API instead.
func TestRecordedResponses(t *testing.T) {
	doc, err := apiDocument()
	if err != nil {
		t.Fatal(err)
	}
	c := newContract(t, doc)
	described := describedPaths(t, doc)
	var recs []testutil.Recorded
	if dir := os.Getenv("GATEHOUSE_API_RECORDED"); dir != "" {
		recs = readRecords(t, dir)
	} else {
		t.Log("GATEHOUSE_API_RECORDED is not set: checking a short tour of the API (make test-go checks every handler test's answers)")
		recs = tour(t)
	}
	seen := map[[32]byte]bool{}
	checked, failed := 0, 0
	for _, r := range recs {
		key := sha256.Sum256(fmt.Appendf(nil, "%s %s %d %s %s", r.Method, r.Path, r.Status, r.ContentType, r.Body))
		if seen[key] || routerAnswer(r, described) {
			continue
		}
		seen[key] = true
		checked++
		if errs := c.check(r); len(errs) > 0 {
			failed++
			if failed <= 40 {
				body := r.Body
				if len(body) > 400 {
					body = body[:400] + "..."
				}
				t.Errorf("%s %s answered %d (%s), not as /api/openapi.json says:\n  %s\n  body: %s",
					r.Method, r.Path, r.Status, r.ContentType, strings.Join(errs, "\n  "), body)
			}
		}
	}
	t.Logf("%d distinct answers checked, %d recorded, %d failed", checked, len(recs), failed)
	if unseen := unanswered(doc, recs, described); len(unseen) > 0 {
		t.Logf("%d described operations have no recorded success answer: %s", len(unseen), strings.Join(unseen, ", "))
	}
	if checked == 0 {
		t.Fatal("nothing was checked")
	}
}

// describedPaths answers whether a concrete path (a query string is
// ignored) matches a described path template, and whether that template
// has the method.
func describedPaths(t testing.TB, doc []byte) func(method, path string) (bool, bool) {
	t.Helper()
	ops, err := openapi.Operations(doc)
	if err != nil {
		t.Fatal(err)
	}
	return matcher(ops)
}

var specParam = regexp.MustCompile(`\\\{[^/]+\\\}`)

// matcher matches concrete paths against "METHOD /template" operations.
func matcher(ops []string) func(method, path string) (bool, bool) {
	type tmpl struct {
		re      *regexp.Regexp
		methods []string
	}
	byPath := map[string]*tmpl{}
	for _, op := range ops {
		m, p, _ := strings.Cut(op, " ")
		if byPath[p] == nil {
			byPath[p] = &tmpl{re: regexp.MustCompile("^" + specParam.ReplaceAllString(regexp.QuoteMeta(p), "[^/]+") + "$")}
		}
		byPath[p].methods = append(byPath[p].methods, m)
	}
	return func(method, path string) (bool, bool) {
		path, _, _ = strings.Cut(path, "?")
		pathKnown := false
		for _, tp := range byPath {
			if tp.re.MatchString(path) {
				pathKnown = true
				if slices.Contains(tp.methods, method) {
					return true, true
				}
			}
		}
		return pathKnown, false
	}
}

// unanswered lists the operations no recording shows answering 2xx or 3xx.
func unanswered(doc []byte, recs []testutil.Recorded, described func(method, path string) (bool, bool)) []string {
	ops, _ := openapi.Operations(doc)
	var out []string
	for _, op := range ops {
		m, _, _ := strings.Cut(op, " ")
		one := matcher([]string{op})
		seen := false
		for _, r := range recs {
			if r.Status < 400 && r.Method == m {
				if _, ok := one(r.Method, r.Path); ok {
					if _, ok := described(r.Method, r.Path); ok {
						seen = true
						break
					}
				}
			}
		}
		if !seen {
			out = append(out, op)
		}
	}
	return out
}

func readRecords(t testing.TB, dir string) []testutil.Recorded {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no recordings in %s: run the tests with %s=%s first", dir, testutil.RecordEnv, dir)
	}
	var out []testutil.Recorded
	for _, f := range files {
		fh, err := os.Open(f) //nolint:gosec // the test's own recording
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			var r testutil.Recorded
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, r)
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		_ = fh.Close()
	}
	return out
}

// tour drives the real app through the main resources and returns what it
// answered.
func tour(t *testing.T) []testutil.Recorded {
	a := newTestApp(t, nil)
	var out []testutil.Recorded
	do := func(method, path, body string) string {
		rec := a.do(method, path, body)
		out = append(out, testutil.Recorded{Method: method, Path: path, Status: rec.Code,
			ContentType: rec.Header().Get("Content-Type"), Body: rec.Body.String()})
		return rec.Body.String()
	}
	id := func(body string) string {
		var v struct {
			ID    string `json:"id"`
			Token struct {
				ID string `json:"id"`
			} `json:"token"`
		}
		_ = json.Unmarshal([]byte(body), &v)
		if v.ID == "" {
			return v.Token.ID
		}
		return v.ID
	}
	do("GET", "/api/system", "")
	do("GET", "/api/health", "")
	do("GET", "/api/openapi.json", "")
	do("GET", "/api/services", "")
	a.signIn()
	do("GET", "/api/admin/me", "")
	do("GET", "/api/admin/me/sessions", "")
	appPw := id(do("POST", "/api/admin/me/app-passwords", `{"name":"Phone calendar"}`))
	do("POST", "/api/admin/me/app-passwords", `{"name":""}`)
	do("GET", "/api/admin/me/app-passwords", "")
	do("DELETE", "/api/admin/me/app-passwords/"+appPw, "")
	do("DELETE", "/api/admin/me/app-passwords/nope", "")
	do("GET", "/api/people/"+a.userID(t, "admin")+"/app-passwords", "")
	do("DELETE", "/api/people/"+a.userID(t, "admin")+"/app-passwords/nope", "")
	do("GET", "/api/config", "")
	dom := id(do("POST", "/api/domains", `{"name":"Example","domain":"example.com","isDefault":true}`))
	do("GET", "/api/domains", "")
	do("GET", "/api/domains/"+dom, "")
	svc := id(do("POST", "/api/services", `{"name":"app","domainId":"`+dom+`","hostnames":[{"type":"subdomain","value":"app"}],`+
		`"targets":[{"host":"10.0.0.5","port":8080}],"rules":[{"type":"pathPrefix","value":"/x"}],"expiry":{"type":"duration","seconds":3600}}`))
	do("POST", "/api/services", `{"name":""}`)
	do("GET", "/api/services", "")
	do("GET", "/api/services/"+svc, "")
	do("PATCH", "/api/services/"+svc, `{"enabled":false}`)
	do("GET", "/api/services/nope", "")
	do("GET", "/api/services/"+svc+"/access", "")
	do("GET", "/api/traffic?range=1h", "")
	do("GET", "/api/traffic?range=2y", "")
	do("GET", "/api/services/"+svc+"/traffic?range=7d", "")
	do("GET", "/api/services/nope/traffic?range=1h", "")
	do("GET", "/api/traffic/services?range=24h&points=12", "")
	do("POST", "/api/services/"+svc+"/access/test", `{"method":"GET","url":"https://app.example.com/x","clientAddress":"10.0.0.1"}`)
	do("POST", "/api/services/"+svc+"/access/test", `{"url":"/x","person":"admin","secondFactor":true,`+
		`"draft":{"rules":[{"action":"deny","groups":["nobody-has-this"]}]}}`)
	do("POST", "/api/services/"+svc+"/access/test", `{"url":"/x","draft":{"rules":[{"action":"allow","people":["admin"],"secondFactor":true}]}}`)
	do("GET", "/api/access/rules", "")
	do("GET", "/api/access/presets", "")
	set := id(do("POST", "/api/credential-sets", `{"name":"family","users":[{"username":"alice","password":"correct-horse"}]}`))
	do("POST", "/api/services/"+svc+"/security-configs", `{"type":"basic_auth","credentialSetId":"`+set+`"}`)
	do("POST", "/api/services/"+svc+"/security-configs", `{"type":"shared_links"}`)
	do("GET", "/api/services/"+svc+"/security-configs", "")
	do("POST", "/api/services/"+svc+"/shared-links", `{"note":"for bob"}`)
	do("POST", "/api/services/"+svc+"/shared-links", `{"note":"for carol","pin":"4829"}`)
	do("POST", "/api/services/"+svc+"/shared-links", `{"pin":"12"}`)
	do("GET", "/api/services/"+svc+"/protection", "")
	do("PUT", "/api/services/"+svc+"/protection", `{"sso":{"enabled":false,"users":["sub:"]}}`)
	do("PUT", "/api/services/"+svc+"/protection", `{"basicAuth":{"enabled":true,"credentialSetId":"`+set+`"},"sharedLinks":{"enabled":true},"tokens":{"enabled":false,"header":""}}`)
	do("GET", "/api/services/"+svc+"/shared-links", "")
	do("GET", "/api/credential-sets", "")
	do("GET", "/api/sso", "")
	do("GET", "/api/sessions", "")
	do("POST", "/api/services/"+svc+"/security-configs", `{"type":"tokens"}`)
	tok := id(do("POST", "/api/machine-tokens", `{"name":"ci","serviceIds":["`+svc+`"]}`))
	do("GET", "/api/machine-tokens", "")
	do("GET", "/api/machine-tokens/"+tok, "")
	do("POST", "/api/machine-tokens/"+tok+"/revoke", "")
	do("DELETE", "/api/machine-tokens/"+tok, "")
	do("GET", "/api/access-log", "")
	do("GET", "/api/services/"+svc+"/access-log?limit=5", "")
	do("GET", "/api/proxy/config", "")
	do("GET", "/api/proxy/config/preview?serviceId="+svc, "")
	for _, p := range []string{"entrypoints", "middlewares", "cert-resolvers", "runtime", "metrics", "conflicts", "certificates", "health"} {
		do("GET", "/api/proxy/"+p, "")
	}
	do("GET", "/api/proxy/managed", "")
	do("DELETE", "/api/services/"+svc, "")
	return out
}
