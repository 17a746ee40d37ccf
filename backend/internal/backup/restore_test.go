package backup

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// TestRestoreMovesTheCurrentFilesAside restores over a data directory whose
// files changed since the backup: the archive's files are back, the
// replaced ones are in replaced-<time>/, and the panel's store opens it.
func TestRestoreMovesTheCurrentFilesAside(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if err := store.PutConfig(ctx, f.db, "marker", "at backup"); err != nil {
		t.Fatal(err)
	}
	e, err := f.svc.Create(ctx, TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(f.svc.Dir(), e.Name)
	if fi, _ := os.Stat(archive); fi.Mode().Perm() != 0o600 {
		t.Fatalf("archive mode %v", fi.Mode())
	}
	if fi, _ := os.Stat(f.svc.Dir()); fi.Mode().Perm() != 0o700 {
		t.Fatalf("backup directory mode %v", fi.Mode())
	}
	if err := store.PutConfig(ctx, f.db, "marker", "after"); err != nil {
		t.Fatal(err)
	}
	writeCredentials(t, f.dataDir, f.box.Identity(), `{"CF_DNS_API_TOKEN":"changed"}`)
	oldCreds, _ := os.ReadFile(filepath.Join(f.dataDir, CredentialsName))
	f.closeDB()

	f.clock.Add(3600e9)
	res, err := Restore(ctx, archive, f.restoreOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.ReplacedDir != filepath.Join(f.dataDir, "replaced-20261122-203000") {
		t.Fatalf("replaced dir %q", res.ReplacedDir)
	}
	moved, _ := os.ReadFile(filepath.Join(res.ReplacedDir, CredentialsName))
	if !bytes.Equal(moved, oldCreds) {
		t.Fatal("the replaced credentials were not kept")
	}
	if _, err := os.Stat(filepath.Join(res.ReplacedDir, DatabaseName)); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, f.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s, _ := db.DB(); _ = s.Close() }()
	var got string
	if _, err := store.GetConfig(ctx, db, "marker", &got); err != nil || got != "at backup" {
		t.Fatalf("marker %q %v", got, err)
	}
	box, err := sealbox.Load(f.dataDir, "")
	if err != nil || box.Identity().Recipient().String() != f.box.Identity().Recipient().String() {
		t.Fatalf("identity after restore: %v", err)
	}
	des, _ := os.ReadDir(f.dataDir)
	for _, d := range des {
		if d.Name()[0] == '.' {
			t.Fatalf("left behind %s", d.Name())
		}
	}
}

// TestRestoreIntoAFreshDirectoryWithTheEnvironmentIdentity: an archive
// made with PANEL_AGE_IDENTITY restores only with that identity set.
func TestRestoreIntoAFreshDirectoryWithTheEnvironmentIdentity(t *testing.T) {
	f := newFixture(t)
	f.svc.o.FromEnvironment = true
	e, err := f.svc.Create(context.Background(), TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(f.svc.Dir(), e.Name)
	fresh := filepath.Join(t.TempDir(), "fresh")
	o := f.restoreOptions(t)
	o.DataDir, o.DBPath = fresh, filepath.Join(fresh, "gatehouse.db")
	if _, err := Restore(context.Background(), archive, o); err == nil {
		t.Fatal("restored without the identity the archive names")
	}
	o.AgeIdentity = f.box.Identity().String()
	res, err := Restore(context.Background(), archive, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.ReplacedDir != "" {
		t.Fatalf("a fresh directory had nothing to replace, yet %s", res.ReplacedDir)
	}
	if _, err := os.Stat(filepath.Join(fresh, IdentityName)); !os.IsNotExist(err) {
		t.Fatal("the environment identity was written into the data directory")
	}
}

// TestRestoreAnOlderSchema restores an archive one migration behind: it is
// accepted, and the panel's store migrates it when it opens.
func TestRestoreAnOlderSchema(t *testing.T) {
	f := newFixture(t)
	latest, err := store.LatestVersion()
	if err != nil {
		t.Fatal(err)
	}
	downs, _ := filepath.Glob(filepath.Join("..", "store", "migrations", fmt.Sprintf("%04d_*.down.sql", latest)))
	if len(downs) != 1 {
		t.Fatalf("down migration of %d: %v", latest, downs)
	}
	down, err := os.ReadFile(downs[0])
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := f.db.DB()
	if _, err := sqlDB.Exec(string(down)); err != nil {
		t.Fatal(err)
	}
	// The version before the latest is the one whose migration file comes
	// before it: numbers may have gaps while branches land.
	prev := previousVersion(t, latest)
	if _, err := sqlDB.Exec("UPDATE schema_migrations SET version = ?", prev); err != nil {
		t.Fatal(err)
	}
	e, err := f.svc.Create(context.Background(), TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	if e.SchemaVersion != prev {
		t.Fatalf("schema version %d", e.SchemaVersion)
	}
	f.closeDB()
	if _, err := Restore(context.Background(), filepath.Join(f.svc.Dir(), e.Name), f.restoreOptions(t)); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), f.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := db.DB()
	defer func() { _ = s.Close() }()
	if v, err := schemaVersion(context.Background(), s); err != nil || v != latest {
		t.Fatalf("after opening: version %d %v; want %d", v, err, latest)
	}
}

// previousVersion is the highest migration number below latest.
func previousVersion(t *testing.T, latest uint) uint {
	t.Helper()
	ups, _ := filepath.Glob(filepath.Join("..", "store", "migrations", "*.up.sql"))
	var prev uint
	for _, u := range ups {
		var v uint
		if _, err := fmt.Sscanf(filepath.Base(u), "%04d_", &v); err == nil && v < latest && v > prev {
			prev = v
		}
	}
	if prev == 0 {
		t.Fatalf("no migration before %d", latest)
	}
	return prev
}
