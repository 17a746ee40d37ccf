package backup

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestSnapshotWhileWriting takes backups while another connection keeps
// committing transactions that move one unit between two accounts and log
// the move: every snapshot opens, passes integrity_check and holds a state
// some transaction left (the balance sums to the total, the log matches).
func TestSnapshotWhileWriting(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, q := range []string{
		"CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)",
		"CREATE TABLE moves (id INTEGER PRIMARY KEY AUTOINCREMENT, pad TEXT)",
		"INSERT INTO acct VALUES (1, 100000), (2, 0)",
	} {
		if err := f.db.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	var commits atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			err := f.db.Transaction(func(tx *gormDB) error {
				if err := tx.Exec("UPDATE acct SET bal = bal - 1 WHERE id = 1").Error; err != nil {
					return err
				}
				if err := tx.Exec("INSERT INTO moves (pad) VALUES (?)", string(bytes.Repeat([]byte("x"), 200))).Error; err != nil {
					return err
				}
				return tx.Exec("UPDATE acct SET bal = bal + 1 WHERE id = 2").Error
			})
			if err != nil {
				t.Error(err)
				return
			}
			commits.Add(1)
		}
	}()
	for i := range 5 {
		f.clock.Add(time.Second)
		e, err := f.svc.Create(ctx, TriggerManual)
		if err != nil {
			t.Fatal(err)
		}
		checkSnapshot(t, filepath.Join(f.svc.Dir(), e.Name), i)
	}
	stop.Store(true)
	wg.Wait()
	if commits.Load() == 0 {
		t.Fatal("the writer committed nothing")
	}
	t.Logf("%d transactions committed during the snapshots", commits.Load())
}

func checkSnapshot(t *testing.T, archive string, i int) {
	t.Helper()
	dir := t.TempDir()
	if err := unpack(archive, dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, DatabaseName)
	if err := integrityCheck(context.Background(), path); err != nil {
		t.Fatalf("snapshot %d: %v", i, err)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	var a, b, n int64
	if err := db.QueryRow("SELECT (SELECT bal FROM acct WHERE id=1), (SELECT bal FROM acct WHERE id=2), (SELECT count(*) FROM moves)").Scan(&a, &b, &n); err != nil {
		t.Fatal(err)
	}
	if a+b != 100000 || b != n {
		t.Fatalf("snapshot %d is not a committed state: balances %d+%d, %d moves logged", i, a, b, n)
	}
}
