package sealbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSealRoundTripAndKeyFile(t *testing.T) {
	dir := t.TempDir()
	b, err := Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, IdentityFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("identity file mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	sealed, err := b.Seal("client-secret-value")
	if err != nil || !IsSealed(sealed) || strings.Contains(sealed, "client-secret-value") {
		t.Fatalf("Seal = %q, %v", sealed, err)
	}
	// The same file is loaded on the next start.
	b2, err := Load(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b2.Open(sealed); err != nil || got != "client-secret-value" {
		t.Fatalf("Open = %q, %v", got, err)
	}
}

func TestOpenFailsClosedWithAnotherKey(t *testing.T) {
	a, _ := Load(t.TempDir(), "")
	b, _ := Load(t.TempDir(), "")
	sealed, _ := a.Seal("x")
	if _, err := b.Open(sealed); !errors.Is(err, ErrOpen) {
		t.Fatalf("Open with another key = %v; want ErrOpen", err)
	}
	if _, err := b.Open("age:!!!"); !errors.Is(err, ErrOpen) {
		t.Fatalf("Open of garbage = %v; want ErrOpen", err)
	}
}

func TestPlaintextAndEmptyPassThrough(t *testing.T) {
	b, _ := Load(t.TempDir(), "")
	if got, _ := b.Open("legacy"); got != "legacy" {
		t.Fatalf("Open(plaintext) = %q", got)
	}
	if s, _ := b.Seal(""); s != "" {
		t.Fatalf("Seal(\"\") = %q", s)
	}
}

func TestIdentityFromEnvironment(t *testing.T) {
	if _, err := Load(t.TempDir(), "garbage"); err == nil || !strings.Contains(err.Error(), "PANEL_AGE_IDENTITY") {
		t.Fatalf("Load(garbage) = %v", err)
	}
	a, _ := Load(t.TempDir(), "")
	b, err := Load(t.TempDir(), "# comment\n"+a.Identity().String()+"\n")
	if err != nil {
		t.Fatal(err)
	}
	sealed, _ := a.Seal("v")
	if got, err := b.Open(sealed); err != nil || got != "v" {
		t.Fatalf("Open = %q, %v", got, err)
	}
}

func TestLooseKeyFileIsRestricted(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir, ""); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, IdentityFile)
	if err := os.Chmod(path, 0o644); err != nil { //nolint:gosec // loose on purpose: Load must tighten it
		t.Fatal(err)
	}
	if _, err := Load(dir, ""); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode after load = %v; want 0600", fi.Mode().Perm())
	}
}
