// Package geoip answers the country of a client address from a
// MaxMind-format database (GeoLite2-Country, GeoIP2-Country or City, DB-IP's
// lite country database, ...) that the operator supplies with
// PANEL_GEOIP_DB. Gatehouse ships no database.
package geoip

import (
	"fmt"
	"net/netip"

	"github.com/oschwald/maxminddb-golang/v2"
)

// DB is an open country database. It is safe for concurrent use.
type DB struct {
	r *maxminddb.Reader
}

// Open reads the database at path and checks that it answers countries.
func Open(path string) (*DB, error) {
	r, err := maxminddb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open country database %s: %w", path, err)
	}
	return &DB{r: r}, nil
}

// Close releases the database.
func (d *DB) Close() error { return d.r.Close() }

// Country is the ISO 3166-1 alpha-2 code of addr's country, or of the
// country its network is registered in, or "" when the database does not
// know it (private ranges, for example).
func (d *DB) Country(addr netip.Addr) string {
	res := d.r.Lookup(addr)
	if !res.Found() {
		return ""
	}
	var code string
	if err := res.DecodePath(&code, "country", "iso_code"); err == nil && code != "" {
		return code
	}
	if err := res.DecodePath(&code, "registered_country", "iso_code"); err == nil {
		return code
	}
	return ""
}
