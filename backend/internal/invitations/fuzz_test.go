package invitations

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// A username or address asked for a reset is either refused naming
// "login" or comes out bounded, folded and free of control characters.
func FuzzNormalLogin(f *testing.F) {
	for _, s := range []string{"ann", " Ann@Example.com ", "", "a\x00b", strings.Repeat("x", 300), "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := normalLogin(in)
		if err != nil {
			if e, ok := apperr.As(err); !ok || len(e.Fields) == 0 || e.Fields[0].Field != "login" {
				t.Fatalf("normalLogin(%q) = %v; want a field error on login", in, err)
			}
			return
		}
		if out == "" || len(out) > MaxLogin || strings.ToLower(out) != out && utf8.ValidString(out) {
			t.Fatalf("normalLogin(%q) = %q", in, out)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("normalLogin(%q) kept a control character", in)
			}
		}
	})
}

// Delivery and life are checked whatever is sent.
func FuzzNormalCreate(f *testing.F) {
	f.Add("link", "", 0)
	f.Add("email", "a@b.c", 48)
	f.Add("x", "", -5)
	f.Fuzz(func(t *testing.T, delivery, email string, hours int) {
		in := CreateRequest{Delivery: delivery, Email: email, ExpiresInHours: hours}
		ttl, err := normalCreate(&in)
		if err != nil {
			if _, ok := apperr.As(err); !ok {
				t.Fatalf("not a client error: %v", err)
			}
			return
		}
		if ttl <= 0 || ttl > MaxTTL || (in.Delivery != DeliveryLink && in.Delivery != DeliveryEmail) {
			t.Fatalf("accepted %+v with life %v", in, ttl)
		}
	})
}

// Listed domains come out folded, bounded and well formed, or are refused
// naming domains or domains[i].
func FuzzNormalDomains(f *testing.F) {
	for _, s := range []string{"example.com", " Example.COM ", "", "a..b", "-x.com", strings.Repeat("a", 300) + ".com", "ex ample.com", "é.com"} {
		f.Add(s, "example.org")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var c apperr.Collector
		out := normalDomains(&c, []string{a, b})
		if err := c.Err(); err != nil {
			e, ok := apperr.As(err)
			if !ok || len(e.Fields) == 0 || !strings.HasPrefix(e.Fields[0].Field, "domains") {
				t.Fatalf("normalDomains(%q, %q) = %v; want a field error on domains", a, b, err)
			}
		}
		for _, d := range out {
			if d == "" || len(d) > MaxDomainLength || strings.ToLower(d) != d || strings.ContainsAny(d, " @\x00") {
				t.Fatalf("normalDomains(%q, %q) kept %q", a, b, d)
			}
		}
	})
}
