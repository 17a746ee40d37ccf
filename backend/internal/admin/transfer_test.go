package admin_test

import (
	"slices"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// An import writes an administrator in the caller's transaction, signs it
// out everywhere when asked (disabled, or a new password), and hands back
// the event the write publishes.
func TestImportTxWritesAndSignsOut(t *testing.T) {
	db := testutil.NewDB(t)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	row := store.Person{ID: "a1", Username: "alice", PasswordHash: "$2a$10$x", PanelRole: "admin", CreatedAt: now, UpdatedAt: now}
	write := func(create, signOut bool) []change.Event {
		t.Helper()
		var events []change.Event
		if err := db.Transaction(func(tx *gorm.DB) (err error) {
			events, _, err = admin.ImportTx(tx, row, create, signOut)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return events
	}
	sessions := func() int64 {
		var n int64
		db.Model(&store.AdminSession{}).Where("user_id = ?", "a1").Count(&n)
		return n
	}
	want := []change.Event{{Entity: change.Security, Kind: change.Updated, ID: "a1"}}
	if got := write(true, false); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	if err := db.Create(&store.AdminSession{ID: "s1", TokenHash: "h", UserID: "a1", CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(time.Hour)}).Error; err != nil {
		t.Fatal(err)
	}
	row.PanelRole = "viewer"
	write(false, false)
	if n := sessions(); n != 1 {
		t.Fatalf("an update without sign-out left %d sessions, want 1", n)
	}
	var got store.Person
	if err := db.Take(&got, "id = ?", "a1").Error; err != nil || got.PanelRole != "viewer" || !got.CreatedAt.Equal(now) {
		t.Fatalf("after the update: %+v %v", got, err)
	}
	disabled := now.Add(time.Minute)
	row.DisabledAt = &disabled
	if got := write(false, true); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	if n := sessions(); n != 0 {
		t.Fatalf("signing out left %d sessions", n)
	}
}
