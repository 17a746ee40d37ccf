package geoip_test

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/geoip"
	"github.com/gatehouse-proxy/gatehouse/internal/geoip/geoiptest"
)

func TestCountry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "country.mmdb")
	geoiptest.Write(t, path, map[string]string{"203.0.113.0/24": "FR", "198.51.100.0/24": "DE", "2001:db8::/32": "NL"})
	db, err := geoip.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	for addr, want := range map[string]string{"203.0.113.7": "FR", "198.51.100.1": "DE", "2001:db8::9": "NL", "192.0.2.1": "", "10.0.0.1": ""} {
		if got := db.Country(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: %q, want %q", addr, got, want)
		}
	}
}

func TestOpenRefusesOtherFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "not.mmdb")
	if err := os.WriteFile(path, []byte("not a database"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := geoip.Open(path); err == nil {
		t.Fatal("a text file opened as a country database")
	}
	if _, err := geoip.Open(filepath.Join(t.TempDir(), "missing.mmdb")); err == nil {
		t.Fatal("a missing file opened")
	}
}
