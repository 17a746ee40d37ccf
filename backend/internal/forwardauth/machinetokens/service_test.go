package machinetokens

import (
	"context"
	"net/netip"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// dir answers from the services table, as the app's wiring does.
type dir struct {
	db     *gorm.DB
	tokens map[string]bool
}

func (d dir) ServiceNames(ctx context.Context, ids []string) (map[string]string, error) {
	var rows []store.Service
	if err := d.db.WithContext(ctx).Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, nil
}

func (d dir) AcceptsTokens(_ context.Context, id string) (bool, error) { return d.tokens[id], nil }

func setup(t *testing.T) (*Service, *testutil.Clock, *[]change.Event) {
	t.Helper()
	db := testutil.NewDB(t)
	clock := testutil.NewClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	for _, id := range []string{"s1", "s2"} {
		now := clock.Now()
		if err := db.Create(&store.Service{ID: id, Name: "svc " + id, Enabled: true, ExpiryType: "never", CreatedAt: now, UpdatedAt: now}).Error; err != nil {
			t.Fatal(err)
		}
	}
	bus := change.NewBus()
	var events []change.Event
	bus.Subscribe(func(e change.Event) { events = append(events, e) })
	return NewService(db, bus, clock.Now, dir{db: db, tokens: map[string]bool{"s1": true}}, nil), clock, &events
}

func TestCreateShowsTheValueOnceAndStoresAHash(t *testing.T) {
	s, _, events := setup(t)
	ctx := context.Background()
	out, err := s.Create(ctx, CreateRequest{Name: " phone ", ServiceIDs: []string{"s1", "s2", "s1"},
		Scope: Scope{PathPrefix: "/remote.php/dav/", Methods: []string{"propfind", "GET"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.Value, ValuePrefix) || len(out.Value) < 40 {
		t.Fatalf("value %q", out.Value)
	}
	tok := out.Token
	if tok.Name != "phone" || len(tok.Services) != 2 || tok.Scope.PathPrefix != "/remote.php/dav/" || strings.Join(tok.Scope.Methods, ",") != "PROPFIND,GET" || tok.Status != StatusActive {
		t.Fatalf("token %+v", tok)
	}
	if !strings.HasPrefix(out.Value, tok.Prefix) {
		t.Fatalf("prefix %q is not the value's start", tok.Prefix)
	}
	if len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], "svc s2") {
		t.Fatalf("warnings %v: s2 does not accept tokens", out.Warnings)
	}
	var row store.MachineToken
	if err := s.db.Take(&row).Error; err != nil {
		t.Fatal(err)
	}
	if row.TokenHash != bearer.Hash(out.Value) || strings.Contains(row.TokenHash, out.Value) {
		t.Fatal("the stored hash is not the value's hash")
	}
	if len(*events) != 1 || (*events)[0].Entity != change.Access {
		t.Fatalf("events %v", *events)
	}
	if _, err := s.Create(ctx, CreateRequest{Name: "phone", ServiceIDs: []string{"s1"}}); !apperr.IsCode(err, apperr.CodeConflict) {
		t.Fatalf("duplicate name: %v", err)
	}
}

func TestCreateNamesEveryBadField(t *testing.T) {
	s, clock, _ := setup(t)
	past := clock.Now().Add(-time.Hour)
	_, err := s.Create(context.Background(), CreateRequest{Name: "bad\nname", ServiceIDs: []string{"nope"},
		Scope: Scope{PathPrefix: "/a/../b", Methods: []string{"BAD METHOD"}}, ExpiresAt: &past})
	e, ok := apperr.As(err)
	if !ok {
		t.Fatalf("got %v", err)
	}
	got := map[string]bool{}
	for _, f := range e.Fields {
		got[f.Field] = true
	}
	for _, want := range []string{"name", "scope.pathPrefix.value", "scope.methods[0]", "expiresAt"} {
		if !got[want] {
			t.Errorf("no error for %s: %v", want, e.Fields)
		}
	}
	_, err = s.Create(context.Background(), CreateRequest{Name: "ok", ServiceIDs: []string{"s1", "nope"}})
	if e, ok := apperr.As(err); !ok || e.Fields[0].Field != "serviceIds[1]" {
		t.Fatalf("unknown service: %v", err)
	}
	if _, err := s.Create(context.Background(), CreateRequest{Name: "ok"}); err == nil {
		t.Fatal("a token without services was accepted")
	}
}

func TestSnapshotAndAllows(t *testing.T) {
	s, clock, _ := setup(t)
	ctx := context.Background()
	exp := clock.Now().Add(time.Hour)
	scoped, err := s.Create(ctx, CreateRequest{Name: "dav", ServiceIDs: []string{"s1"}, Scope: Scope{PathPrefix: "/dav", Methods: []string{"PROPFIND"}}, ExpiresAt: &exp})
	if err != nil {
		t.Fatal(err)
	}
	revoked, err := s.Create(ctx, CreateRequest{Name: "old", ServiceIDs: []string{"s1"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Revoke(ctx, revoked.Token.ID); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap[bearer.Hash(revoked.Value)] != nil {
		t.Fatal("a revoked token is in the snapshot")
	}
	p := snap[bearer.Hash(scoped.Value)]
	if p == nil || p.User[0] != "token:dav" {
		t.Fatalf("policy %+v", p)
	}
	now := clock.Now()
	tests := []struct {
		svc, method, uri string
		at               time.Time
		want             bool
	}{
		{"s1", "PROPFIND", "/dav/files/a", now, true},
		{"s1", "PROPFIND", "/dav", now, true},
		{"s2", "PROPFIND", "/dav/x", now, false},
		{"s1", "GET", "/dav/x", now, false},
		{"s1", "PROPFIND", "/davx", now, false},
		{"s1", "PROPFIND", "/dav/../admin", now, false},
		{"s1", "PROPFIND", "/DAV/x", now, false},
		{"s1", "PROPFIND", "/dav/x", exp, false},
	}
	for _, tt := range tests {
		if got := p.Allows(tt.svc, tt.method, tt.uri, tt.at); got != tt.want {
			t.Errorf("Allows(%s %s %s at %v) = %v", tt.svc, tt.method, tt.uri, tt.at, got)
		}
	}
	list, err := s.List(ctx, "s1")
	if err != nil || len(list) != 2 || list[0].Status != StatusRevoked {
		t.Fatalf("list %+v %v", list, err)
	}
	clock.Add(2 * time.Hour)
	if tok, _ := s.Get(ctx, scoped.Token.ID); tok.Status != StatusExpired {
		t.Fatalf("status %s, want expired", tok.Status)
	}
}

func TestRecordUseIsWrittenByTheLoop(t *testing.T) {
	s, clock, _ := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	out, err := s.Create(ctx, CreateRequest{Name: "cli", ServiceIDs: []string{"s1"}})
	if err != nil {
		t.Fatal(err)
	}
	s.RecordUse(out.Token.ID, clock.Now(), netip.MustParseAddr("203.0.113.7"))
	if tok, _ := s.Get(ctx, out.Token.ID); tok.LastUsedAddress != "203.0.113.7" {
		t.Fatalf("pending use not shown: %+v", tok)
	}
	done := make(chan struct{})
	go func() { s.Loop(time.Hour)(ctx); close(done) }()
	cancel()
	<-done
	var row store.MachineToken
	if err := s.db.Take(&row, "id = ?", out.Token.ID).Error; err != nil {
		t.Fatal(err)
	}
	if row.LastUsedAddress != "203.0.113.7" || row.LastUsedAt == nil {
		t.Fatalf("row %+v", row)
	}
	if err := s.Delete(context.Background(), out.Token.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(context.Background(), out.Token.ID); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}
