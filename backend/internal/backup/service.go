package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Deps are the Service's collaborators.
type Deps struct {
	DB      *gorm.DB // app_config holds the schedule
	Snap    Snapshotter
	DataDir string // where age.key (and a not yet imported dns-credentials.age) live
	Dir     string // where backups are written (PANEL_BACKUP_DIR)
	// FromEnvironment is true when the identity comes from
	// PANEL_AGE_IDENTITY: it is then not written into archives.
	FromEnvironment bool
	Recipient       string // the identity's public key
	PanelVersion    string
	Now             func() time.Time
	Logger          *slog.Logger
	Notify          notify.Publisher
	// OnBackup, when set, hears each backup Create wrote or failed to
	// write, with its trigger, duration and size (the panel's metrics).
	OnBackup func(trigger string, ok bool, took time.Duration, size int64)
}

// Service makes, lists, prunes and schedules backups.
type Service struct {
	o    Deps
	mu   sync.Mutex // one backup at a time in this process
	wake chan struct{}

	stateMu   sync.Mutex
	lastError *LastError
}

// NewService returns a backup service.
func NewService(o Deps) *Service {
	if o.Notify == nil {
		o.Notify = notify.Discard
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = store.Now
	}
	return &Service{o: o, wake: make(chan struct{}, 1)}
}

// Dir is the backup directory.
func (s *Service) Dir() string { return s.o.Dir }

// Create takes a backup now and writes it into the backup directory.
func (s *Service) Create(ctx context.Context, trigger string) (e Entry, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.o.OnBackup != nil {
		start := time.Now()
		defer func() { s.o.OnBackup(trigger, err == nil, time.Since(start), e.Size) }()
	}
	if err := os.MkdirAll(s.o.Dir, 0o700); err != nil {
		return Entry{}, fmt.Errorf("create backup directory %s: %w", s.o.Dir, err)
	}
	at := s.o.Now().UTC()
	tmp, err := os.CreateTemp(s.o.Dir, ".gatehouse-*.tar.gz.tmp")
	if err != nil {
		return Entry{}, fmt.Errorf("create backup: %w", err)
	}
	tmpName := tmp.Name()
	defer func() { _ = os.Remove(tmpName) }() // gone once linked to its final name
	m, err := s.Write(ctx, tmp, trigger, at)
	if cerr := closeSynced(tmp); err == nil {
		err = cerr
	}
	if err != nil {
		return Entry{}, err
	}
	name, err := linkUnique(tmpName, s.o.Dir, at)
	if err != nil {
		return Entry{}, err
	}
	if err := syncDir(s.o.Dir); err != nil {
		return Entry{}, err
	}
	fi, err := os.Stat(filepath.Join(s.o.Dir, name))
	if err != nil {
		return Entry{}, err
	}
	s.o.Logger.Info("backup written", "name", name, "size", fi.Size(), "trigger", trigger, "schema_version", m.SchemaVersion)
	return entryOf(name, fi.Size(), m), nil
}

// Write writes a backup archive to w: a snapshot of the database, the
// identity file (unless it comes from the environment) and the old DNS
// credentials file while one is there, not yet imported into the database
// (managed mode off since the upgrade): it still belongs to the panel.
func (s *Service) Write(ctx context.Context, w io.Writer, trigger string, at time.Time) (Manifest, error) {
	work, err := os.MkdirTemp(s.o.Dir, ".snapshot-")
	if err != nil {
		return Manifest{}, fmt.Errorf("create snapshot directory: %w", err)
	}
	defer func() { _ = os.RemoveAll(work) }()
	taken, err := s.o.Snap.Snapshot(ctx, work)
	if err != nil {
		return Manifest{}, err
	}
	m := Manifest{
		Format: Format, Version: FormatVersion, CreatedAt: at.UTC(), PanelVersion: s.o.PanelVersion,
		SchemaVersion: taken.SchemaVersion, Engine: s.o.Snap.Engine(), Trigger: trigger,
		Identity: IdentityFile, Recipient: s.o.Recipient,
	}
	files := []source{{name: taken.Name, path: taken.Path}}
	if s.o.FromEnvironment {
		m.Identity = IdentityEnvironment
	} else {
		files = append(files, source{name: IdentityName, path: filepath.Join(s.o.DataDir, IdentityName)})
	}
	creds := filepath.Join(s.o.DataDir, CredentialsName)
	if _, err := os.Stat(creds); err == nil {
		files = append(files, source{name: CredentialsName, path: creds})
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, fmt.Errorf("read %s: %w", creds, err)
	}
	m, err = writeArchive(w, m, files)
	if err != nil {
		return Manifest{}, fmt.Errorf("write backup: %w", err)
	}
	return m, nil
}

