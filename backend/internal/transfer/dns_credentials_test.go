package transfer

import (
	"context"
	"errors"
	"testing"

	"filippo.io/age"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/managed"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// managedCredentials adapts the managed service as the app wires it.
type managedCredentials struct{ m *managed.Service }

func (c managedCredentials) CredentialValues(ctx context.Context, db *gorm.DB) (map[string]string, error) {
	return c.m.CredentialValuesIn(ctx, db)
}

func (c managedCredentials) UpdateSecrets(ctx context.Context, tx *gorm.DB, upsert map[string]string, remove []string) error {
	return c.m.UpdateSecretsIn(ctx, tx, upsert, remove)
}

func withManaged(t *testing.T, f *fixture) *managed.Service {
	t.Helper()
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	m, err := managed.NewService(managed.Deps{DB: f.db, Bus: f.bus, DataDir: t.TempDir(), Identity: id})
	if err != nil {
		t.Fatal(err)
	}
	f.svc.o.Credentials = managedCredentials{m}
	return m
}

// The DNS credentials are written in the import's transaction: a failed
// apply leaves them as they were, a committed one publishes their change.
func TestDNSCredentialsImportWithTheRest(t *testing.T) {
	ctx := testCtx
	src := newFixture(t)
	src.seed()
	if _, err := withManaged(t, src).UpdateSecrets(ctx, map[string]string{"CF_DNS_API_TOKEN": "cf-value"}, nil); err != nil {
		t.Fatal(err)
	}
	const pass = "a long passphrase" //nolint:gosec // a made-up test passphrase
	data := src.export(ExportOptions{Secrets: true, Passphrase: pass})

	// Replace mode over the same data and one more credential set: the
	// credentials' write comes before the set's deletion, the last write.
	f := newFixture(t)
	f.seed()
	f.must(f.db.Create(&store.CredentialSet{ID: "set-x", Name: "extra", CreatedAt: testNow, UpdatedAt: testNow}).Error)
	m := withManaged(t, f)
	var events []change.Event
	f.bus.Subscribe(func(e change.Event) { events = append(events, e) })
	opts := ImportOptions{Mode: ModeReplace, Passphrase: pass}
	pl := f.plan(data, opts)
	if pl.Summary.Create != 1 || pl.Summary.Delete != 1 {
		t.Fatalf("plan: %+v %+v", pl.Summary, pl.Items)
	}
	opts.Apply = true
	for _, at := range []int{1, 2} {
		f.svc.failAt = at
		if _, err := f.svc.Import(ctx, data, opts); !errors.Is(err, errForced) {
			t.Fatalf("failAt %d: %v", at, err)
		}
		if got, err := m.CredentialValues(ctx); err != nil || len(got) != 0 {
			t.Fatalf("a failed apply (at write %d) wrote credentials: %v, %v", at, got, err)
		}
	}
	if len(events) != 0 {
		t.Fatalf("a failed apply published %v", events)
	}
	f.svc.failAt = 0
	if pl := f.plan(data, opts); !pl.Applied {
		t.Fatal("not applied")
	}
	if got, err := m.CredentialValues(ctx); err != nil || got["CF_DNS_API_TOKEN"] != "cf-value" {
		t.Fatalf("after the import: %v, %v", got, err)
	}
	var published bool
	for _, e := range events {
		published = published || e.Entity == change.Managed
	}
	if !published {
		t.Fatalf("events = %v; want a managed change", events)
	}
}
