package dynconf

import (
	"context"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// fixedTLS is an entrypoint-TLS source with a fixed answer; nil: no answer.
type fixedTLS map[string]bool

func (f fixedTLS) TLSEntrypoints(context.Context) (map[string]bool, bool) { return f, f != nil }

// Scheme and the routers Build emits follow the same TLS rules.
func TestScheme(t *testing.T) {
	tests := []struct {
		name     string
		eps      []string
		defaults []string
		tls      fixedTLS
		want     string
	}{
		{"web", []string{"web"}, nil, nil, "http"},
		{"plain name other than web", []string{"lan"}, nil, nil, "http"},
		{"websecure", []string{"websecure"}, nil, nil, "https"},
		{"one TLS among plain", []string{"web", "websecure"}, nil, nil, "https"},
		{"source says TLS", []string{"edge"}, nil, fixedTLS{"edge": true}, "https"},
		{"source says plain", []string{"secure-lan"}, nil, fixedTLS{"secure-lan": false}, "http"},
		{"source silent on it: name rule", []string{"websecure"}, nil, fixedTLS{"web": false}, "https"},
		{"global defaults", nil, []string{"lan"}, nil, "http"},
		{"TLS global defaults", nil, []string{"websecure"}, nil, "https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newEnv(t, Deps{TLSSources: []EntrypointTLS{tt.tls}})
			ctx := context.Background()
			if tt.defaults != nil {
				g := settings.Defaults()
				g.DefaultEntrypoints = tt.defaults
				if _, err := v.settings.Put(ctx, g); err != nil {
					t.Fatal(err)
				}
			}
			got, err := v.svc.Scheme(ctx, tt.eps)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("Scheme(%v) = %s, want %s", tt.eps, got, tt.want)
			}
			// Build agrees: the service's routers get TLS exactly when the
			// scheme is https.
			cfg := Build(Snapshot{
				Services: []ServiceSpec{{ID: "s1", Name: "app", Hosts: []string{"app.example.com"},
					Targets: []store.Target{{Host: "10.0.0.1", Port: 80}}, Entrypoints: tt.eps}},
				DefaultEntrypoints: tt.defaults,
				EntrypointTLS:      firstTLSSource(ctx, []EntrypointTLS{tt.tls}),
			})
			routers, anyTLS := 0, false
			for _, r := range cfg.HTTP.Routers {
				if r.Service == Prefix+"app" {
					routers++
					anyTLS = anyTLS || r.TLS != nil
				}
			}
			if routers == 0 || anyTLS != (got == "https") {
				t.Fatalf("%d routers, any with TLS: %v; scheme %s", routers, anyTLS, got)
			}
		})
	}
}
