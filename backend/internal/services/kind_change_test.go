package services_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestKindChangeRefusesGuarded: turning an HTTP service into a tcp or udp
// one while a protection or a restricting access rule guards it is
// refused naming kind (the builder would leave it unrouted); without
// either, the change goes through.
func TestKindChangeRefusesGuarded(t *testing.T) {
	ctx := context.Background()
	db := testutil.NewDB(t)
	clk := testutil.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	prot := map[string]services.Protection{}
	restricted := map[string]bool{}
	svc := services.NewService(services.Deps{DB: db, Bus: change.NewBus(), Now: clk.Now,
		Protections: func(_ context.Context, _ *gorm.DB, id string) (map[string]services.Protection, error) {
			return map[string]services.Protection{id: prot[id]}, nil
		},
		Restricted: func(_ context.Context, _ *gorm.DB, id string) (bool, error) { return restricted[id], nil },
	})
	create := func(name string) services.Response {
		t.Helper()
		s, err := svc.Create(ctx, services.Request{Name: name, Entrypoints: []string{"web"},
			Hostnames: []store.Hostname{{Type: store.HostCustom, Value: name + ".example.com"}},
			Targets:   []store.Target{{Host: "10.0.0.1", Port: 80}}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	toStream := func(s services.Response, kind string) error {
		_, err := svc.Update(ctx, s.ID, services.Request{Name: s.Name, Kind: kind, Entrypoints: []string{"postgres"},
			Targets: []store.Target{{Host: "10.0.0.5", Port: 5432}}})
		return err
	}
	basic, people, rules, open := create("basic"), create("people"), create("rules"), create("open")
	prot[basic.ID] = services.Protection{BasicAuth: true}
	prot[people.ID] = services.Protection{People: true}
	restricted[rules.ID] = true
	for _, tc := range []struct {
		name, kind, says string
		s                services.Response
	}{
		{"basic auth to tcp", store.KindTCP, "protections", basic},
		{"people to udp", store.KindUDP, "protections", people},
		{"access rules to tcp", store.KindTCP, "access rules", rules},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := toStream(tc.s, tc.kind)
			e, ok := apperr.As(err)
			if !ok || len(e.Fields) != 1 || e.Fields[0].Field != "kind" || !strings.Contains(e.Fields[0].Message, tc.says) {
				t.Fatalf("got %v, want kind saying %q", err, tc.says)
			}
			got, err := svc.Get(ctx, tc.s.ID)
			if err != nil || got.Kind != store.KindProxy {
				t.Fatalf("kind %q after refusal (%v)", got.Kind, err)
			}
		})
	}
	if err := toStream(open, store.KindTCP); err != nil {
		t.Fatalf("unguarded service: %v", err)
	}
	// Once a stream, the service reports whether anything would guard it
	// (and so keep it out of Traefik's configuration): rules that come to
	// restrict it, global ones included, do. An HTTP service never does.
	guarded := func(id string) bool {
		t.Helper()
		got, err := svc.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return got.Protection.StreamGuarded
	}
	if guarded(open.ID) {
		t.Fatal("an unguarded stream reported guarded")
	}
	restricted[open.ID] = true
	if !guarded(open.ID) {
		t.Fatal("a stream that access rules restrict reported routed")
	}
	if guarded(basic.ID) {
		t.Fatal("an HTTP service reported as a guarded stream")
	}
}

// TestProtectionAny: every protection counts, the people protection too
// (regression: it was left out, so a service guarded by it alone was
// reported as open to everyone without signing in).
func TestProtectionAny(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    services.Protection
		want bool
	}{
		{"none", services.Protection{}, false},
		{"basic auth", services.Protection{BasicAuth: true}, true},
		{"email code", services.Protection{EmailCode: true}, true},
		{"people", services.Protection{People: true}, true},
	} {
		if got := tc.p.Any(); got != tc.want {
			t.Errorf("%s: Any() = %v, want %v", tc.name, got, tc.want)
		}
	}
}
