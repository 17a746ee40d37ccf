package npm

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const fixture = "testdata/npm-v2.12.sqlite"

// The migrations of Nginx Proxy Manager v2.12.x, in order (see testdata/README.md).
var wantMigrations = []string{
	"20180618015850_initial.js",
	"20180929054513_websockets.js",
	"20181019052346_forward_host.js",
	"20181113041458_http2_support.js",
	"20181213013211_forward_scheme.js",
	"20190104035154_disabled.js",
	"20190215115310_customlocations.js",
	"20190218060101_hsts.js",
	"20190227065017_settings.js",
	"20200410143839_access_list_client.js",
	"20200410143840_access_list_client_fix.js",
	"20201014143841_pass_auth.js",
	"20210210154702_redirection_scheme.js",
	"20210210154703_redirection_status_code.js",
	"20210423103500_stream_domain.js",
	"20211108145214_regenerate_default_host.js",
	"20240427161436_stream_ssl.js",
}

func fixtureBytes(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withSQL returns the fixture changed by stmts: the schema stays the one
// NPM's migrations made.
func withSQL(t testing.TB, stmts ...string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "npm.sqlite")
	if err := os.WriteFile(path, fixtureBytes(t), 0o600); err != nil {
		t.Fatal(err)
	}
	return execSQL(t, path, stmts...)
}

// execSQL runs stmts on the database at path and returns its bytes.
func execSQL(t testing.TB, path string, stmts ...string) []byte {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path) //nolint:gosec // a path the test chose
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func read(t testing.TB, data []byte) (document.Document, []document.Skipped) {
	t.Helper()
	doc, skipped, err := Reader{BcryptCost: bcrypt.MinCost}.Read(data)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return doc, skipped
}

func TestFixtureMigrations(t *testing.T) {
	db, err := sql.Open("sqlite3", "file:"+fixture+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	rows, err := db.Query(`SELECT name FROM migrations ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	var got []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
	if !reflect.DeepEqual(got, wantMigrations) {
		t.Fatalf("migrations = %q\nwant %q", got, wantMigrations)
	}
}

func TestReadFixtureGolden(t *testing.T) {
	doc, skipped := read(t, fixtureBytes(t))
	passwords := map[string]string{"alice": "correct horse battery", "bob": "bob-secret-2025"}
	for i, set := range doc.CredentialSets {
		for j, u := range set.Users {
			if bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(passwords[u.Username])) != nil {
				t.Errorf("set %q user %q: the hash does not match NPM's password", set.Name, u.Username)
			}
			doc.CredentialSets[i].Users[j].PasswordHash = "<bcrypt>"
		}
	}
	got, err := json.MarshalIndent(map[string]any{"document": doc, "skipped": skipped}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := "testdata/npm-v2.12.golden.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil { //nolint:gosec // a golden file in the repository
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the document differs from %s (run with -update and review the diff):\n%s", golden, got)
	}
}

func TestDetect(t *testing.T) {
	notNPM := execSQL(t, filepath.Join(t.TempDir(), "other.sqlite"), `CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)`)
	cases := []struct {
		name string
		data []byte
		want bool
	}{
		{"npm", fixtureBytes(t), true},
		{"other sqlite", notNPM, false},
		{"json", []byte(`{"format":"gatehouse-export"}`), false},
		{"yaml", []byte("http:\n  routers: {}\n"), false},
		{"empty", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Reader{}).Detect(tc.data); got != tc.want {
				t.Fatalf("Detect = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReadRefuses(t *testing.T) {
	full := fixtureBytes(t)
	notNPM := execSQL(t, filepath.Join(t.TempDir(), "other.sqlite"), `CREATE TABLE proxy (id INTEGER PRIMARY KEY)`)
	noDomains := execSQL(t, filepath.Join(t.TempDir(), "fake.sqlite"),
		`CREATE TABLE proxy_host (id INTEGER PRIMARY KEY)`, `CREATE TABLE redirection_host (id INTEGER)`,
		`CREATE TABLE dead_host (id INTEGER)`, `CREATE TABLE stream (id INTEGER)`,
		`CREATE TABLE access_list (id INTEGER)`, `CREATE TABLE access_list_auth (id INTEGER)`)
	cases := []struct {
		name string
		data []byte
		want error // nil: any error
	}{
		{"empty", nil, ErrNotSQLite},
		{"text", []byte("server { listen 80; }"), ErrNotSQLite},
		{"magic only", []byte("SQLite format 3\x00"), nil},
		{"truncated to a page", full[:4096], nil},
		{"truncated to half", full[:len(full)/2], nil},
		{"another SQLite database", notNPM, ErrNotNPM},
		{"a proxy_host table without domain names", noDomains, ErrNotNPM},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Reader{BcryptCost: bcrypt.MinCost}.Read(tc.data)
			if err == nil {
				t.Fatal("Read accepted the file")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}
