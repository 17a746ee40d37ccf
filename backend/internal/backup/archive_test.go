package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
)

// memSink keeps the files in memory.
type memSink map[string]*bytes.Buffer

func (m memSink) Create(name string) (io.WriteCloser, error) {
	b := &bytes.Buffer{}
	m[name] = b
	return nopCloser{b}, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// entry is one tar entry of a hand-made archive.
type entry struct {
	hdr  tar.Header
	body []byte
}

func reg(name string, body []byte) entry {
	return entry{hdr: tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(body)), Mode: 0o600}, body: body}
}

func tarGz(t testing.TB, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := e.hdr
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if len(e.body) > 0 {
			if _, err := tw.Write(e.body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// manifestFor lists files (name, body) in m, with their real sizes and hashes.
func manifestFor(t testing.TB, m Manifest, files ...entry) []byte {
	t.Helper()
	m.Files = nil
	for _, f := range files {
		sum := sha256.Sum256(f.body)
		m.Files = append(m.Files, File{Name: f.hdr.Name, Size: int64(len(f.body)), SHA256: hex.EncodeToString(sum[:])})
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// realArchive writes a backup of f's data directory outside it and returns
// its bytes, manifest and files.
func realArchive(t testing.TB, f *fixture) ([]byte, Manifest, memSink) {
	t.Helper()
	var buf bytes.Buffer
	if err := os.MkdirAll(f.svc.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Write(context.Background(), &buf, TriggerManual, f.clock.Now()); err != nil {
		t.Fatal(err)
	}
	files := memSink{}
	m, err := ReadArchive(bytes.NewReader(buf.Bytes()), files)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), m, files
}

func TestArchiveRoundTrip(t *testing.T) {
	f := newFixture(t)
	raw, m, files := realArchive(t, f)
	if m.Format != Format || m.Version != 1 || m.Engine != "sqlite" || m.Trigger != "manual" || m.Identity != "file" ||
		m.Recipient != f.box.Identity().Recipient().String() || m.SchemaVersion == 0 || len(m.Files) != 3 {
		t.Fatalf("manifest %+v", m)
	}
	key, _ := os.ReadFile(filepath.Join(f.dataDir, IdentityName))
	if !bytes.Equal(files[IdentityName].Bytes(), key) {
		t.Fatal("the identity in the archive differs from age.key")
	}
	// manifest.json is the first entry.
	gz, _ := gzip.NewReader(bytes.NewReader(raw))
	hdr, err := tar.NewReader(gz).Next()
	if err != nil || hdr.Name != ManifestName {
		t.Fatalf("first entry %v %v", hdr, err)
	}
}

func TestEnvironmentIdentityStaysOutOfTheArchive(t *testing.T) {
	f := newFixture(t)
	f.svc.o.FromEnvironment = true
	_, m, files := realArchive(t, f)
	if m.Identity != IdentityEnvironment || files[IdentityName] != nil || m.Recipient == "" {
		t.Fatalf("manifest %+v, files %v", m, files)
	}
}

// TestHostileArchivesChangeNothing feeds restore archives that are foreign,
// damaged or crafted, and checks each is refused with a clear error and the
// data directory is exactly as it was.
func TestHostileArchivesChangeNothing(t *testing.T) {
	f := newFixture(t)
	raw, m, files := realArchive(t, f)
	f.closeDB()
	lk, err := LockShared(f.dataDir) // a served data directory has its lock file
	if err != nil {
		t.Fatal(err)
	}
	lk.Release()
	db, key, creds := reg(DatabaseName, files[DatabaseName].Bytes()), reg(IdentityName, files[IdentityName].Bytes()),
		reg(CredentialsName, files[CredentialsName].Bytes())
	man := func(mod func(*Manifest), fs ...entry) entry {
		mm := m
		if mod != nil {
			mod(&mm)
		}
		return reg(ManifestName, manifestFor(t, mm, fs...))
	}
	good := man(nil, db, key, creds)
	link := func(typ byte, name, target string) entry {
		return entry{hdr: tar.Header{Typeflag: typ, Name: name, Linkname: target, Mode: 0o600}}
	}
	newer := newerSchemaDB(t, files[DatabaseName].Bytes())
	otherKey, _ := age.GenerateX25519Identity()
	tests := []struct {
		name string
		data []byte
		env  string // PANEL_AGE_IDENTITY at restore
		want string
	}{
		{"path traversal", tarGz(t, []entry{man(nil, db, key, creds), reg("../"+DatabaseName, db.body), key, creds}), "", `unexpected entry "../gatehouse.db"`},
		{"absolute path", tarGz(t, []entry{good, reg("/tmp/"+DatabaseName, db.body), key, creds}), "", `unexpected entry "/tmp/gatehouse.db"`},
		{"symlink", tarGz(t, []entry{good, link(tar.TypeSymlink, DatabaseName, "/etc/passwd"), key, creds}), "", "not a regular file"},
		{"hard link", tarGz(t, []entry{good, link(tar.TypeLink, DatabaseName, IdentityName), key, creds}), "", "not a regular file"},
		{"device", tarGz(t, []entry{good, {hdr: tar.Header{Typeflag: tar.TypeChar, Name: DatabaseName, Devmajor: 1, Devminor: 3}}}), "", "not a regular file"},
		{"huge declared size", tarGz(t, []entry{man(nil, db, key, creds), reg(DatabaseName, db.body)}), "", ""},
		{"truncated gzip", raw[:len(raw)-200], "", "invalid backup archive"},
		{"gzip trailer cut", raw[:len(raw)-4], "", "gzip"},
		{"wrong checksum", tarGz(t, []entry{good, reg(DatabaseName, flipByte(db.body)), key, creds}), "", "does not match its checksum"},
		{"size differs", tarGz(t, []entry{good, reg(DatabaseName, db.body[:len(db.body)-1]), key, creds}), "", "the manifest says"},
		{"duplicate name", tarGz(t, []entry{good, db, db, key, creds}), "", "appears twice"},
		{"extra entry", tarGz(t, []entry{good, db, key, creds, reg("notes.txt", []byte("hi"))}), "", `unexpected entry "notes.txt"`},
		{"missing file", tarGz(t, []entry{good, db, key}), "", "missing from the archive"},
		{"manifest not first", tarGz(t, []entry{db, good, key, creds}), "", "not manifest.json"},
		{"foreign tar", tarGz(t, []entry{reg("README.md", []byte("# hello")), reg("main.go", []byte("package main"))}), "", "not a Gatehouse backup"},
		{"not gzip", []byte("just some text\n"), "", "not a gzip file"},
		{"empty file", nil, "", "not a gzip file"},
		{"unknown format", tarGz(t, []entry{man(func(mm *Manifest) { mm.Format = "other-tool" }, db, key, creds), db, key, creds}), "", `format "other-tool"`},
		{"unknown version", tarGz(t, []entry{man(func(mm *Manifest) { mm.Version = 2 }, db, key, creds), db, key, creds}), "", "format version 2 is not supported"},
		{"unknown engine", tarGz(t, []entry{man(func(mm *Manifest) { mm.Engine = "postgres" }, db, key, creds), db, key, creds}), "", `"postgres" database`},
		{"newer schema", tarGz(t, []entry{man(func(mm *Manifest) { mm.SchemaVersion = 9999 }, reg(DatabaseName, newer), key, creds), reg(DatabaseName, newer), key, creds}), "",
			"schema version 9999 but this Gatehouse knows only up to"},
		{"not a database", tarGz(t, []entry{man(nil, reg(DatabaseName, []byte("SQLite format 3\x00garbage")), key, creds), reg(DatabaseName, []byte("SQLite format 3\x00garbage")), key, creds}), "", "database"},
		{"identity mismatch", raw, otherKey.String(), "PANEL_AGE_IDENTITY is the identity of"},
		{"key not the recipient", tarGz(t, []entry{man(nil, db, reg(IdentityName, []byte(otherKey.String()+"\n")), creds), db, reg(IdentityName, []byte(otherKey.String()+"\n")), creds}), "",
			"the manifest says age1"},
	}
	// The huge size: the manifest claims a database of a terabyte.
	tests[5].data = tarGz(t, []entry{reg(ManifestName, hugeManifest(m)), db})
	tests[5].want = "a size of 1099511627776 bytes"
	before := tree(t, f.dataDir)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hostile.tar.gz")
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			o := f.restoreOptions(t)
			o.AgeIdentity = tc.env
			_, err := Restore(context.Background(), path, o)
			t.Log(err)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want it to say %q", err, tc.want)
			}
			if after := tree(t, f.dataDir); strings.Join(after, "\n") != strings.Join(before, "\n") {
				t.Fatalf("the data directory changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func flipByte(b []byte) []byte {
	c := bytes.Clone(b)
	c[len(c)/2] ^= 0xff
	return c
}

func hugeManifest(m Manifest) []byte {
	m.Files = []File{{Name: DatabaseName, Size: 1 << 40, SHA256: strings.Repeat("0", 64)}}
	b, _ := json.Marshal(m)
	return b
}

// newerSchemaDB returns a copy of the database claiming schema version 9999.
func newerSchemaDB(t *testing.T, db []byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "newer.db")
	if err := os.WriteFile(path, db, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=DELETE")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Exec("UPDATE schema_migrations SET version = 9999"); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	b, err := os.ReadFile(path) //nolint:gosec // the test's own copy
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRestoreRefusesARunningPanel(t *testing.T) {
	f := newFixture(t)
	raw, _, _ := realArchive(t, f)
	path := filepath.Join(t.TempDir(), "b.tar.gz")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	lk, err := LockShared(f.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Release()
	_, err = Restore(context.Background(), path, f.restoreOptions(t))
	if !errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), "stop it first") {
		t.Fatalf("err = %v", err)
	}
	if _, err := LockShared(f.dataDir); err != nil {
		t.Fatalf("a second serving lock: %v", err)
	}
}

// FuzzReadArchive feeds the archive reader arbitrary bytes: it never
// panics, never hands the sink a name outside the fixed set, and whatever
// it accepts matches its manifest.
func FuzzReadArchive(f *testing.F) {
	m := Manifest{Format: Format, Version: FormatVersion, Engine: EngineSQLite, Trigger: TriggerManual, Identity: IdentityEnvironment,
		Recipient: "age1example", CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), SchemaVersion: 12}
	db := reg(DatabaseName, []byte("SQLite format 3\x00 not really"))
	good := reg(ManifestName, manifestFor(f, m, db))
	f.Add(tarGz(f, []entry{good, db}))
	f.Add(tarGz(f, []entry{good, reg("../"+DatabaseName, db.body)}))
	f.Add(tarGz(f, []entry{good, {hdr: tar.Header{Typeflag: tar.TypeSymlink, Name: DatabaseName, Linkname: "/etc/passwd"}}}))
	f.Add(tarGz(f, []entry{good, db, db}))
	f.Add(tarGz(f, []entry{db, good}))
	f.Add(tarGz(f, []entry{reg(ManifestName, []byte(`{"format":"gatehouse-backup","version":1,"files":[{"name":"gatehouse.db","size":1099511627776}]}`))}))
	whole := tarGz(f, []entry{good, db})
	f.Add(whole[:len(whole)/2])
	f.Add([]byte("not an archive"))
	archive, _, _ := realArchive(f, newFixture(f))
	f.Add(archive)
	f.Fuzz(func(t *testing.T, data []byte) {
		sink := memSink{}
		got, err := ReadArchive(bytes.NewReader(data), sink)
		for name := range sink {
			if _, ok := limit[name]; !ok {
				t.Fatalf("the sink got %q", name)
			}
		}
		if err != nil {
			if !errors.Is(err, ErrArchive) {
				t.Fatalf("error outside ErrArchive: %v", err)
			}
			return
		}
		if len(sink) != len(got.Files) {
			t.Fatalf("accepted %d files for a manifest of %d", len(sink), len(got.Files))
		}
		for _, fl := range got.Files {
			sum := sha256.Sum256(sink[fl.Name].Bytes())
			if hex.EncodeToString(sum[:]) != fl.SHA256 {
				t.Fatalf("%s accepted with the wrong hash", fl.Name)
			}
		}
	})
}