// linkUnique gives the finished archive its name, never replacing another
// backup (two in the same second get a -2, -3... suffix).
func linkUnique(tmp, dir string, at time.Time) (string, error) {
	base := "gatehouse-" + at.Format("20060102-150405")
	for i := 1; i < 1000; i++ {
		name := base + ".tar.gz"
		if i > 1 {
			name = base + "-" + strconv.Itoa(i) + ".tar.gz"
		}
		err := os.Link(tmp, filepath.Join(dir, name))
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("name the backup: %w", err)
		}
	}
	return "", errors.New("name the backup: too many backups in one second")
}

// List returns the backups in the directory, newest first. Files that are
// not named like backups, or whose manifest cannot be read, are left out.
func (s *Service) List(ctx context.Context) ([]Entry, error) {
	des, err := os.ReadDir(s.o.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []Entry{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list backups: %w", err)
	}
	out := []Entry{}
	for _, de := range des {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !de.Type().IsRegular() || !ValidName(de.Name()) {
			continue
		}
		path := filepath.Join(s.o.Dir, de.Name())
		m, err := ReadManifest(path)
		if err != nil {
			s.o.Logger.Warn("unreadable backup left out of the list", "name", de.Name(), "err", err)
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		out = append(out, entryOf(de.Name(), fi.Size(), m))
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].Name > out[j].Name
	})
	return out, nil
}

// Path returns the path of the backup called name, checking the name
// against the fixed pattern before touching the file system.
func (s *Service) Path(name string) (string, error) {
	if !ValidName(name) {
		return "", apperr.Field("name", "must be a backup file name like gatehouse-20260102-030405.tar.gz")
	}
	path := filepath.Join(s.o.Dir, name)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.Mode().IsRegular()) {
		return "", apperr.NotFound("backup " + name)
	}
	if err != nil {
		return "", err
	}
	return path, nil
}

// Delete removes the backup called name.
func (s *Service) Delete(_ context.Context, name string) error {
	path, err := s.Path(name)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("delete backup %s: %w", name, err)
	}
	return nil
}

// Prune deletes the scheduled backups beyond the keep newest ones; manual
// and command-line backups are never pruned.
func (s *Service) Prune(ctx context.Context, keep int) (int, error) {
	list, err := s.List(ctx)
	if err != nil {
		return 0, err
	}
	kept, removed := 0, 0
	for _, e := range list {
		if e.Trigger != TriggerScheduled {
			continue
		}
		if kept < keep {
			kept++
			continue
		}
		if err := os.Remove(filepath.Join(s.o.Dir, e.Name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("prune backup %s: %w", e.Name, err)
		}
		removed++
	}
	return removed, nil
}

// closeSynced flushes f to disk and closes it.
func closeSynced(f *os.File) error {
	if err := f.Sync(); err != nil {
		_ = f.Close() // the sync error is the one to report
		return fmt.Errorf("sync %s: %w", f.Name(), err)
	}
	return f.Close()
}

// syncDir makes a rename or link in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir) //nolint:gosec // the backup or data directory
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
