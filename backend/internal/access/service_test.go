package access

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

type infos map[string]Info

func (i infos) AccessInfo(_ context.Context, id string) (Info, bool, error) {
	v, ok := i[id]
	return v, ok, nil
}

func setup(t *testing.T) (*Service, *[]change.Event) {
	t.Helper()
	db := testutil.NewDB(t)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, id := range []string{"open", "guarded"} {
		if err := db.Create(&store.Service{ID: id, Name: id, Enabled: true, ExpiryType: "never", CreatedAt: now, UpdatedAt: now}).Error; err != nil {
			t.Fatal(err)
		}
	}
	bus := change.NewBus()
	var events []change.Event
	bus.Subscribe(func(e change.Event) { events = append(events, e) })
	info := infos{"open": {Hosts: []string{"open.example.com"}}, "guarded": {Hosts: []string{"cloud.example.com"}, Protections: []string{"sso", "tokens"}}}
	return NewService(db, bus, func() time.Time { return now }, info, nil), &events
}

func TestPutAndGet(t *testing.T) {
	s, events := setup(t)
	ctx := context.Background()
	got, err := s.Get(ctx, "open")
	if err != nil || got.EffectiveDefault != rules.Allow || len(got.Rules) != 0 || got.UpdatedAt != nil {
		t.Fatalf("empty: %+v %v", got, err)
	}
	got, err = s.Put(ctx, "guarded", PutServiceAccess{Rules: []rules.Rule{
		{Action: "Allow", Note: "LAN", Sources: []string{"private"}},
		{Action: rules.Deny, Paths: []rules.PathMatch{{Type: "prefix", Value: "/admin/"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got.EffectiveDefault != rules.Authenticate || len(got.Rules) != 2 || got.Rules[0].Action != rules.Allow || got.UpdatedAt == nil {
		t.Fatalf("saved: %+v", got)
	}
	if len(*events) != 1 || (*events)[0] != (change.Event{Entity: change.Access, Kind: change.Updated, ID: "guarded"}) {
		t.Fatalf("events %v", *events)
	}
	snap, err := s.Snapshot(ctx)
	if err != nil || len(snap.Services["guarded"].Rules) != 2 {
		t.Fatalf("snapshot %+v %v", snap, err)
	}
	// Clearing everything removes the row.
	if _, err := s.Put(ctx, "guarded", PutServiceAccess{}); err != nil {
		t.Fatal(err)
	}
	if snap, _ = s.Snapshot(ctx); len(snap.Services) != 0 {
		t.Fatalf("snapshot after clearing: %+v", snap)
	}
}

func TestPutRefuses(t *testing.T) {
	s, events := setup(t)
	ctx := context.Background()
	_, err := s.Put(ctx, "open", PutServiceAccess{DefaultAction: "maybe", Rules: []rules.Rule{{Action: rules.Deny, Countries: []string{"DE"}}}})
	e, ok := apperr.As(err)
	if !ok || len(e.Fields) != 2 || e.Fields[0].Field != "defaultAction" || e.Fields[1].Field != "rules[0].countries" ||
		!strings.Contains(e.Fields[1].Message, "PANEL_GEOIP_DB") {
		t.Fatalf("got %v", err)
	}
	if _, err := s.Put(ctx, "nope", PutServiceAccess{DefaultAction: rules.Deny}); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("unknown service: %v", err)
	}
	if len(*events) != 0 {
		t.Fatalf("a refused write published %v", *events)
	}
}

func TestWarnings(t *testing.T) {
	s, _ := setup(t)
	got, err := s.Put(context.Background(), "open", PutServiceAccess{Rules: []rules.Rule{{Action: rules.Authenticate, Methods: []string{"POST"}}}})
	if err != nil || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "no protection") {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestGlobalRules(t *testing.T) {
	s, _ := setup(t)
	ctx := context.Background()
	g, err := s.PutGlobal(ctx, GlobalRules{Rules: []rules.Rule{{Action: rules.Allow, Paths: []rules.PathMatch{{Type: "prefix", Value: "/.well-known/acme-challenge/"}}}}})
	if err != nil || len(g.Rules) != 1 {
		t.Fatalf("%+v %v", g, err)
	}
	if _, err := s.PutGlobal(ctx, GlobalRules{Rules: []rules.Rule{{Action: "nope"}}}); !apperr.IsCode(err, apperr.CodeValidationFailed) {
		t.Fatalf("bad global rule: %v", err)
	}
	snap, _ := s.Snapshot(ctx)
	if len(snap.Global) != 1 {
		t.Fatalf("snapshot %+v", snap)
	}
}

func TestTester(t *testing.T) {
	s, _ := setup(t)
	ctx := context.Background()
	if _, err := s.PutGlobal(ctx, GlobalRules{Rules: []rules.Rule{{Action: rules.Deny, Methods: []string{"TRACE"}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "guarded", PutServiceAccess{Rules: []rules.Rule{{Action: rules.Allow, Paths: []rules.PathMatch{{Type: "prefix", Value: "/public"}}}}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		req      TestRequest
		decision rules.Action
		scope    string
		warning  string
	}{
		{"saved allow", TestRequest{URL: "https://cloud.example.com/public/a.css", ClientAddress: "203.0.113.7"}, rules.Allow, "service", ""},
		{"global first", TestRequest{Method: "trace", URL: "/public/x", ClientAddress: "203.0.113.7"}, rules.Deny, "global", ""},
		{"encoded traversal", TestRequest{URL: "https://cloud.example.com/public/%2e%2e/admin", ClientAddress: "203.0.113.7"}, rules.Authenticate, "default", "more than one way"},
		{"other host", TestRequest{URL: "https://evil.example.com/public/x", ClientAddress: "203.0.113.7"}, rules.Allow, "service", "not one of the service's hostnames"},
		{"no address", TestRequest{URL: "/admin"}, rules.Authenticate, "default", "no client address"},
		{"draft", TestRequest{URL: "/admin", ClientAddress: "10.0.0.1", Draft: &PutServiceAccess{DefaultAction: rules.Deny,
			Rules: []rules.Rule{{Action: rules.Allow, Sources: []string{"private"}}}}}, rules.Allow, "service", ""},
		{"draft default", TestRequest{URL: "/admin", ClientAddress: "203.0.113.7", Draft: &PutServiceAccess{DefaultAction: rules.Deny}}, rules.Deny, "default", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Test(ctx, "guarded", tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if got.Decision != tt.decision || got.Scope != tt.scope {
				t.Fatalf("got %s/%s (%s), want %s/%s", got.Decision, got.Scope, got.Reason, tt.decision, tt.scope)
			}
			if tt.warning != "" && !strings.Contains(strings.Join(got.Warnings, "|"), tt.warning) {
				t.Fatalf("warnings %v, want %q", got.Warnings, tt.warning)
			}
		})
	}
}

func TestTesterNamesBadFields(t *testing.T) {
	s, _ := setup(t)
	_, err := s.Test(context.Background(), "guarded", TestRequest{Method: "BAD METHOD", URL: "ftp://x", ClientAddress: "300.1.1.1",
		Headers: map[string]string{"Bad Name": "x"}, Draft: &PutServiceAccess{DefaultAction: "x", Rules: []rules.Rule{{Action: "x"}}}})
	e, ok := apperr.As(err)
	if !ok {
		t.Fatalf("got %v", err)
	}
	got := map[string]bool{}
	for _, f := range e.Fields {
		got[f.Field] = true
	}
	for _, want := range []string{"method", "url", "clientAddress", "headers.Bad Name", "draft.defaultAction", "draft.rules[0].action"} {
		if !got[want] {
			t.Errorf("no error for %s: %v", want, e.Fields)
		}
	}
	if _, err := s.Test(context.Background(), "nope", TestRequest{URL: "/"}); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("unknown service: %v", err)
	}
}

func TestGuard(t *testing.T) {
	s, _ := setup(t)
	ctx := context.Background()
	// Asked about one service, Guard reads its rules alone and answers as
	// when asked about all.
	guarded := func() map[string]bool {
		t.Helper()
		protected := func(id string) bool { return id == "guarded" }
		g, err := s.Guard(ctx, protected)
		if err != nil {
			t.Fatal(err)
		}
		all := map[string]bool{}
		for _, id := range []string{"open", "guarded", "other"} {
			all[id] = g(id)
			one, err := s.Guard(ctx, protected, id)
			if err != nil {
				t.Fatal(err)
			}
			if one(id) != all[id] {
				t.Fatalf("%s: asked alone %v, among all %v", id, one(id), all[id])
			}
		}
		return all
	}
	if got := guarded(); got["open"] || !got["guarded"] {
		t.Fatalf("no rules: %v", got)
	}
	// Rules that only allow need no forward-auth.
	if _, err := s.Put(ctx, "open", PutServiceAccess{Rules: []rules.Rule{{Action: rules.Allow, Sources: []string{"private"}}}}); err != nil {
		t.Fatal(err)
	}
	if got := guarded(); got["open"] {
		t.Fatalf("allow-only rules: %v", got)
	}
	if _, err := s.Put(ctx, "open", PutServiceAccess{DefaultAction: rules.Deny, Rules: []rules.Rule{{Action: rules.Allow, Sources: []string{"private"}}}}); err != nil {
		t.Fatal(err)
	}
	if got := guarded(); !got["open"] || got["other"] {
		t.Fatalf("IP-restricted: %v", got)
	}
	if _, err := s.PutGlobal(ctx, GlobalRules{Rules: []rules.Rule{{Action: rules.Deny, Countries: nil, Methods: []string{"TRACE"}}}}); err != nil {
		t.Fatal(err)
	}
	if got := guarded(); !got["other"] {
		t.Fatalf("a restricting global rule guards every service: %v", got)
	}
}
