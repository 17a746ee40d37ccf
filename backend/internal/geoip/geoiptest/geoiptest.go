// Package geoiptest writes small MaxMind-format country databases for tests.
package geoiptest

import (
	"net"
	"os"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"
)

// Write builds a country database mapping each CIDR to an ISO country code
// (reserved ranges such as 127.0.0.0/8 and TEST-NET included) at path.
func Write(tb testing.TB, path string, countries map[string]string) {
	tb.Helper()
	w, err := mmdbwriter.New(mmdbwriter.Options{DatabaseType: "Gatehouse-Test-Country", IncludeReservedNetworks: true, RecordSize: 24})
	if err != nil {
		tb.Fatal(err)
	}
	for cidr, cc := range countries {
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			tb.Fatalf("%s: %v", cidr, err)
		}
		rec := mmdbtype.Map{"country": mmdbtype.Map{"iso_code": mmdbtype.String(cc)}}
		if err := w.Insert(n, rec); err != nil {
			tb.Fatalf("insert %s: %v", cidr, err)
		}
	}
	f, err := os.Create(path) //nolint:gosec // a path the test chose
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := w.WriteTo(f); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}
