package forwardauth

import (
	"net/http"
	"testing"

	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
)

// TestDecisionsAreCountedAndReasoned: every decision lands in the
// service's traffic counters, and the access log tells a wrong password
// from no credentials at all.
func TestDecisionsAreCountedAndReasoned(t *testing.T) {
	rec := traffic.NewRecorder()
	r := newRuleEnv(t)
	r.acc.traffic = rec
	r.acc.InvalidatePolicy()
	id := r.service("cloud.example.com")
	var set struct{ ID string }
	r.must(http.StatusCreated, http.MethodPost, "/api/credential-sets", map[string]any{"name": "s",
		"users": []map[string]string{{"username": "u", "password": "password-1"}}}, &set)
	protect(t, r.env, id, map[string]any{"type": "basic_auth", "credentialSetId": set.ID})
	r.setRules(id, "", rules.Rule{Action: rules.Deny, Paths: []rules.PathMatch{{Type: "prefix", Value: "/admin"}}})
	tests := []struct {
		name   string
		f      fwd
		want   int
		reason accesslog.Reason
	}{
		{"no credentials", fwd{}, http.StatusUnauthorized, accesslog.MissingCredentials},
		{"wrong password", fwd{auth: basicAuth("u", "nope")}, http.StatusUnauthorized, accesslog.WrongPassword},
		{"right password", fwd{auth: basicAuth("u", "password-1")}, http.StatusOK, accesslog.NoReason},
		{"denied by a rule", fwd{uri: "/admin"}, http.StatusForbidden, accesslog.NoReason},
	}
	for _, tt := range tests {
		tt.f.service, tt.f.host = id, "cloud.example.com"
		if got := r.verify(tt.f); got.Code != tt.want {
			t.Fatalf("%s: %d, want %d", tt.name, got.Code, tt.want)
		}
		e := r.log.Query(accesslog.Filter{ServiceID: id, Limit: 1})
		if len(e) != 1 || e[0].Reason != tt.reason {
			t.Errorf("%s: logged %+v, want reason %q", tt.name, e, tt.reason)
		}
	}
	snap := rec.Snapshot()
	if len(snap) == 0 {
		t.Fatal("nothing counted")
	}
	for _, s := range snap {
		if s.ServiceID != id {
			continue
		}
		// challenged twice, signed in once, denied once
		if want := [5]uint64{0, 1, 2, 1, 0}; s.Counts != want || s.LatencyCount != 4 {
			t.Fatalf("counts %v (latencies %d), want %v", s.Counts, s.LatencyCount, want)
		}
		return
	}
	t.Fatalf("service %s not in %+v", id, snap)
}
