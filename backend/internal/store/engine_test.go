package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// The code's read-then-write transactions rely on transactions running one
// at a time: SQLite's immediate transactions, PostgreSQL's advisory lock.
// A second transaction, even one that only reads, waits for the first.
func TestTransactionsRunOneAtATime(t *testing.T) {
	db := testutil.NewDB(t)
	first := db.Begin()
	if first.Error != nil {
		t.Fatal(first.Error)
	}
	if err := first.Exec("UPDATE admin_security SET require_two_factor = ? WHERE id = 1", true).Error; err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- db.Transaction(func(tx *gorm.DB) error {
			var n int64
			return tx.Model(&store.Person{}).Count(&n).Error
		})
	}()
	select {
	case err := <-done:
		t.Fatalf("a second transaction ran while the first was open (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := first.Commit().Error; err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("second transaction after the first committed: %v", err)
	}
}

func TestUniqueViolationIsErrDuplicatedKey(t *testing.T) {
	db := testutil.NewDB(t)
	now := store.Now()
	for i, want := range []error{nil, gorm.ErrDuplicatedKey} {
		u := store.Person{ID: store.NewID(), Username: "ops", PasswordHash: "x", PanelRole: "admin", CreatedAt: now, UpdatedAt: now}
		if err := db.Create(&u).Error; !errors.Is(err, want) {
			t.Fatalf("create #%d = %v; want %v", i+1, err, want)
		}
	}
}

// Times come back as the same instant in UTC, and compare in SQL.
func TestTimesRoundTripInUTC(t *testing.T) {
	db := testutil.NewDB(t)
	ctx := context.Background()
	at := store.Now().Add(-time.Hour)
	if err := db.WithContext(ctx).Create(&store.AppConfig{Key: "k", Value: "{}", UpdatedAt: at}).Error; err != nil {
		t.Fatal(err)
	}
	var got store.AppConfig
	if err := db.WithContext(ctx).Where("updated_at = ?", at).Take(&got).Error; err != nil {
		t.Fatalf("find by the same instant: %v", err)
	}
	if !got.UpdatedAt.Equal(at) || got.UpdatedAt.Location() != time.UTC {
		t.Fatalf("updated_at = %v; want %v in UTC", got.UpdatedAt, at)
	}
	for _, tt := range []struct {
		cond string
		arg  time.Time
		want int64
	}{
		{"updated_at < ?", at.Add(time.Millisecond), 1},
		{"updated_at < ?", at, 0},
		{"updated_at > ?", at.Add(-time.Millisecond), 1},
	} {
		var n int64
		if err := db.WithContext(ctx).Model(&store.AppConfig{}).Where(tt.cond, tt.arg).Count(&n).Error; err != nil || n != tt.want {
			t.Errorf("%s %v: %d rows, %v; want %d", tt.cond, tt.arg, n, err, tt.want)
		}
	}
}

// On PostgreSQL a time in another zone is stored as its instant (pgx alone
// would keep the wall clock and drop the zone). SQLite stores the text
// with its offset, which is why the store's clock is UTC.
func TestPostgresStoresTheInstantOfZonedTimes(t *testing.T) {
	if !testutil.OnPostgres() {
		t.Skip("PostgreSQL only: " + testutil.PostgresEnv + " is not set")
	}
	db := testutil.NewDB(t)
	zone := time.FixedZone("UTC+5:30", 5*3600+1800)
	at := time.Date(2030, 1, 2, 3, 4, 5, 6e6, zone)
	u := store.Person{ID: store.NewID(), Username: "ops", PasswordHash: "x", PanelRole: "admin",
		DisabledAt: &at, CreatedAt: at, UpdatedAt: at}
	if err := db.Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	var got store.Person
	if err := db.Where("created_at = ?", at.UTC()).Take(&got).Error; err != nil {
		t.Fatalf("find by the UTC instant: %v", err)
	}
	if !got.CreatedAt.Equal(at) || got.DisabledAt == nil || !got.DisabledAt.Equal(at) {
		t.Fatalf("created_at %v, disabled_at %v; want %v", got.CreatedAt, got.DisabledAt, at)
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/data/gatehouse.db", "/data/gatehouse.db"},
		{"postgres://gh:s3cret@db:5432/gatehouse?sslmode=disable", "postgres://gh:xxxxx@db:5432/gatehouse?sslmode=disable"},
		{"postgres://gh@db/gatehouse?password=s3cret", "postgres://gh@db/gatehouse?password=xxxxx"},
		{"postgresql://db/gatehouse", "postgresql://db/gatehouse"},
	}
	for _, tt := range tests {
		if got := store.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// A transaction that gives up waiting for its turn leaves none behind.
func TestPostgresTransactionGivingUpReleasesItsTurn(t *testing.T) {
	if !testutil.OnPostgres() {
		t.Skip("PostgreSQL only: " + testutil.PostgresEnv + " is not set")
	}
	db := testutil.NewDB(t)
	first := db.Begin()
	if first.Error != nil {
		t.Fatal(first.Error)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := db.WithContext(ctx).Transaction(func(*gorm.DB) error { return nil })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("transaction while another is open = %v; want the deadline", err)
	}
	if err := first.Rollback().Error; err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			return tx.Exec("UPDATE admin_security SET updated_at = ? WHERE id = 1", store.Now()).Error
		})
		cancel()
		if err != nil {
			t.Fatalf("transaction #%d afterwards: %v", i+1, err)
		}
	}
}
