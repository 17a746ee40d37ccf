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
	got := BuildReplicas(twoReplicas)
	if !bytes.Equal(got, BuildReplicas(append([]string(nil), twoReplicas...))) {
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
	if BuildReplicas(nil) != nil {
		t.Fatal("no replicas must give an empty file")
	}
}

func TestReplicasDocumentCarriesItsHash(t *testing.T) {
	for _, urls := range [][]string{nil, twoReplicas} {
		body := BuildReplicas(urls)
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
		s := newTestService(t, db, t.TempDir(), func(o *Deps) {
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
	want, hash := ReplicasDocument(BuildReplicas(twoReplicas))
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
	s := newTestService(t, testutil.NewDB(t), t.TempDir(), func(o *Deps) {
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
