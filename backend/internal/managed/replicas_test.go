package managed

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

var twoReplicas = []string{"http://gatehouse-a:8080", "http://gatehouse-b:8080"}

func TestBuildReplicasGolden(t *testing.T) {
	got := BuildReplicas(twoReplicas, TraefikFeatures{})
	if !bytes.Equal(got, BuildReplicas(append([]string(nil), twoReplicas...), TraefikFeatures{})) {
		t.Fatal("BuildReplicas is not deterministic")
	}
	var parsed struct {
		HTTP struct {
			Services map[string]struct {
				LoadBalancer struct {
					Servers []struct{ URL string }
				} `yaml:"loadBalancer"`
			}
		}
	}
	if err := yaml.Unmarshal(got, &parsed); err != nil {
		t.Fatalf("output is not YAML: %v", err)
	}
	if s := parsed.HTTP.Services[PanelReadyService].LoadBalancer.Servers; len(s) != 2 || s[1].URL != twoReplicas[1] {
		t.Fatalf("servers = %+v", s)
	}
	testutil.Golden(t, filepath.Join("testdata", "replicas_file.golden.yaml"), got)
	testutil.Golden(t, filepath.Join("testdata", "replicas_file_passive.golden.yaml"),
		BuildReplicas(twoReplicas, TraefikFeatures{PassiveHealthCheck: true}))
	if BuildReplicas(nil, TraefikFeatures{PassiveHealthCheck: true}) != nil {
		t.Fatal("no replicas must give an empty file")
	}
}

// The passive health check goes to the balancer over the ready replicas
// only, and only for a Traefik known to read it (3.6+): an option an older
// Traefik does not know makes it refuse the whole file.
func TestReplicasPassiveHealthCheckFollowsTraefikVersion(t *testing.T) {
	db := testutil.NewDB(t)
	tests := []struct {
		name    string
		atLeast func(ctx context.Context, major, minor int) bool // nil: no Traefik API configured
		want    bool
	}{
		{"version unknown", nil, false},
		{"Traefik 3.5", func(_ context.Context, major, minor int) bool { return major < 3 || major == 3 && minor <= 5 }, false},
		{"Traefik 3.6", func(_ context.Context, major, minor int) bool { return major < 3 || major == 3 && minor <= 6 }, true},
		{"Traefik 3.7", func(_ context.Context, major, minor int) bool { return major < 3 || major == 3 && minor <= 7 }, true},
		{"Traefik not answering", func(context.Context, int, int) bool { return false }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestService(t, db, t.TempDir(), func(o *Options) {
				o.Static = StaticOptions{ProviderURL: "http://127.0.0.1:8081", Replicas: twoReplicas}
				o.TraefikAtLeast = tt.atLeast
			})
			doc, _ := s.Replicas(context.Background())
			var parsed replicasYAML
			if err := yaml.Unmarshal(doc, &parsed); err != nil {
				t.Fatal(err)
			}
			ready, all := parsed.HTTP.Services[PanelReadyService].LoadBalancer, parsed.HTTP.Services[PanelAnyService].LoadBalancer
			if got := ready.PassiveHealthCheck != nil; got != tt.want {
				t.Fatalf("passive health check on the ready replicas = %v; want %v\n%s", got, tt.want, doc)
			}
			if tt.want && (ready.PassiveHealthCheck.MaxFailedAttempts != 1 || ready.HealthCheck == nil) {
				t.Fatalf("ready replicas = %+v; want one failure to take a replica out, with the active check", ready)
			}
			if all.PassiveHealthCheck != nil {
				t.Fatalf("the fallback over every replica has a passive check:\n%s", doc)
			}
		})
	}
}

func TestReplicasDocumentCarriesItsHash(t *testing.T) {
	for _, urls := range [][]string{nil, twoReplicas} {
		body := BuildReplicas(urls, TraefikFeatures{PassiveHealthCheck: true})
		doc, hash := ReplicasDocument(body)
		lines := strings.SplitN(string(doc), "\n", 3)
		if hash != ContentHash(body) || lines[1] != replicasHashLinePrefix+hash || lines[2] != string(body) {
			t.Fatalf("document = %q, hash %s", doc, hash)
		}
	}
}

