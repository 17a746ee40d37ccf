package npm

import (
	"os"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/store"

	"golang.org/x/crypto/bcrypt"
)

// FuzzRead feeds whole files to the reader: it answers with a document or
// an error, never a panic.
func FuzzRead(f *testing.F) {
	full, err := os.ReadFile(fixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(full)
	f.Add(full[:len(full)/2])
	f.Add(full[:4096])
	f.Add([]byte("SQLite format 3\x00proxy_host"))
	f.Add([]byte{})
	r := Reader{BcryptCost: bcrypt.MinCost}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		doc, skipped, err := r.Read(data)
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("Read took %v on %d bytes", d, len(data))
		}
		if err != nil {
			return
		}
		for _, sv := range doc.Services {
			if sv.Kind == store.KindTCP || sv.Kind == store.KindUDP {
				// A stream: no hostnames, its own entrypoint and one target.
				if sv.Name == "" || len(sv.Hostnames) != 0 || len(sv.Entrypoints) != 1 || len(sv.Targets) != 1 {
					t.Fatalf("stream service %+v", sv)
				}
				continue
			}
			if len(sv.Hostnames) == 0 || sv.Name == "" {
				t.Fatalf("service without a name or hostname: %+v", sv)
			}
		}
		for _, s := range skipped {
			if s.Source == "" || s.Reason == "" {
				t.Fatalf("skipped entry without source or reason: %+v", s)
			}
		}
	})
}

// FuzzDomainNames feeds the domain_names column decoder and the hostname
// conversion behind it.
func FuzzDomainNames(f *testing.F) {
	for _, s := range []string{`["a.example.com","*.example.com"]`, `[]`, `null`, `{"a":1}`, `["\u0000"]`, `[1]`, `["A.COM."]`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		names, err := parseDomainNames(raw)
		if err != nil {
			return
		}
		c := &converter{hosts: map[string]string{}}
		hosts, ok := c.hostnames("proxy host #1", host{domainNames: raw})
		if ok != (len(hosts) > 0) || len(hosts) > len(names) {
			t.Fatalf("%q: ok %v, %d hostnames from %d names", raw, ok, len(hosts), len(names))
		}
		for _, h := range hosts {
			if !utf8.ValidString(h.Value) || h.Value == "" {
				t.Fatalf("%q: hostname %q", raw, h.Value)
			}
		}
		if l := c.label("proxy host", 1, raw); !utf8.ValidString(l) {
			t.Fatalf("%q: label %q is not UTF-8", raw, l)
		}
	})
}
