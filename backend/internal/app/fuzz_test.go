package app

import (
	"strings"
	"testing"
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
