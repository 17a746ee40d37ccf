// Package npm reads an Nginx Proxy Manager database (database.sqlite, with
// the schema NPM's knex migrations define) into a Gatehouse exchange
// document: proxy hosts become services, redirection hosts redirect
// services, access lists with basic-auth users credential sets. What has no
// Gatehouse counterpart (custom nginx configuration, custom locations,
// caching, 404 hosts...) is listed as skipped, with the reason; streams
// become tcp and udp services.
package npm

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"

	"golang.org/x/crypto/bcrypt"

	// The driver the panel's own store uses.
	_ "github.com/mattn/go-sqlite3"

	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// sqliteMagic opens every SQLite 3 database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// Errors a file can be refused with.
var (
	ErrNotSQLite = errors.New("not a SQLite database")
	ErrNotNPM    = errors.New("not a Nginx Proxy Manager database")
)

// Reader reads NPM databases. The zero value is ready to use.
type Reader struct {
	// BcryptCost hashes the access-list passwords NPM keeps as typed; zero
	// is bcrypt.DefaultCost, the cost the panel's credential sets use.
	BcryptCost int
}

var _ document.Reader = Reader{}

// Name is the format's name in the API and CLI.
func (Reader) Name() string { return "npm" }

// Title names the format for people.
func (Reader) Title() string { return "a Nginx Proxy Manager database" }

// Detect reports a SQLite file that mentions NPM's proxy_host table. The
// table's CREATE statement lives in sqlite_master, near the start of the
// file, so a byte search is enough to tell NPM from other SQLite files.
func (Reader) Detect(data []byte) bool {
	return bytes.HasPrefix(data, sqliteMagic) && bytes.Contains(data, []byte("proxy_host"))
}

// Read converts the database in data.
func (r Reader) Read(data []byte) (document.Document, []document.Skipped, error) {
	if !bytes.HasPrefix(data, sqliteMagic) {
		return document.Document{}, nil, ErrNotSQLite
	}
	db, cleanup, err := openCopy(data)
	if err != nil {
		return document.Document{}, nil, err
	}
	defer cleanup()

	src, err := load(db)
	if err != nil {
		return document.Document{}, nil, err
	}
	cost := r.BcryptCost
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	doc, skipped := convert(src, cost)
	return doc, skipped, nil
}

// openCopy writes data to a temporary file and opens it read-only: SQLite
// reads files, and immutable=1 keeps it from looking for a journal or WAL
// next to it.
func openCopy(data []byte) (*sql.DB, func(), error) {
	f, err := os.CreateTemp("", "gatehouse-npm-*.sqlite")
	if err != nil {
		return nil, nil, fmt.Errorf("npm: temporary copy: %w", err)
	}
	name := f.Name()
	remove := func() { _ = os.Remove(name) }
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		remove()
		return nil, nil, fmt.Errorf("npm: temporary copy: %w", err)
	}
	if err := f.Close(); err != nil {
		remove()
		return nil, nil, fmt.Errorf("npm: temporary copy: %w", err)
	}
	dsn := (&url.URL{Scheme: "file", Path: name, RawQuery: "mode=ro&immutable=1"}).String()
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		remove()
		return nil, nil, fmt.Errorf("npm: open: %w", err)
	}
	db.SetMaxOpenConns(1)
	return db, func() { _ = db.Close(); remove() }, nil
}
