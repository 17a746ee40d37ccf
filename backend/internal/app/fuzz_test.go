package app

import (
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// FuzzWritesNeverFail5xx sends arbitrary bodies to every write endpoint of the
// resource API: whatever the input, the answer is a 2xx or a 4xx envelope.
func FuzzWritesNeverFail5xx(f *testing.F) {
	seeds := []string{
		`{"name":"a","hostnames":[{"type":"custom","value":"a.test"}],"targets":[{"host":"x","port":1}]}`,
		`{"domain":"x.test","certConfigs":[{"main":"*.x.test","sans":[null]}]}`,
		`{"hostnames":[{"type":"apex"}],"domainId":""}`,
		`{"expiry":{"type":"at","at":"not a time"}}`,
		`{"expiry":{"type":"duration","seconds":1e99}}`,
		`{"headers":{"":""},"rules":[{"type":"header"}]}`,
		`[]`, `null`, `"x"`, `{"targets":[{"port":-1}]}`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	a := newTestApp(f, nil)
	a.signIn()
	f.Fuzz(func(t *testing.T, body string) {
		a.t = t // helpers report on the current input
		for _, ep := range []struct{ method, path string }{
			{"POST", "/api/services"}, {"POST", "/api/domains"}, {"PUT", "/api/config"},
			{"PUT", "/api/services/x"}, {"PUT", "/api/domains/x"},
		} {
			rec := a.do(ep.method, ep.path, body)
			if rec.Code >= 500 {
				t.Fatalf("%s %s with %q = %d %s", ep.method, ep.path, body, rec.Code, rec.Body)
			}
			if rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"error"`) {
				t.Fatalf("%s %s: no envelope: %s", ep.method, ep.path, rec.Body)
			}
		}
	})
}

// FuzzAccessAPINeverFails5xx sends arbitrary bodies to the access-rule,
// tester, token and protection endpoints, for a real service.
func FuzzAccessAPINeverFails5xx(f *testing.F) {
	seeds := []string{
		`{"rules":[{"action":"allow","paths":[{"type":"glob","value":"/api/*/x"}],"sources":["private"]}]}`,
		`{"defaultAction":"deny","rules":[{"action":"deny","paths":[{"type":"regex","value":"(a+)+$"}]}]}`,
		`{"rules":[{"action":"allow","countries":["FR"],"headers":[{"name":"X","match":"equals","value":""}]}]}`,
		`{"method":"PROPFIND","url":"https://a.test/public/%2e%2e/x","clientAddress":"::ffff:10.0.0.1","headers":{"A":"b"}}`,
		`{"url":"http://","draft":{"rules":[{"action":"x"}]}}`,
		`{"name":"phone","serviceIds":["x"],"scope":{"pathPrefix":"/dav","methods":["get"]},"expiresAt":"2999-01-01T00:00:00Z"}`,
		`{"type":"tokens","header":"X-Api-Key"}`, `{"path":"/app?x"}`,
		`[]`, `null`, `{"rules":null}`, `{"rules":[null]}`, `{"scope":{"methods":[1]}}`,
		`{"basicAuth":{"enabled":true,"credentialSetId":""},"sso":{"enabled":true,"users":["sub:"]}}`, `{"sso":null,"tokens":{"enabled":false,"header":"Cookie"}}`,
		`{"pin":"12345","note":"x"}`, `{"password":"x","pin":"1"}`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	a := newTestApp(f, nil)
	a.signIn()
	rec := a.do("POST", "/api/services", `{"name":"app","hostnames":[{"type":"custom","value":"app.test"}],"targets":[{"host":"10.0.0.1","port":80}]}`)
	id := decode[struct{ ID string }](f, rec).ID
	f.Fuzz(func(t *testing.T, body string) {
		a.t = t
		for _, ep := range []struct{ method, path string }{
			{"PUT", "/api/services/" + id + "/access"}, {"PUT", "/api/access/rules"},
			{"POST", "/api/services/" + id + "/access/test"}, {"POST", "/api/machine-tokens"},
			{"POST", "/api/services/" + id + "/security-configs"}, {"POST", "/api/services/" + id + "/shared-links"},
			{"PUT", "/api/services/nope/access"}, {"PUT", "/api/services/" + id + "/protection"},
		} {
			rec := a.do(ep.method, ep.path, body)
			if rec.Code >= 500 {
				t.Fatalf("%s %s with %q = %d %s", ep.method, ep.path, body, rec.Code, rec.Body)
			}
			if rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"error"`) {
				t.Fatalf("%s %s: no envelope: %s", ep.method, ep.path, rec.Body)
			}
		}
		// Whatever was saved, verify still answers without a 5xx.
		rec := testutil.Request(a.handler, "GET", "/api/auth/verify?service="+id, "", "X-Forwarded-Method", "GET",
			"X-Forwarded-Proto", "https", "X-Forwarded-Host", "app.test", "X-Forwarded-Uri", "/public/%2e%2e/x",
			"X-Forwarded-For", "203.0.113.1", "Authorization", "Bearer ght_x")
		if rec.Code >= 500 {
			t.Fatalf("verify after %q = %d %s", body, rec.Code, rec.Body)
		}
	})
}

// FuzzImportEndpoint sends arbitrary files to POST /api/import, as a dry run
// and applied: the answer is a plan or a 4xx envelope, never a 5xx.
func FuzzImportEndpoint(f *testing.F) {
	a := newTestApp(f, nil)
	a.signIn()
	richPanel(f, a)
	f.Add(a.do("GET", "/api/export", "").Body.String())
	for _, s := range []string{
		`{"format":"gatehouse-export","version":1}`, `{"format":"gatehouse-export","version":2}`,
		`{"format":"gatehouse-export","version":1,"services":[{"name":"x","hostnames":[{"type":"subdomain","value":"x"}],"domain":"nowhere"}]}`,
		`{"format":"gatehouse-export","version":1,"sealed":"-----BEGIN AGE ENCRYPTED FILE-----\nx\n-----END AGE ENCRYPTED FILE-----\n"}`,
		`{"format":"gatehouse-export","version":1,"config":{"global":{"defaultEntrypoints":[1]},"accessRules":[{"action":"x"}]}}`,
		``, `null`, `[]`, "SQLite format 3\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		a.t = t
		for _, q := range []string{"", "?mode=replace", "?apply=true"} {
			rec := a.do("POST", "/api/import"+q, body)
			if rec.Code >= 500 || (rec.Code >= 400 && !strings.Contains(rec.Body.String(), `"error"`)) {
				t.Fatalf("POST /api/import%s with %q = %d %s", q, body, rec.Code, rec.Body)
			}
		}
	})
}
