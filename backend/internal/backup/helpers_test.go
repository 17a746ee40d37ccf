package backup

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"filippo.io/age"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/testutil"
)

// fixture is a data directory with a migrated database, an identity file
// and an encrypted credentials file, and a backup service on it.
type fixture struct {
	dataDir string
	dbPath  string
	db      *gorm.DB
	box     *sealbox.Box
	svc     *Service
	clock   *testutil.Clock
	events  *events
}

type events struct {
	mu  sync.Mutex
	evs []notify.Event
}

func (e *events) Publish(_ context.Context, ev notify.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.evs = append(e.evs, ev)
}

func (e *events) kinds() []notify.Kind {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []notify.Kind
	for _, ev := range e.evs {
		out = append(out, ev.Kind)
	}
	return out
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dataDir := filepath.Join(t.TempDir(), "data")
	dbPath := filepath.Join(dataDir, "gatehouse.db")
	db, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if s, err := db.DB(); err == nil {
			_ = s.Close()
		}
	})
	box, err := sealbox.Load(dataDir, "")
	if err != nil {
		t.Fatal(err)
	}
	writeCredentials(t, dataDir, box.Identity(), `{"CF_DNS_API_TOKEN":"cf-secret-value"}`)
	clock := testutil.NewClock(time.Date(2026, 11, 22, 19, 30, 0, 0, time.UTC))
	ev := &events{}
	svc := NewService(Deps{
		DB: db, Snap: SQLite{DB: db}, DataDir: dataDir, Dir: filepath.Join(dataDir, "backups"),
		Recipient: box.Identity().Recipient().String(), PanelVersion: "test", Now: clock.Now, Notify: ev,
	})
	return &fixture{dataDir: dataDir, dbPath: dbPath, db: db, box: box, svc: svc, clock: clock, events: ev}
}

func writeCredentials(t testing.TB, dataDir string, id *age.X25519Identity, plain string) {
	t.Helper()
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, id.Recipient())
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.WriteString(w, plain)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dataDir, CredentialsName), buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// tree is a directory's files with their hashes, for "nothing changed".
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			out = append(out, rel+"/")
			return nil
		}
		b, err := os.ReadFile(path) //nolint:gosec // a file of the test's own directory
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out = append(out, rel+" "+hex.EncodeToString(sum[:]))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func (f *fixture) restoreOptions(t *testing.T) RestoreOptions {
	t.Helper()
	latest, err := store.LatestVersion()
	if err != nil {
		t.Fatal(err)
	}
	return RestoreOptions{DataDir: f.dataDir, DBPath: f.dbPath, LatestSchema: latest, Now: f.clock.Now}
}

func (f *fixture) closeDB() {
	if s, err := f.db.DB(); err == nil {
		_ = s.Close()
	}
}

type gormDB = gorm.DB

// unpack reads an archive into dir through the checking reader.
func unpack(archive, dir string) error {
	r, err := os.Open(archive) //nolint:gosec // the test's own archive
	if err != nil {
		return err
	}
	defer func() { _ = r.Close() }()
	_, err = ReadArchive(r, dirSink(dir))
	return err
}
