package people_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// BenchmarkList reads one page of a directory of 10,000 people, searched
// and not: the page's queries (people, groups, factors, sign-ins) stay
// bounded by the page, not the directory.
func BenchmarkList(b *testing.B) {
	f := newFixture(b)
	rows := make([]store.Person, 10_000)
	now := time.Now().UTC()
	for i := range rows {
		rows[i] = store.Person{ID: store.NewID(), Username: fmt.Sprintf("person-%05d", i), Email: fmt.Sprintf("p%05d@example.com", i),
			PanelRole: store.PanelRoleNone, CreatedAt: now, UpdatedAt: now}
	}
	if err := f.db.CreateInBatches(rows, 500).Error; err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{"", "0042"} {
		b.Run("q="+q, func(b *testing.B) {
			for b.Loop() {
				if _, err := f.svc.List(context.Background(), people.ListQuery{Q: q}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearch searches a directory of 10,000 people by the start of a
// username, an e-mail address and a display name, and for what no one has:
// each answer reads the people search's indexes, not the whole table.
func BenchmarkSearch(b *testing.B) {
	f := newFixture(b)
	rows := make([]store.Person, 10_000)
	now := time.Now().UTC()
	for i := range rows {
		rows[i] = store.Person{ID: store.NewID(), Username: fmt.Sprintf("person-%05d", i), Email: fmt.Sprintf("p%05d@example.com", i),
			DisplayName: fmt.Sprintf("Name %05d", i), PanelRole: store.PanelRoleNone, CreatedAt: now, UpdatedAt: now}
	}
	if err := f.db.CreateInBatches(rows, 500).Error; err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{"person-0042", "p00421@", "Name 0042", "zz"} {
		b.Run("q="+q, func(b *testing.B) {
			for b.Loop() {
				if _, err := f.svc.List(context.Background(), people.ListQuery{Q: q}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