// The static configuration is what every replica serves to the wrapper: it
// must not depend on anything but the common environment, whatever the
// replica's own listen address.
func TestStaticIsTheSameOnEveryReplica(t *testing.T) {
	db := testutil.NewDB(t)
	var docs [][]byte
	for _, bound := range []string{"http://10.0.0.2:8080", "http://10.0.0.3:9090"} {
		s := newTestService(t, db, t.TempDir(), func(o *Options) {
			o.Static = StaticOptions{ProviderURL: "http://127.0.0.1:8081", Replicas: twoReplicas}
			o.BaseURL = func() string { return bound }
		})
		doc, _, err := s.Static(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		r, _ := s.Replicas(context.Background())
		docs = append(docs, append(doc, r...))
	}
	if !bytes.Equal(docs[0], docs[1]) {
		t.Fatalf("the replicas' documents differ:\n%s\n---\n%s", docs[0], docs[1])
	}
}

func TestReplicasEndpoint(t *testing.T) {
	auth := []string{"Authorization", "Bearer " + testToken}
	t.Run("without replicas", func(t *testing.T) {
		e := newHandlerEnv(t, true, testToken)
		rec := e.do("GET", "/api/proxy/managed/replicas", "", auth...)
		hash := rec.Header().Get(ReplicasHashHeader)
		if rec.Code != 200 || hash != ContentHash(nil) || !strings.Contains(rec.Body.String(), replicasHashLinePrefix+hash+"\n") {
			t.Fatalf("replicas = %d %v %s", rec.Code, rec.Header(), rec.Body)
		}
	})
	e := newHandlerEnv(t, true, testToken)
	e.svc.o.Static.Replicas = twoReplicas
	rec := e.do("GET", "/api/proxy/managed/replicas", "", auth...)
	want, hash := ReplicasDocument(BuildReplicas(twoReplicas, TraefikFeatures{}))
	if rec.Code != 200 || rec.Body.String() != string(want) || rec.Header().Get(ReplicasHashHeader) != hash ||
		rec.Header().Get("Content-Type") != "text/yaml; charset=utf-8" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("replicas = %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	// The wrapper's guards: token, and never through the proxy.
	for _, tt := range []struct {
		name    string
		headers []string
		status  int
	}{
		{"no token", nil, http.StatusUnauthorized},
		{"wrong token", []string{"Authorization", "Bearer nope"}, http.StatusUnauthorized},
		{"forwarded for", append([]string{"X-Forwarded-For", "203.0.113.9"}, auth...), http.StatusForbidden},
		{"via the admin domain", append([]string{"Host", "panel.gatehouse.dev"}, auth...), http.StatusForbidden},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if rec := e.do("GET", "/api/proxy/managed/replicas", "", tt.headers...); rec.Code != tt.status {
				t.Fatalf("status = %d %s; want %d", rec.Code, rec.Body, tt.status)
			}
		})
	}
}

func TestPanelEntrypointIsReserved(t *testing.T) {
	ctx := context.Background()
	s := newTestService(t, testutil.NewDB(t), t.TempDir(), func(o *Options) {
		o.Static = StaticOptions{ProviderURL: "http://127.0.0.1:8081", Replicas: twoReplicas}
	})
	tests := []struct {
		name  string
		ep    Entrypoint
		field string // "" = accepted
	}{
		{"name", Entrypoint{Name: PanelEntrypoint, Port: 9000}, "entrypoints[1].name"},
		{"port on every interface", Entrypoint{Name: "alt", Port: 8081}, "entrypoints[1].port"},
		{"port on loopback", Entrypoint{Name: "alt", Host: "127.0.0.1", Port: 8081}, "entrypoints[1].port"},
		{"port on another address", Entrypoint{Name: "alt", Host: "10.0.0.2", Port: 8081}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Defaults("")
			c.Entrypoints = []Entrypoint{{Name: "web", Port: 80}, tt.ep}
			_, err := s.PutConfig(ctx, c)
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("PutConfig = %v", err)
			case tt.field != "" && (err == nil || !strings.Contains(errFields(err), tt.field)):
				t.Fatalf("PutConfig = %v; want an error on %s", err, tt.field)
			}
		})
	}
	// Without replicas the name is free.
	plain := newTestService(t, testutil.NewDB(t), t.TempDir())
	c := Defaults("")
	c.Entrypoints = []Entrypoint{{Name: PanelEntrypoint, Port: 8081}}
	if _, err := plain.PutConfig(ctx, c); err != nil {
		t.Fatalf("without replicas: %v", err)
	}
}

func errFields(err error) string {
	var e *apperr.Error
	if !errors.As(err, &e) {
		return ""
	}
	var fs []string
	for _, f := range e.Fields {
		fs = append(fs, f.Field)
	}
	return strings.Join(fs, " ")
}
