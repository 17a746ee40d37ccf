package forwardauth

import (
	"fmt"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/mail"
)

// E-mail code protection: a visitor gives an address the service allows,
// receives a six-digit code by e-mail, and gets a session on the service.
const (
	// MaxEmailAllow bounds a service's list of allowed addresses and domains.
	MaxEmailAllow = 500
	// DefaultEmailSessionSeconds is the session length when none is chosen.
	DefaultEmailSessionSeconds = 24 * 3600
	// Bounds of the session length an administrator may choose.
	MinEmailSessionSeconds = 5 * 60
	MaxEmailSessionSeconds = 90 * 24 * 3600
)

// emailAllow is who may ask for a code: exact addresses, whole domains
// ("example.com" or "@example.com") and subdomains ("*.example.com", which
// does not match example.com itself). Everything is kept lower-case.
type emailAllow struct {
	addresses  map[string]bool
	domains    map[string]bool
	subdomains []string // ".example.com"
}

// parseEmailAllow checks and normalizes an allow-list as an administrator
// typed it; the error names the offending entry (allowedEmails[i]).
func parseEmailAllow(entries []string) ([]string, error) {
	var col apperr.Collector
	if len(entries) > MaxEmailAllow {
		col.Add("allowedEmails", "at most %d entries", MaxEmailAllow)
		return nil, col.Err()
	}
	out := make([]string, 0, len(entries))
	seen := map[string]bool{}
	for i, raw := range entries {
		e, ok := normalizeAllowEntry(raw)
		if !ok {
			col.Add(fmt.Sprintf("allowedEmails[%d]", i),
				"must be an e-mail address (ann@example.com), a domain (example.com) or its subdomains (*.example.com)")
			continue
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	if err := col.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// normalizeAllowEntry returns the stored form of one entry: an address,
// a bare domain or "*." and a domain, all lower-case.
func normalizeAllowEntry(raw string) (string, bool) {
	e := strings.ToLower(strings.TrimSpace(raw))
	if e == "" || len(e) > mail.MaxAddressLen {
		return "", false
	}
	switch {
	case strings.HasPrefix(e, "*@"):
		return "", false // not a wildcard: a domain is written example.com
	case strings.HasPrefix(e, "*."):
		return e, mail.ValidDomain(e[2:])
	case strings.HasPrefix(e, "@"):
		return e[1:], mail.ValidDomain(e[1:])
	case strings.Contains(e, "@"):
		a, err := mail.CheckAddress(e)
		return a, err == nil
	}
	return e, mail.ValidDomain(e)
}

// newEmailAllow builds the matcher of a stored (normalized) list; entries
// that do not parse are skipped (they never match anyone).
func newEmailAllow(entries []string) *emailAllow {
	a := &emailAllow{addresses: map[string]bool{}, domains: map[string]bool{}}
	for _, raw := range entries {
		e, ok := normalizeAllowEntry(raw)
		switch {
		case !ok:
		case strings.HasPrefix(e, "*."):
			a.subdomains = append(a.subdomains, e[1:])
		case strings.Contains(e, "@"):
			a.addresses[e] = true
		default:
			a.domains[e] = true
		}
	}
	return a
}

// allows reports whether addr (as normalizeVisitorEmail returns it) may ask
// for a code. An empty list allows no one.
func (a *emailAllow) allows(addr string) bool {
	if a == nil || addr == "" {
		return false
	}
	if a.addresses[addr] {
		return true
	}
	_, domain, ok := strings.Cut(addr, "@")
	if !ok {
		return false
	}
	if a.domains[domain] {
		return true
	}
	for _, s := range a.subdomains {
		if strings.HasSuffix(domain, s) {
			return true
		}
	}
	return false
}

// normalizeVisitorEmail reads the address a visitor typed: trimmed,
// checked as one bare address, and lower-cased whole, so that "Ann@" and
// "ann@" are one address to the allow-list and to every limit.
func normalizeVisitorEmail(raw string) (string, bool) {
	if len(raw) > mail.MaxAddressLen+16 {
		return "", false
	}
	a, err := mail.CheckAddress(strings.TrimSpace(raw))
	if err != nil {
		return "", false
	}
	return strings.ToLower(a), true
}

// emailCodePolicy is a service's e-mail code protection in the snapshot.
type emailCodePolicy struct {
	allow          *emailAllow
	sessionSeconds int64
}

// emailCodeSettings is the settings JSON of an email_code protection.
type emailCodeSettings struct {
	Allowed        []string `json:"allowed"`
	SessionSeconds int64    `json:"sessionSeconds"`
}

func decodeEmailCodeSettings(m map[string]any) emailCodeSettings {
	var st emailCodeSettings
	list, _ := m["allowed"].([]any)
	st.Allowed = make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok && s != "" {
			st.Allowed = append(st.Allowed, s)
		}
	}
	switch n := m["sessionSeconds"].(type) {
	case float64:
		st.SessionSeconds = int64(n)
	case int64:
		st.SessionSeconds = n
	case int:
		st.SessionSeconds = int64(n)
	}
	if st.SessionSeconds < MinEmailSessionSeconds || st.SessionSeconds > MaxEmailSessionSeconds {
		st.SessionSeconds = DefaultEmailSessionSeconds
	}
	return st
}

// checkEmailCodeSettings validates a request's e-mail code fields and
// returns the settings to store.
func checkEmailCodeSettings(allowed []string, sessionSeconds int64) (map[string]any, error) {
	list, err := parseEmailAllow(allowed)
	if err != nil {
		return nil, err
	}
	if sessionSeconds == 0 {
		sessionSeconds = DefaultEmailSessionSeconds
	}
	if sessionSeconds < MinEmailSessionSeconds || sessionSeconds > MaxEmailSessionSeconds {
		return nil, apperr.Field("sessionSeconds", "must be between %d (5 minutes) and %d (90 days)",
			MinEmailSessionSeconds, MaxEmailSessionSeconds)
	}
	return map[string]any{"allowed": list, "sessionSeconds": sessionSeconds}, nil
}
