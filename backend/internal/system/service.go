// Package system says how this panel runs: its version, uptime, data
// directory, database and the addresses it uses (GET /api/system/info).
package system

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"gorm.io/gorm"
)

// Engines.
const (
	EngineSQLite   = "sqlite"
	EnginePostgres = "postgres"
)

// Addresses are the panel's addresses (paneladdr.Address).
type Addresses interface {
	Public(ctx context.Context) (string, error)
	Internal() string
	InternalSetting() string
	ForwardAuth(adminDomain string) string
}

// Deps are the Service's collaborators.
type Deps struct {
	DB       *gorm.DB
	Postgres bool
	// SQLiteFile is the database file on SQLite ("" on PostgreSQL).
	SQLiteFile string
	DataDir    string
	Version    string
	Managed    bool
	Panel      Addresses
	// AdminDomain reads the admin domain (settings), for the forward-auth
	// address when PANEL_INTERNAL_URL is unset.
	AdminDomain func(ctx context.Context) (string, error)
	Started     time.Time
	Now         func() time.Time
}

// Service answers the system view.
type Service struct{ d Deps }

// NewService returns the system service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Started.IsZero() {
		d.Started = d.Now()
	}
	return &Service{d: d}
}

// Info reads the view now.
func (s *Service) Info(ctx context.Context) (Info, error) {
	v := Info{
		Version: s.d.Version, StartedAt: s.d.Started.UTC().Format(time.RFC3339),
		UptimeSeconds: int64(s.d.Now().Sub(s.d.Started).Seconds()),
		DataDir:       absolute(s.d.DataDir), Managed: s.d.Managed,
		Database: Database{Engine: EngineSQLite, SizeBytes: -1},
	}
	if s.d.Postgres {
		v.Database.Engine = EnginePostgres
		var n int64
		if err := s.d.DB.WithContext(ctx).Raw("SELECT pg_database_size(current_database())").Scan(&n).Error; err == nil {
			v.Database.SizeBytes = n
		}
	} else if s.d.SQLiteFile != "" {
		v.Database.SizeBytes = filesSize(s.d.SQLiteFile, s.d.SQLiteFile+"-wal")
	}
	if p := s.d.Panel; p != nil {
		pub, err := p.Public(ctx)
		if err != nil {
			return Info{}, fmt.Errorf("public URL: %w", err)
		}
		v.URLs.Public, v.URLs.Internal, v.URLs.InternalSet = pub, p.Internal(), p.InternalSetting() != ""
		var domain string
		if s.d.AdminDomain != nil {
			if domain, err = s.d.AdminDomain(ctx); err != nil {
				return Info{}, fmt.Errorf("admin domain: %w", err)
			}
		}
		v.URLs.ForwardAuth = p.ForwardAuth(domain)
	}
	return v, nil
}

// filesSize adds up the sizes of the files that exist; -1 when the first
// does not.
func filesSize(first string, more ...string) int64 {
	fi, err := os.Stat(first)
	if err != nil {
		return -1
	}
	n := fi.Size()
	for _, f := range more {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		} else if !errors.Is(err, fs.ErrNotExist) {
			return -1
		}
	}
	return n
}

func absolute(dir string) string {
	if dir == "" {
		return ""
	}
	if a, err := filepath.Abs(dir); err == nil {
		return a
	}
	return dir
}
