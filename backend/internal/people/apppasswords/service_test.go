package apppasswords

import (
	"context"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

func setup(tb testing.TB) (*Service, *gorm.DB, *change.Bus, string) {
	tb.Helper()
	db := testutil.NewDB(tb)
	now := store.Now()
	p := store.Person{ID: store.NewID(), Username: "ann", PanelRole: store.PanelRoleNone, CreatedAt: now, UpdatedAt: now}
	if err := db.Create(&p).Error; err != nil {
		tb.Fatal(err)
	}
	bus := change.NewBus()
	return NewService(Deps{DB: db, Bus: bus}), db, bus, p.ID
}

func TestCreateCheckRevoke(t *testing.T) {
	s, db, _, ann := setup(t)
	ctx := context.Background()
	c, err := s.Create(ctx, ann, " Phone calendar ")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "Phone calendar" || len(c.Secret) < 40 {
		t.Fatalf("created %+v", c)
	}
	var row store.AppPassword
	if err := db.First(&row, "id = ?", c.ID).Error; err != nil || row.SecretHash == c.Secret {
		t.Fatalf("stored %+v (%v): the secret must be hashed", row, err)
	}
	for _, tt := range []struct {
		name, user, secret string
		ok                 bool
	}{
		{"right", "ann", c.Secret, true},
		{"username in another case", "ANN", c.Secret, true},
		{"someone else's username", "bob", c.Secret, false},
		{"wrong secret", "ann", c.Secret + "x", false},
		{"empty", "ann", "", false},
	} {
		for range 2 { // uncached, then cached
			id, ok, err := s.CheckAppPassword(ctx, tt.user, tt.secret)
			if err != nil || ok != tt.ok || ok && id != ann {
				t.Fatalf("%s: %q %v %v", tt.name, id, ok, err)
			}
		}
	}
	list, err := s.List(ctx, ann)
	if err != nil || len(list) != 1 || list[0].LastUsedAt == nil {
		t.Fatalf("list %+v %v: want one, used", list, err)
	}
	if _, err := s.Create(ctx, ann, "phone CALENDAR"); !apperr.IsCode(err, apperr.CodeConflict) {
		t.Fatalf("same name: %v", err)
	}
	if _, err := s.Create(ctx, ann, ""); !apperr.IsCode(err, apperr.CodeValidationFailed) {
		t.Fatalf("no name: %v", err)
	}
	if _, err := s.Create(ctx, "nobody", "x"); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("no person: %v", err)
	}
	if err := s.Revoke(ctx, "someone-else", c.ID); !apperr.IsCode(err, apperr.CodeNotFound) {
		t.Fatalf("revoke another person's: %v", err)
	}
	if err := s.Revoke(ctx, ann, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.CheckAppPassword(ctx, "ann", c.Secret); ok {
		t.Fatal("a revoked app password still works (cache not dropped)")
	}
}

// TestDisabledPersonRefused: disabling a person stops their app passwords
// from the next check, cached or not, once the change is published (as
// package people does after its transaction).
func TestDisabledPersonRefused(t *testing.T) {
	s, db, bus, ann := setup(t)
	ctx := context.Background()
	c, err := s.Create(ctx, ann, "dav")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.CheckAppPassword(ctx, "ann", c.Secret); !ok {
		t.Fatal("refused before disabling")
	}
	now := time.Now()
	if err := db.Model(&store.Person{}).Where("id = ?", ann).Update("disabled_at", now).Error; err != nil {
		t.Fatal(err)
	}
	bus.Publish(change.Event{Entity: change.Security, Kind: change.Updated, ID: ann})
	if _, ok, _ := s.CheckAppPassword(ctx, "ann", c.Secret); ok {
		t.Fatal("a disabled person's app password still works")
	}
	// Deleting the person deletes their app passwords.
	if err := db.Delete(&store.Person{}, "id = ?", ann).Error; err != nil {
		t.Fatal(err)
	}
	var n int64
	db.Model(&store.AppPassword{}).Count(&n)
	if n != 0 {
		t.Fatalf("%d app passwords outlive their person", n)
	}
}

func TestLimitPerPerson(t *testing.T) {
	s, _, _, ann := setup(t)
	ctx := context.Background()
	for i := range MaxPerPerson {
		if _, err := s.Create(ctx, ann, "p"+string(rune('A'+i/26))+string(rune('a'+i%26))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Create(ctx, ann, "one more"); !apperr.IsCode(err, apperr.CodeValidationFailed) {
		t.Fatalf("over the limit: %v", err)
	}
}

// BenchmarkCheckAppPassword compares a cached check (verify's path after
// the first request) with an uncached one (a database lookup by hash) and
// with what a bcrypt-stored password would cost on every request.
func BenchmarkCheckAppPassword(b *testing.B) {
	s, _, _, ann := setup(b)
	ctx := context.Background()
	c, err := s.Create(ctx, ann, "dav")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok, _ := s.CheckAppPassword(ctx, "ann", c.Secret); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("uncached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.onChange(change.Event{Entity: change.All})
			if _, ok, _ := s.CheckAppPassword(ctx, "ann", c.Secret); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("bcrypt-baseline", func(b *testing.B) {
		h, err := bcrypt.GenerateFromPassword([]byte(c.Secret), bcrypt.DefaultCost)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if bcrypt.CompareHashAndPassword(h, []byte(c.Secret)) != nil {
				b.Fatal("refused")
			}
		}
	})
}
