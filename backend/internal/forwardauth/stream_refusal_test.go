package forwardauth

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// streamService creates a tcp or udp service on entrypoint ep.
func (v *env) streamService(kind, ep string) string {
	v.t.Helper()
	r, err := v.svcs.Create(context.Background(), services.Request{Name: kind + " " + ep, Kind: kind,
		Entrypoints: []string{ep}, Targets: []store.Target{{Host: "10.0.0.5", Port: 5432}}})
	if err != nil {
		v.t.Fatalf("create %s service: %v", kind, err)
	}
	return r.ID
}

// errField decodes the first field an error envelope names, and its message.
func errField(t *testing.T, body []byte) (string, string) {
	t.Helper()
	var env struct {
		Error struct {
			Fields []struct{ Field, Message string } `json:"fields"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &env); err != nil || len(env.Error.Fields) == 0 {
		t.Fatalf("no field in %s (%v)", body, err)
	}
	return env.Error.Fields[0].Field, env.Error.Fields[0].Message
}

// TestStreamServiceRefusesProtections: turning a protection on for a tcp
// or udp service is refused with 422 naming the field, since the
// configuration builder would then leave the service unrouted; turning
// one off, and protecting an HTTP service, still work.
func TestStreamServiceRefusesProtections(t *testing.T) {
	v := newEnv(t)
	tcp := v.streamService(store.KindTCP, "postgres")
	udp := v.streamService(store.KindUDP, "dns")
	// Regression: an HTTP service is protected as before.
	_, set := basicService(t, v, "app.example.com")
	for _, tc := range []struct {
		name, id, method, path, field, says string
		body                                map[string]any
	}{
		{"tcp basic auth", tcp, http.MethodPost, "/security-configs", "type", "tcp.allowList",
			map[string]any{"type": "basic_auth", "credentialSetId": set}},
		{"tcp tokens", tcp, http.MethodPost, "/security-configs", "type", "tcp.allowList",
			map[string]any{"type": "tokens", "header": "X-Api-Key"}},
		{"udp shared links", udp, http.MethodPost, "/security-configs", "type", "firewall",
			map[string]any{"type": "shared_links"}},
		{"tcp protection form", tcp, http.MethodPut, "/protection", "basicAuth.enabled", "tcp.allowList",
			map[string]any{"basicAuth": map[string]any{"enabled": true, "credentialSetId": set}}},
		{"udp people", udp, http.MethodPut, "/protection", "people.enabled", "HTTP services",
			map[string]any{"people": map[string]any{"enabled": true, "people": []string{}, "groups": []string{}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := v.do(tc.method, "/api/services/"+tc.id+tc.path, tc.body, nil)
			if rec.Code != http.StatusUnprocessableEntity {
				t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
			}
			if f, msg := errField(t, rec.Body.Bytes()); f != tc.field || !strings.Contains(msg, tc.says) {
				t.Fatalf("field %q %q, want %q saying %q", f, msg, tc.field, tc.says)
			}
		})
	}
	var n int64
	v.db.Model(&store.SecurityConfig{}).Where("service_id IN ?", []string{tcp, udp}).Count(&n)
	if n != 0 {
		t.Fatalf("%d protections saved on stream services", n)
	}
	// Off stays allowed: it is how a protection left by an import or a
	// kind change is removed.
	v.must(http.StatusOK, http.MethodPut, "/api/services/"+tcp+"/protection",
		map[string]any{"basicAuth": map[string]any{"enabled": false, "credentialSetId": set}}, nil)
}
