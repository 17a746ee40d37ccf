package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/backup"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// newBackups builds the backup service for the panel and the command line.
func newBackups(cfg config.Config, db *gorm.DB, secrets *sealbox.Box, now func() time.Time,
	log *slog.Logger, pub notify.Publisher, onBackup func(trigger string, ok bool, took time.Duration, size int64)) *backup.Service {
	var snap backup.Snapshotter = backup.SQLite{DB: db}
	if cfg.PostgresURL != "" {
		snap = backup.Unsupported{Name: "postgres"}
	}
	return backup.NewService(backup.Deps{
		DB: db, Snap: snap, DataDir: cfg.DataDir, Dir: cfg.BackupDir,
		FromEnvironment: cfg.AgeIdentity != "", Recipient: secrets.Identity().Recipient().String(),
		PanelVersion: Version, Now: now, Logger: log, Notify: pub, OnBackup: onBackup,
	})
}

// backupCommand implements `gatehouse backup [-o FILE]`: a snapshot taken
// beside a running panel (VACUUM INTO reads while it writes), written into
// the backup directory or FILE.
func backupCommand(ctx context.Context, cfg config.Config, o Options) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(o.Stderr)
	out := fs.String("o", "", "write the archive to FILE instead of the backup directory")
	if err := fs.Parse(o.Args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return errors.New("usage: gatehouse backup [-o FILE]")
	}
	if cfg.PostgresURL != "" {
		return backup.ErrNoSnapshot
	}
	db, err := store.Open(ctx, cfg.Database())
	if err != nil {
		return err
	}
	defer closeDB(db)
	secrets, err := sealbox.Load(cfg.DataDir, cfg.AgeIdentity)
	if err != nil {
		return err
	}
	svc := newBackups(cfg, db, secrets, store.Now, slog.New(slog.DiscardHandler), notify.Discard, nil)
	if *out == "" {
		e, err := svc.Create(ctx, backup.TriggerCLI)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(o.Stdout, "%s (%d bytes)\n", filepath.Join(cfg.BackupDir, e.Name), e.Size)
		return err
	}
	return writeBackupFile(ctx, svc, *out, o)
}

// writeBackupFile writes the archive to a temporary name beside path,
// mode 0600, and renames it into place.
func writeBackupFile(ctx context.Context, svc *backup.Service, path string, o Options) error {
	if err := os.MkdirAll(svc.Dir(), 0o700); err != nil { // the snapshot is staged there
		return fmt.Errorf("create backup directory %s: %w", svc.Dir(), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".gatehouse-backup-*.tmp")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // gone once renamed
	_, err = svc.Write(ctx, tmp, backup.TriggerCLI, store.Now())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.Stdout, "%s (%d bytes)\n", path, fi.Size())
	return err
}

// restoreCommand implements `gatehouse restore ARCHIVE` into a stopped panel.
func restoreCommand(ctx context.Context, cfg config.Config, o Options) error {
	if len(o.Args) != 2 || o.Args[1] == "" || o.Args[1][0] == '-' {
		return errors.New("usage: gatehouse restore ARCHIVE (with the panel stopped)")
	}
	if cfg.PostgresURL != "" {
		return errors.New("the panel's database is on PostgreSQL: restore it with pg_restore or psql; gatehouse restore restores SQLite backups")
	}
	latest, err := store.LatestVersion()
	if err != nil {
		return err
	}
	res, err := backup.Restore(ctx, o.Args[1], backup.RestoreOptions{
		DataDir: cfg.DataDir, DBPath: cfg.DBPath, AgeIdentity: cfg.AgeIdentity, LatestSchema: latest,
	})
	if err != nil {
		return fmt.Errorf("restore %s: %w", o.Args[1], err)
	}
	m := res.Manifest
	_, _ = fmt.Fprintf(o.Stdout, "restored the backup of %s (Gatehouse %s, schema version %d) into %s\n",
		m.CreatedAt.Format(time.RFC3339), m.PanelVersion, m.SchemaVersion, cfg.DataDir)
	if res.ReplacedDir != "" {
		_, _ = fmt.Fprintf(o.Stdout, "the files it replaced are in %s\n", res.ReplacedDir)
	}
	if m.SchemaVersion < latest {
		_, _ = fmt.Fprintf(o.Stdout, "the panel migrates the database from schema version %d to %d when it starts\n", m.SchemaVersion, latest)
	}
	return nil
}
