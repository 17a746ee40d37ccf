package notify

import (
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// An import rewrites a channel's configuration in the caller's transaction
// and leaves the last delivery's status as it was.
func TestImportChannelTxKeepsTheLastDelivery(t *testing.T) {
	db := testutil.NewDB(t)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := db.Create(&channelRow{ID: "c1", Name: "phone", Kind: "ntfy", Settings: "{}", Events: "[]", Enabled: true,
		LastAttemptAt: &now, LastOK: true, LastEvent: "backend_down", CreatedAt: now, UpdatedAt: now}).Error; err != nil {
		t.Fatal(err)
	}
	later := now.Add(time.Hour)
	ch := StoredChannel{ID: "c1", Name: "pager", Kind: "ntfy", Settings: `{"topic":"x"}`, Events: `["backend_down"]`,
		Enabled: false, CreatedAt: later, UpdatedAt: later}
	if err := db.Transaction(func(tx *gorm.DB) error { return ImportChannelTx(tx, ch, false) }); err != nil {
		t.Fatal(err)
	}
	var got channelRow
	if err := db.Take(&got, "id = ?", "c1").Error; err != nil {
		t.Fatal(err)
	}
	if got.Name != "pager" || got.Enabled || got.Settings != `{"topic":"x"}` || !got.CreatedAt.Equal(now) {
		t.Fatalf("not rewritten as the import planned: %+v", got)
	}
	if got.LastAttemptAt == nil || !got.LastOK || got.LastEvent != "backend_down" {
		t.Fatalf("the last delivery was lost: %+v", got)
	}
	if err := db.Transaction(func(tx *gorm.DB) error { return DeleteChannelTx(tx, "c1") }); err != nil {
		t.Fatal(err)
	}
	var n int64
	db.Model(&channelRow{}).Count(&n)
	if n != 0 {
		t.Fatalf("%d channels left after the delete", n)
	}
}
