package services_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// TestEachEnabledWalksListEnabled: EachEnabled hands out the rows
// ListEnabled returns, in its order (equal creation times included, over
// more than one batch), with their domains.
func TestEachEnabledWalksListEnabled(t *testing.T) {
	ctx := context.Background()
	db := testutil.NewDB(t)
	clk := testutil.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	svc := services.NewService(services.Deps{DB: db, Bus: change.NewBus(), Now: clk.Now})
	dom := store.Domain{ID: store.NewID(), Name: "example.com", Domain: "example.com", CertConfigs: store.NewJSON([]store.CertConfig{}),
		CreatedAt: clk.Now(), UpdatedAt: clk.Now()}
	if err := db.Create(&dom).Error; err != nil {
		t.Fatal(err)
	}
	for i := range 1203 {
		r := services.Request{Name: fmt.Sprint("svc ", i), Targets: []store.Target{{Host: "10.0.0.1", Port: 80}},
			Hostnames: []store.Hostname{{Type: store.HostCustom, Value: fmt.Sprintf("c%d.test", i)}}}
		if i%2 == 0 {
			r.DomainID = &dom.ID
			r.Hostnames = []store.Hostname{{Type: store.HostSubdomain, Value: fmt.Sprint("s", i)}}
		}
		s, err := svc.Create(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if i%7 == 3 {
			if _, err := svc.SetEnabled(ctx, s.ID, false); err != nil {
				t.Fatal(err)
			}
		}
		if i%3 == 0 {
			clk.Add(time.Millisecond) // the others share a creation time
		}
	}
	want, err := svc.ListEnabled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []store.Service
	if err := svc.EachEnabled(ctx, func(r store.Service) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("EachEnabled gave %d rows, ListEnabled %d", len(got), len(want))
	}
	for i := range want {
		if got[i].ID != want[i].ID {
			t.Fatalf("row %d: EachEnabled %s, ListEnabled %s", i, got[i].ID, want[i].ID)
		}
		if fmt.Sprint(services.FQDNs(got[i])) != fmt.Sprint(services.FQDNs(want[i])) {
			t.Fatalf("row %d: host names %v, want %v", i, services.FQDNs(got[i]), services.FQDNs(want[i]))
		}
	}
	// Only the columns asked for (and id, domain_id) are read.
	var some []store.Service
	if err := svc.EachEnabledOf(ctx, []string{"name", "hostnames"}, func(r store.Service) error {
		some = append(some, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(some) != len(want) {
		t.Fatalf("EachEnabledOf gave %d rows, ListEnabled %d", len(some), len(want))
	}
	for i := range want {
		if some[i].ID != want[i].ID || some[i].Name != want[i].Name {
			t.Fatalf("row %d: EachEnabledOf %s %q, ListEnabled %s %q", i, some[i].ID, some[i].Name, want[i].ID, want[i].Name)
		}
		if fmt.Sprint(services.FQDNs(some[i])) != fmt.Sprint(services.FQDNs(want[i])) {
			t.Fatalf("row %d: host names %v, want %v", i, services.FQDNs(some[i]), services.FQDNs(want[i]))
		}
		if len(some[i].Targets.V) != 0 {
			t.Fatalf("row %d: targets %v read although not asked for", i, some[i].Targets.V)
		}
	}
	stop := errors.New("stop")
	n := 0
	if err := svc.EachEnabled(ctx, func(store.Service) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Fatalf("an error from fn: EachEnabled returned %v after %d rows", err, n)
	}
}
