package people

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// The checks of what a person and a group hold never panic, and what they
// accept is bounded, printable and trimmed.
func FuzzPeopleInput(f *testing.F) {
	for _, s := range []string{"", "ann@example.com", "Ann <ann@example.com>", "a@b", "family", " x ", "%_\\", "\x00", strings.Repeat("é", 300)} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var c apperr.Collector
		email := normalEmail(&c, a)
		if c.Err() == nil && email != "" && (len(email) > MaxEmail || !strings.Contains(email, "@") || strings.ContainsAny(email, " <>")) {
			t.Fatalf("accepted e-mail %q", email)
		}
		c = apperr.Collector{}
		name := normalDisplayName(&c, b)
		if c.Err() == nil && (utf8.RuneCountInString(name) > MaxDisplayName || name != strings.TrimSpace(name)) {
			t.Fatalf("accepted display name %q", name)
		}
		c = apperr.Collector{}
		g, d := normalGroup(&c, a, b)
		if c.Err() == nil && (len(g) == 0 || len(g) > MaxGroupName || utf8.RuneCountInString(d) > MaxDescription) {
			t.Fatalf("accepted group %q %q", g, d)
		}
		q, err := normalQuery(ListQuery{Q: a})
		if err == nil && utf8.RuneCountInString(q.Q) > MaxQuery {
			t.Fatalf("accepted query %q", q.Q)
		}
		if q.Q != "" {
			if hi := prefixEnd(strings.ToLower(q.Q)); hi != "" && hi <= strings.ToLower(q.Q) {
				t.Fatalf("prefixEnd(%q) = %q, not after it", q.Q, hi)
			}
			_, _ = searchCondition(q.Q)
		}
	})
}
