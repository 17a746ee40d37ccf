package store_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// A shared link made before links could ask for a PIN (migration 0019)
// reads after the upgrade as a link that asks for nothing, and the
// migration goes down and up again on both engines.
func TestSharedLinkPINMigrationKeepsOldLinks(t *testing.T) {
	database := testutil.NewDatabase(t)
	if err := store.Migrate(database); err != nil {
		t.Fatal(err)
	}
	file := func(b []byte, err error) string {
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	rawExec(t, database, file(os.ReadFile("migrations/0019_shared_link_pin.down.sql")))
	rawExec(t, database, `INSERT INTO services (id, name, enabled, created_at, updated_at) VALUES ('s1', 'app', TRUE, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`)
	rawExec(t, database, `INSERT INTO shared_links (id, service_id, token_hash, note, session_seconds, expires_at, created_at)
		VALUES ('l1', 's1', 'h1', 'before', 3600, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`)
	rawExec(t, database, file(os.ReadFile("migrations/0019_shared_link_pin.up.sql")))

	db := testutil.OpenDB(t, database)
	var l store.SharedLink
	if err := db.WithContext(context.Background()).Where("id = ?", "l1").Take(&l).Error; err != nil {
		t.Fatal(err)
	}
	if l.PinKind != "" || l.PinHash != "" || l.PinFailures != 0 || l.Note != "before" || l.ExpiresAt.After(time.Now().Add(time.Minute)) {
		t.Fatalf("old link after the upgrade: %+v", l)
	}
}
