package admin

import (
	"context"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// Whatever path opens a session (password, setup, or one added later such
// as single sign-on), openSession itself refuses an administrator with a
// second factor unless the context says the factor was checked.
func TestOpenSessionRefusesAnUncheckedSecondFactor(t *testing.T) {
	db := testutil.NewDB(t)
	ctx := context.Background()
	svc := NewService(Deps{DB: db, Now: store.Now, BcryptCost: bcrypt.MinCost})
	u, err := svc.Create(ctx, "admin", "correct-horse-battery")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.openSession(ctx, u.ID, Client{}); err != nil {
		t.Fatalf("no factor yet: %v", err)
	}
	now := time.Now()
	for _, factor := range []any{
		&store.AdminTOTP{UserID: u.ID, Secret: "x", ConfirmedAt: &now, CreatedAt: now},
		&store.AdminPasskey{ID: store.NewID(), UserID: u.ID, CredentialID: "c", Name: "k", Credential: "{}", CreatedAt: now},
	} {
		if err := db.Create(factor).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := svc.openSession(ctx, u.ID, Client{}); !apperr.IsCode(err, apperr.CodeUnauthenticated) {
			t.Fatalf("%T enrolled: openSession = %v; want unauthenticated", factor, err)
		}
		if _, err := svc.openSession(withSecondFactor(ctx), u.ID, Client{}); err != nil {
			t.Fatalf("%T checked: %v", factor, err)
		}
		if err := db.Where("user_id = ?", u.ID).Delete(factor).Error; err != nil {
			t.Fatal(err)
		}
	}
	// An unconfirmed TOTP is no factor yet.
	if err := db.Create(&store.AdminTOTP{UserID: u.ID, Secret: "x", CreatedAt: now}).Error; err != nil {
		t.Fatal(err)
	}
	if _, err := svc.openSession(ctx, u.ID, Client{}); err != nil {
		t.Fatalf("unconfirmed TOTP: %v", err)
	}
}
