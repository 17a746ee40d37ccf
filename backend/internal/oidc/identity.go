package oidc

import (
	"strings"
	"unicode/utf8"
)

// Identity is who the provider says signed in.
type Identity struct {
	// Issuer and Subject are the stable identity: they link a person.
	Issuer, Subject string
	// Username is the preferred_username claim as sent (maybe empty).
	Username string
	// Email is the email claim as sent, verified or not: see VerifiedEmail.
	Email string
	// EmailVerified: the email_verified claim is present and true.
	EmailVerified bool
	// User names who signed in: the username, else the verified e-mail
	// address, else the subject. Never an unverified address.
	User string
	// Name is the name claim, or User when there is none.
	Name   string
	Groups []string // from the groups claim the settings name
	// AMR and ACR are the amr and acr claims: how the provider says the
	// person authenticated (RFC 8176, OpenID Connect Core 2).
	AMR []string
	ACR string
}

// acrMultiFactor are acr values that promise more than one factor: the
// PAPE multi-factor policies and the OpenID Extended Authentication
// Profile's phishing-resistant values (phr, phrh).
var acrMultiFactor = map[string]bool{
	"http://schemas.openid.net/pape/policies/2007/06/multi-factor":          true,
	"http://schemas.openid.net/pape/policies/2007/06/multi-factor-physical": true,
	"phr": true, "phrh": true,
}

// MultiFactor reports whether the provider says the sign-in used more than
// one factor: "mfa" in amr (RFC 8176), or an acr value that means it. A
// provider that says nothing did not use one, as far as Gatehouse knows.
func (id Identity) MultiFactor() bool {
	for _, m := range id.AMR {
		if m == "mfa" {
			return true
		}
	}
	return acrMultiFactor[id.ACR]
}

// VerifiedEmail is the e-mail address when the provider has verified it,
// "" otherwise: an unverified address could be anyone's.
func (id Identity) VerifiedEmail() string {
	if id.EmailVerified {
		return id.Email
	}
	return ""
}

func identityOf(issuer, subject string, claims map[string]any, groupsClaim string) Identity {
	// Every claim is bounded before it reaches a query, a log line or the
	// audit log: a provider's token is not a form the panel checked.
	str := func(k string) string { v, _ := claims[k].(string); return clip(v, maxClaim) }
	id := Identity{Issuer: issuer, Subject: subject, Username: str("preferred_username"), Email: str("email"),
		Name: str("name"), Groups: groupsOf(claims[groupsClaim]), ACR: str("acr")}
	if len(id.Email) > maxEmail {
		id.Email = "" // cut short it would be someone else's address
	}
	if amr, ok := claims["amr"].([]any); ok {
		for _, v := range amr {
			if m, ok := v.(string); ok && len(id.AMR) < 16 {
				id.AMR = append(id.AMR, clip(m, 64))
			}
		}
	}
	// Some providers send email_verified as a string.
	switch v := claims["email_verified"].(type) {
	case bool:
		id.EmailVerified = v
	case string:
		id.EmailVerified = v == "true"
	}
	id.User = id.Username
	if id.User == "" {
		id.User = id.VerifiedEmail()
	}
	if id.User == "" {
		id.User = subject
	}
	if id.Name == "" {
		id.Name = id.User
	}
	return id
}

// groupsOf reads a groups claim: a JSON list of strings or one
// comma-separated string (a comma inside a listed name becomes a space).
func groupsOf(v any) []string {
	switch g := v.(type) {
	case string:
		return cleanList(strings.Split(g, ","))
	case []any:
		out := make([]string, 0, len(g))
		for _, x := range g {
			if s, ok := x.(string); ok {
				out = append(out, strings.ReplaceAll(s, ",", " "))
			}
		}
		return cleanList(out)
	}
	return []string{}
}

// Bounds on what a provider's claims bring in: a text claim (cut at a
// character boundary), an e-mail address (longer ones are dropped: RFC 5321
// allows 254), and the groups claim (the first maxGroups names; longer
// names are dropped).
const (
	maxClaim     = 256
	maxEmail     = 254
	maxGroups    = 256
	maxGroupName = 256
)

// clip is s cut to at most n bytes, at a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// cleanList trims each entry and drops empty, repeated and overlong ones,
// keeping at most maxGroups.
func cleanList(in []string) []string {
	out := make([]string, 0, min(len(in), maxGroups))
	seen := map[string]bool{}
	for _, v := range in {
		if len(out) == maxGroups {
			break
		}
		v = strings.TrimSpace(v)
		if v == "" || len(v) > maxGroupName || seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
	}
	return out
}
