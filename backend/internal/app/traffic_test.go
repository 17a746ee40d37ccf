package app

import (
	"net/http"
	"testing"
)

// A service's traffic answers 404 in the error envelope for an id that is
// no service (it answered an empty no_traffic history, which read as "no
// traffic yet"); a service without history still answers no_traffic, and
// a disabled one keeps its history.
func TestServiceTrafficOfUnknownServiceIs404(t *testing.T) {
	a := newTestApp(t, nil)
	a.signIn()
	for _, path := range []string{"/api/services/nope/traffic", "/api/services/nope/traffic?range=1h"} {
		rec := a.do("GET", path, "")
		if rec.Code != http.StatusNotFound {
			t.Fatalf("GET %s = %d %s; want 404", path, rec.Code, rec.Body)
		}
		if env := decodeEnvelope(t, rec); env.Error.Code != "not_found" {
			t.Fatalf("GET %s: code %q", path, env.Error.Code)
		}
	}
	svc := decode[struct{ ID string }](t, a.do("POST", "/api/services", `{"name":"app","hostnames":[{"type":"custom","value":"app.example.com"}],`+
		`"targets":[{"host":"10.0.0.5","port":8080}]}`)).ID
	if svc == "" {
		t.Fatal("no service created")
	}
	for _, step := range []string{"enabled", "disabled"} {
		rec := a.do("GET", "/api/services/"+svc+"/traffic?range=1h", "")
		if rec.Code != http.StatusOK {
			t.Fatalf("%s service: %d %s", step, rec.Code, rec.Body)
		}
		if got := decode[struct{ State string }](t, rec).State; got != "no_traffic" && got != "no_metrics" {
			t.Fatalf("%s service: state %q", step, got)
		}
		if rec := a.do("PATCH", "/api/services/"+svc, `{"enabled":false}`); rec.Code != http.StatusOK {
			t.Fatalf("disable: %d %s", rec.Code, rec.Body)
		}
	}
	// A bad id is still a 422 naming it, before any lookup.
	long := make([]byte, 65)
	for i := range long {
		long[i] = 'a'
	}
	if rec := a.do("GET", "/api/services/"+string(long)+"/traffic", ""); rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("a 65-character id = %d %s", rec.Code, rec.Body)
	}
}
