package machinetokens

import (
	"slices"
	"testing"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// An import writes a token and replaces the services it opens in the
// caller's transaction, and hands back the event that drops the policies.
func TestImportTxWritesTheTokenAndItsServices(t *testing.T) {
	s, clock, _ := setup(t)
	row := store.MachineToken{ID: "t1", Name: "phone", TokenHash: "h1", Prefix: "gh_mt_ab", CreatedAt: clock.Now()}
	services := func() []string {
		var out []string
		if err := s.db.Model(&store.MachineTokenService{}).Where("token_id = ?", "t1").Order("service_id").
			Pluck("service_id", &out).Error; err != nil {
			t.Fatal(err)
		}
		return out
	}
	var events []change.Event
	err := s.db.Transaction(func(tx *gorm.DB) (err error) {
		events, err = ImportTx(tx, row, []string{"s1", "s2"}, true)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := services(); !slices.Equal(got, []string{"s1", "s2"}) {
		t.Fatalf("services %v", got)
	}
	if want := []change.Event{{Entity: change.Access, Kind: change.Updated, ID: "t1"}}; !slices.Equal(events, want) {
		t.Fatalf("events %v, want %v", events, want)
	}

	row.Name = "laptop"
	if err := s.db.Transaction(func(tx *gorm.DB) error { _, err := ImportTx(tx, row, []string{"s2"}, false); return err }); err != nil {
		t.Fatal(err)
	}
	var got store.MachineToken
	if err := s.db.Take(&got, "id = ?", "t1").Error; err != nil || got.Name != "laptop" {
		t.Fatalf("after the update: %+v %v", got, err)
	}
	if got := services(); !slices.Equal(got, []string{"s2"}) {
		t.Fatalf("services after the update %v", got)
	}

	if err := s.db.Transaction(func(tx *gorm.DB) (err error) { events, err = DeleteTx(tx, "t1"); return err }); err != nil {
		t.Fatal(err)
	}
	var n int64
	s.db.Model(&store.MachineToken{}).Where("id = ?", "t1").Count(&n)
	if n != 0 || !slices.Equal(events, []change.Event{{Entity: change.Access, Kind: change.Deleted, ID: "t1"}}) {
		t.Fatalf("after the delete: %d rows, events %v", n, events)
	}
}
