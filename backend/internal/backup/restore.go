package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"filippo.io/age"

	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
)

// RestoreOptions say where the stopped panel keeps its data.
type RestoreOptions struct {
	DataDir string
	DBPath  string
	// AgeIdentity is PANEL_AGE_IDENTITY's text, empty when the identity
	// comes from the data directory.
	AgeIdentity string
	// LatestSchema is the newest schema version this binary migrates to.
	LatestSchema uint
	Now          func() time.Time
}

// Restored says what a restore did.
type Restored struct {
	Manifest Manifest
	// ReplacedDir holds the files the restore moved aside; empty when the
	// data directory held none.
	ReplacedDir string
}

// Restore puts the archive's files in place of the data directory's, in a
// stopped panel. Everything is checked before anything moves: the archive's
// shape and checksums, the database's integrity and schema version, and the
// identity. Then the current database (with its -wal and -shm), age.key and
// dns-credentials.age go into <data>/replaced-<time>/, and the archive's
// files take their places by rename. A refused archive changes nothing. An
// archive from before the database held the DNS credentials brings
// dns-credentials.age: the panel imports it at its next start.
func Restore(ctx context.Context, archive string, o RestoreOptions) (Restored, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	lk, err := LockExclusive(o.DataDir)
	if err != nil {
		return Restored{}, err
	}
	defer lk.Release()
	f, err := os.Open(archive) //nolint:gosec // the archive the operator names
	if err != nil {
		return Restored{}, fmt.Errorf("open backup: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only
	staging, err := os.MkdirTemp(o.DataDir, ".restore-")
	if err != nil {
		return Restored{}, fmt.Errorf("create staging directory: %w", err)
	}
	defer func() { _ = os.RemoveAll(staging) }() // emptied by the renames on success
	m, err := ReadArchive(f, dirSink(staging))
	if err != nil {
		return Restored{}, err
	}
	if err := checkStaged(ctx, staging, m, o); err != nil {
		return Restored{}, err
	}
	if err := syncDir(staging); err != nil {
		return Restored{}, err
	}
	return place(staging, m, o)
}

// checkStaged checks the unpacked files: the database opens, passes its
// integrity check and is not newer than this binary; the identity matches
// the manifest and the configuration, and opens the credentials.
func checkStaged(ctx context.Context, staging string, m Manifest, o RestoreOptions) error {
	db := filepath.Join(staging, DatabaseName)
	if err := integrityCheck(ctx, db); err != nil {
		return fmt.Errorf("%w: %w", ErrArchive, err)
	}
	v, err := fileSchemaVersion(ctx, db)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrArchive, err)
	}
	if v != m.SchemaVersion {
		return archiveErr("the database has schema version %d, the manifest says %d", v, m.SchemaVersion)
	}
	if v > o.LatestSchema {
		return fmt.Errorf("the backup has schema version %d but this Gatehouse knows only up to %d: "+
			"restore it with Gatehouse %s or newer", v, o.LatestSchema, m.PanelVersion)
	}
	id, err := restoredIdentity(staging, m, o.AgeIdentity)
	if err != nil {
		return err
	}
	if _, ok := m.file(CredentialsName); ok {
		cf, err := os.Open(filepath.Join(staging, CredentialsName)) //nolint:gosec // a file just unpacked into the staging directory
		if err != nil {
			return err
		}
		defer func() { _ = cf.Close() }() // read-only
		r, err := age.Decrypt(cf, id)
		if err == nil {
			_, err = io.Copy(io.Discard, io.LimitReader(r, maxSmallFile))
		}
		if err != nil {
			return archiveErr("%s cannot be decrypted with the backup's identity: %v", CredentialsName, err)
		}
	}
	return nil
}

