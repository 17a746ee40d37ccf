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

// TestPutRefusesStreamRestrictions: own rules that restrict a tcp or udp
// service are refused with 422 naming the rule (the builder would leave
// the service unrouted); allow-only rules and clearing stay possible, and
// an HTTP service takes restricting rules as before.
func TestPutRefusesStreamRestrictions(t *testing.T) {
	db := testutil.NewDB(t)
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	info := infos{}
	for id, kind := range map[string]string{"pg": store.KindTCP, "dns": store.KindUDP, "web": store.KindProxy} {
		if err := db.Create(&store.Service{ID: id, Name: id, Kind: kind, Enabled: true, ExpiryType: "never", CreatedAt: now, UpdatedAt: now}).Error; err != nil {
			t.Fatal(err)
		}
		info[id] = Info{}
	}
	s := NewService(Deps{DB: db, Bus: change.NewBus(), Now: func() time.Time { return now }, Info: info})
	ctx := context.Background()
	lan := rules.Rule{Action: rules.Allow, Sources: []string{"private"}}
	deny := rules.Rule{Action: rules.Deny, Sources: []string{"203.0.113.0/24"}}
	for _, tc := range []struct {
		name, id, field, says string
		in                    PutServiceAccess
	}{
		{"tcp deny rule", "pg", "rules[1].action", "tcp.allowList", PutServiceAccess{Rules: []rules.Rule{lan, deny}}},
		{"tcp deny default", "pg", "defaultAction", "tcp.allowList", PutServiceAccess{Rules: []rules.Rule{lan}, DefaultAction: rules.Deny}},
		{"udp authenticate", "dns", "rules[0].action", "firewall", PutServiceAccess{Rules: []rules.Rule{{Action: rules.Authenticate}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Put(ctx, tc.id, tc.in)
			e, ok := apperr.As(err)
			if !ok || e.Code != apperr.CodeValidationFailed || len(e.Fields) != 1 || e.Fields[0].Field != tc.field ||
				!strings.Contains(e.Fields[0].Message, tc.says) {
				t.Fatalf("got %v, want %s saying %q", err, tc.field, tc.says)
			}
		})
	}
	if snap, _ := s.Snapshot(ctx); len(snap.Services) != 0 {
		t.Fatalf("saved: %+v", snap.Services)
	}
	// Allow-only rules restrict nothing; clearing removes what an import left.
	if _, err := s.Put(ctx, "pg", PutServiceAccess{Rules: []rules.Rule{lan}, DefaultAction: rules.Allow}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "pg", PutServiceAccess{}); err != nil {
		t.Fatal(err)
	}
	// Regression: an HTTP service takes them.
	if _, err := s.Put(ctx, "web", PutServiceAccess{Rules: []rules.Rule{lan, deny}}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"web": true, "pg": false} {
		if got, err := Restricts(ctx, db, id, false); err != nil || got != want {
			t.Fatalf("Restricts(%s) = %v %v, want %v", id, got, err, want)
		}
	}
}