// restoredIdentity is the identity the restored panel will use, checked
// against the manifest's recipient.
func restoredIdentity(staging string, m Manifest, configured string) (*age.X25519Identity, error) {
	if configured != "" {
		id, err := sealbox.Parse(configured)
		if err != nil {
			return nil, fmt.Errorf("PANEL_AGE_IDENTITY: %w", err)
		}
		if got := id.Recipient().String(); got != m.Recipient {
			return nil, fmt.Errorf("the backup's secrets are encrypted to %s but PANEL_AGE_IDENTITY is the identity of %s: "+
				"set PANEL_AGE_IDENTITY to the identity the backup was made with", m.Recipient, got)
		}
		return id, nil
	}
	if m.Identity == IdentityEnvironment {
		return nil, fmt.Errorf("the backup was made with PANEL_AGE_IDENTITY (recipient %s) and does not contain it: "+
			"set PANEL_AGE_IDENTITY to that identity and run the restore again", m.Recipient)
	}
	b, err := os.ReadFile(filepath.Join(staging, IdentityName)) //nolint:gosec // a file just unpacked into the staging directory
	if err != nil {
		return nil, err
	}
	id, err := sealbox.Parse(string(b))
	if err != nil {
		return nil, archiveErr("%s: %v", IdentityName, err)
	}
	if got := id.Recipient().String(); got != m.Recipient {
		return nil, archiveErr("%s is the identity of %s, the manifest says %s", IdentityName, got, m.Recipient)
	}
	return id, nil
}

type move struct{ from, to string }

// place moves the current files aside and the staged ones in, undoing the
// moves made so far if one fails.
func place(staging string, m Manifest, o RestoreOptions) (Restored, error) {
	current := []string{o.DBPath, o.DBPath + "-wal", o.DBPath + "-shm",
		filepath.Join(o.DataDir, IdentityName), filepath.Join(o.DataDir, CredentialsName)}
	var aside []string
	for _, p := range current {
		if _, err := os.Lstat(p); err == nil {
			aside = append(aside, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return Restored{}, err
		}
	}
	res := Restored{Manifest: m}
	var done []move
	undo := func(err error) (Restored, error) {
		for i := len(done) - 1; i >= 0; i-- {
			_ = os.Rename(done[i].to, done[i].from) // best effort: the first error is the one to report
		}
		if res.ReplacedDir != "" {
			_ = os.Remove(res.ReplacedDir) // only if the undo emptied it
		}
		return Restored{}, err
	}
	if len(aside) > 0 {
		dir, err := replacedDir(o.DataDir, o.Now())
		if err != nil {
			return Restored{}, err
		}
		res.ReplacedDir = dir
		for _, p := range aside {
			to := filepath.Join(dir, filepath.Base(p))
			if err := os.Rename(p, to); err != nil {
				return undo(fmt.Errorf("move %s aside: %w", p, err))
			}
			done = append(done, move{p, to})
		}
	}
	targets := map[string]string{DatabaseName: o.DBPath, IdentityName: filepath.Join(o.DataDir, IdentityName),
		CredentialsName: filepath.Join(o.DataDir, CredentialsName)}
	for _, f := range m.Files {
		from, to := filepath.Join(staging, f.Name), targets[f.Name]
		if err := os.Rename(from, to); err != nil {
			return undo(fmt.Errorf("put %s in place (the database must be on the data directory's file system): %w", to, err))
		}
		done = append(done, move{from, to})
	}
	for _, d := range []string{o.DataDir, filepath.Dir(o.DBPath)} {
		if err := syncDir(d); err != nil {
			return res, err
		}
	}
	return res, nil
}

// replacedDir creates <data>/replaced-<time>[-N], mode 0700.
func replacedDir(dataDir string, at time.Time) (string, error) {
	base := filepath.Join(dataDir, "replaced-"+at.UTC().Format("20060102-150405"))
	for i := 1; i < 100; i++ {
		dir := base
		if i > 1 {
			dir += "-" + strconv.Itoa(i)
		}
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("create %s: %w", dir, err)
		}
	}
	return "", errors.New("too many replaced-* directories for one second")
}

// dirSink unpacks into a directory: each file created exclusively with
// mode 0600 and synced when closed.
type dirSink string

func (d dirSink) Create(name string) (io.WriteCloser, error) {
	f, err := os.OpenFile(filepath.Join(string(d), filepath.Base(name)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600) //nolint:gosec // a fixed name the manifest check allowed
	if err != nil {
		return nil, err
	}
	return syncCloser{f}, nil
}

type syncCloser struct{ *os.File }

func (s syncCloser) Close() error { return closeSynced(s.File) }
