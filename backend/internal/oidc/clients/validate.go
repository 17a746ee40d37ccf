package clients

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Limits of a client. Every list and text is bounded before it is stored
// or reaches the provider, which compares redirect URIs on every sign-in.
const (
	maxName          = 100
	maxURI           = 2000
	maxURIs          = 20
	maxLogoURL       = 2048
	maxLogoData      = 64 << 10
	maxGroups        = 100
	maxMappings      = 20
	maxMappingValues = 50
	maxClaimName     = 64
	maxClaimText     = 256
	maxPresetID      = 64
	maxID            = 64

	minTokenTTL   = 60              // 1 minute
	maxTokenTTL   = 24 * 3600       // 24 hours
	minRefreshTTL = 3600            // 1 hour
	maxRefreshTTL = 365 * 24 * 3600 // 365 days

	defaultAccessTTL  = 3600
	defaultIDTTL      = 3600
	defaultRefreshTTL = 30 * 24 * 3600
)

// MaxAgeSeconds bounds a client's maximum sign-in age, as a people
// protection's is bounded.
const MaxAgeSeconds = 365 * 24 * 3600

// The scopes a client may ask for, and the grant types it may use.
const (
	ScopeOpenID        = "openid"
	ScopeProfile       = "profile"
	ScopeEmail         = "email"
	ScopeGroups        = "groups"
	ScopeOfflineAccess = "offline_access"

	GrantAuthorizationCode = "authorization_code"
	GrantRefreshToken      = "refresh_token"
	GrantDeviceCode        = "urn:ietf:params:oauth:grant-type:device_code"

	AlgRS256 = "RS256"
	AlgES256 = "ES256"

	KindGroups = "groups"
	KindStatic = "static"
	KindRename = "rename"
)

var (
	knownScopes = []string{ScopeOpenID, ScopeProfile, ScopeEmail, ScopeGroups, ScopeOfflineAccess}
	knownGrants = []string{GrantAuthorizationCode, GrantRefreshToken, GrantDeviceCode}
	// renameFrom are the standard claims a rename mapping may copy.
	renameFrom = []string{"preferred_username", "name", "email", "groups"}
	// reservedClaims are made by the provider itself: a mapping may not
	// replace them (a token's subject, audience or lifetime, or the
	// standard claims every app reads).
	reservedClaims = map[string]bool{
		"iss": true, "sub": true, "aud": true, "exp": true, "iat": true, "nbf": true, "jti": true,
		"auth_time": true, "nonce": true, "acr": true, "amr": true, "azp": true, "at_hash": true,
		"c_hash": true, "sid": true, "scope": true, "client_id": true, "cnf": true, "events": true,
		"preferred_username": true, "name": true, "email": true, "email_verified": true, "groups": true,
	}
	// unsafeSchemes can never be a redirect: they run or show content in
	// the browser instead of handing the code to an app.
	unsafeSchemes = []string{"javascript", "data", "vbscript", "file", "blob", "about", "filesystem", "view-source"}
	logoTypes     = []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"}
)

// normalize checks the meaning of a client's fields (the JSON shape was
// checked when the body was bound), fills the defaults, and names every
// offending field. Whether groups and the service exist is checked in the
// transaction that stores the client.
func (in *Input) normalize() error {
	var c apperr.Collector
	in.Name = strings.TrimSpace(in.Name)
	if n := utf8.RuneCountInString(in.Name); n < 1 || n > maxName || !printable(in.Name) {
		c.Add("name", "must be 1 to %d printable characters", maxName)
	}
	in.LogoURL = strings.TrimSpace(in.LogoURL)
	if msg := checkLogo(in.LogoURL); msg != "" {
		c.Add("logoUrl", "%s", msg)
	}
	// The preset only records where the client came from: any preset id,
	// so a client made from a preset a later version drops still saves.
	in.Preset = strings.TrimSpace(in.Preset)
	if len(in.Preset) > maxPresetID || !presetID(in.Preset) {
		c.Add("preset", "must be a preset's id (GET /api/oidc/presets) or empty")
	}
	in.Scopes = normalizeSet(in.Scopes, []string{ScopeOpenID, ScopeProfile, ScopeEmail}, knownScopes, "scopes", &c)
	if !slices.Contains(in.Scopes, ScopeOpenID) && len(in.Scopes) > 0 {
		c.Add("scopes", "must include openid")
	}
	in.GrantTypes = normalizeSet(in.GrantTypes, []string{GrantAuthorizationCode}, knownGrants, "grantTypes", &c)
	code, device := slices.Contains(in.GrantTypes, GrantAuthorizationCode), slices.Contains(in.GrantTypes, GrantDeviceCode)
	if !code && !device && len(in.GrantTypes) > 0 {
		c.Add("grantTypes", "must include authorization_code or the device code grant")
	}
	if slices.Contains(in.Scopes, ScopeOfflineAccess) && !slices.Contains(in.GrantTypes, GrantRefreshToken) {
		c.Add("scopes", "offline_access needs the refresh_token grant type")
	}
	in.RedirectURIs = checkURIs(in.RedirectURIs, "redirectUris", false, &c)
	if code && len(in.RedirectURIs) == 0 {
		c.Add("redirectUris", "must have at least one redirect URI for the authorization code grant")
	}
	in.PostLogoutRedirectURIs = checkURIs(in.PostLogoutRedirectURIs, "postLogoutRedirectUris", false, &c)
	in.BackchannelLogoutURI = strings.TrimSpace(in.BackchannelLogoutURI)
	if in.BackchannelLogoutURI != "" {
		if msg := checkURI(in.BackchannelLogoutURI, true); msg != "" {
			c.Add("backchannelLogoutUri", "%s", msg)
		}
	}
	in.AllowedGroupIDs = normalizeIDs(in.AllowedGroupIDs, maxGroups, "allowedGroupIds", &c)
	switch in.SigningAlg = strings.TrimSpace(in.SigningAlg); in.SigningAlg {
	case "":
		in.SigningAlg = AlgRS256
	case AlgRS256, AlgES256:
	default:
		c.Add("signingAlg", "must be RS256 or ES256")
	}
	checkMappings(in.ClaimMappings, &c)
	if in.MaxAgeSeconds < 0 || in.MaxAgeSeconds > MaxAgeSeconds {
		c.Add("maxAgeSeconds", "must be between 0 (no limit) and %d", MaxAgeSeconds)
	}
	in.AccessTokenTTLSeconds = ttl(in.AccessTokenTTLSeconds, defaultAccessTTL, minTokenTTL, maxTokenTTL,
		"accessTokenTtlSeconds", "1 minute and 24 hours", &c)
	in.IDTokenTTLSeconds = ttl(in.IDTokenTTLSeconds, defaultIDTTL, minTokenTTL, maxTokenTTL,
		"idTokenTtlSeconds", "1 minute and 24 hours", &c)
	in.RefreshTokenTTLSeconds = ttl(in.RefreshTokenTTLSeconds, defaultRefreshTTL, minRefreshTTL, maxRefreshTTL,
		"refreshTokenTtlSeconds", "1 hour and 365 days", &c)
	if in.ServiceID = strings.TrimSpace(in.ServiceID); len(in.ServiceID) > maxID {
		c.Add("serviceId", "no such service")
	}
	return c.Err()
}

// Check normalizes and validates in as a create or update does, for
// callers that write clients another way (the presets' tests, an import).
func Check(in *Input) error { return in.normalize() }

func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return false
		}
	}
	return true
}

func checkLogo(s string) string {
	if s == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(s, "data:"); ok {
		if len(s) > maxLogoData {
			return fmt.Sprintf("a data: logo must be at most %d KiB", maxLogoData>>10)
		}
		mediaType, _, ok := strings.Cut(rest, ";base64,")
		if !ok || !slices.Contains(logoTypes, mediaType) {
			return "a data: logo must be a base64 PNG, JPEG, GIF, WebP or SVG image (data:image/png;base64,…)"
		}
		return ""
	}
	if len(s) > maxLogoURL {
		return fmt.Sprintf("must be at most %d characters", maxLogoURL)
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || !asciiURI(s) {
		return "must be an https:// address of an image, or a data: image"
	}
	return ""
}

// normalizeSet trims and de-duplicates a list of known words, in the order
// known lists them; an empty list takes def.
func normalizeSet(in, def, known []string, field string, c *apperr.Collector) []string {
	if len(in) == 0 {
		return slices.Clone(def)
	}
	if len(in) > len(known)*2 {
		c.Add(field, "must name at most %d values", len(known))
		return nil
	}
	seen := map[string]bool{}
	for i, v := range in {
		v = strings.TrimSpace(v)
		if !slices.Contains(known, v) {
			c.Add(fmt.Sprintf("%s[%d]", field, i), "must be one of %s", strings.Join(known, ", "))
			continue
		}
		seen[v] = true
	}
	out := []string{}
	for _, k := range known {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out
}

func normalizeIDs(in []string, limit int, field string, c *apperr.Collector) []string {
	if len(in) > limit {
		c.Add(field, "must name at most %d", limit)
		return []string{}
	}
	out := []string{}
	for i, id := range in {
		id = strings.TrimSpace(id)
		if id == "" || len(id) > maxID {
			c.Add(fmt.Sprintf("%s[%d]", field, i), "no such group")
			continue
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// checkURIs checks a list of redirect URIs and drops exact duplicates.
// Each is stored as typed (only surrounding spaces, which no URI holds,
// are trimmed): the provider matches them byte for byte.
func checkURIs(in []string, field string, serverSide bool, c *apperr.Collector) []string {
	if len(in) > maxURIs {
		c.Add(field, "must have at most %d addresses", maxURIs)
		return []string{}
	}
	out := []string{}
	for i, u := range in {
		u = strings.TrimSpace(u)
		if msg := checkURI(u, serverSide); msg != "" {
			c.Add(fmt.Sprintf("%s[%d]", field, i), "%s", msg)
			continue
		}
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// checkURI says what is wrong with a redirect URI, or "". It follows
// RFC 9700 (OAuth 2.0 Security Best Current Practice) and RFC 8252 (OAuth
// 2.0 for native apps): absolute, no fragment, no wildcard, https except
// on the loopback interface, and for native apps a private-use scheme.
// serverSide URIs (back-channel logout) are called by the provider, so a
// private-use scheme means nothing there.
func checkURI(s string, serverSide bool) string {
	switch {
	case s == "":
		return "must not be empty"
	case len(s) > maxURI:
		return fmt.Sprintf("must be at most %d characters", maxURI)
	case !asciiURI(s):
		return "must be ASCII without spaces (percent-encode other characters)"
	case strings.Contains(s, "#"):
		return "must not have a fragment (#)"
	case strings.Contains(s, "*"):
		return "must not have a wildcard (*): redirect URIs are matched exactly"
	}
	u, err := url.Parse(s)
	if err != nil {
		return "must be an absolute URI"
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme == "":
		return "must be an absolute URI (https://app.example.com/callback)"
	case !strings.HasPrefix(s, scheme+":"):
		// url.Parse lowers the scheme; the provider compares bytes.
		return "must have a lower-case scheme"
	case u.User != nil:
		return "must not have a user name or password"
	case scheme == "https":
		if u.Host == "" || u.Hostname() == "" {
			return "must name a host"
		}
	case scheme == "http":
		if !loopback(u.Hostname()) {
			return "must use https (http only for localhost and loopback addresses)"
		}
	case serverSide:
		return "must use https (http only for localhost and loopback addresses)"
	case slices.Contains(unsafeSchemes, scheme) || scheme == "ws" || scheme == "wss":
		return fmt.Sprintf("must not use the %s: scheme", scheme)
	case u.Opaque != "" && !strings.HasPrefix(u.Opaque, "/"):
		// "app.example:callback" is ambiguous; RFC 8252 7.1 uses
		// "com.example.app:/callback".
		return "a native app's URI must have a path after the scheme (com.example.app:/callback)"
	}
	return ""
}

// asciiURI reports whether s holds only the visible ASCII characters a URI
// is written with.
func asciiURI(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b <= 0x20 || b >= 0x7f || b == '"' || b == '<' || b == '>' || b == '\\' || b == '^' || b == '`' || b == '{' || b == '|' || b == '}' {
			return false
		}
	}
	return true
}

// loopback reports whether host is localhost or a loopback address.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func checkMappings(ms []ClaimMapping, c *apperr.Collector) {
	if len(ms) > maxMappings {
		c.Add("claimMappings", "must have at most %d mappings", maxMappings)
		return
	}
	seen := map[string]bool{}
	for i := range ms {
		m := &ms[i]
		at := fmt.Sprintf("claimMappings[%d]", i)
		m.Claim, m.Kind, m.From = strings.TrimSpace(m.Claim), strings.TrimSpace(m.Kind), strings.TrimSpace(m.From)
		switch {
		case !claimName(m.Claim):
			c.Add(at+".claim", "must be 1 to %d letters, digits, and _ . : -", maxClaimName)
		case reservedClaims[m.Claim]:
			c.Add(at+".claim", "%s is a claim the provider sets itself", m.Claim)
		case seen[m.Claim]:
			c.Add(at+".claim", "is mapped twice")
		}
		seen[m.Claim] = true
		if len(m.Default) > maxClaimText || !printable(m.Default) {
			c.Add(at+".default", "must be at most %d printable characters", maxClaimText)
		}
		switch m.Kind {
		case KindGroups:
			m.From = ""
			if len(m.Values) == 0 || len(m.Values) > maxMappingValues {
				c.Add(at+".values", "must map 1 to %d groups", maxMappingValues)
			}
			for j := range m.Values {
				if j >= maxMappingValues {
					break
				}
				v := &m.Values[j]
				v.Group = strings.TrimSpace(v.Group)
				if v.Group == "" || len(v.Group) > maxClaimText || !printable(v.Group) {
					c.Add(fmt.Sprintf("%s.values[%d].group", at, j), "must be a group's name")
				}
				if v.Value == "" || len(v.Value) > maxClaimText || !printable(v.Value) {
					c.Add(fmt.Sprintf("%s.values[%d].value", at, j), "must be 1 to %d printable characters", maxClaimText)
				}
			}
		case KindStatic:
			m.From, m.Values = "", nil
			if m.Default == "" {
				c.Add(at+".default", "must be set: a static claim's value")
			}
		case KindRename:
			m.Values, m.Default = nil, ""
			if !slices.Contains(renameFrom, m.From) {
				c.Add(at+".from", "must be one of %s", strings.Join(renameFrom, ", "))
			}
		default:
			c.Add(at+".kind", "must be groups, static or rename")
		}
	}
}

// presetID reports a preset id's shape: lower-case letters, digits and -.
func presetID(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

func claimName(s string) bool {
	if s == "" || len(s) > maxClaimName {
		return false
	}
	for _, r := range s {
		ok := r == '_' || r == '.' || r == ':' || r == '-' ||
			'0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
		if !ok {
			return false
		}
	}
	return true
}

func ttl(v, def, lo, hi int, field, between string, c *apperr.Collector) int {
	if v == 0 {
		return def
	}
	if v < lo || v > hi {
		c.Add(field, "must be between %s (in seconds: %d to %d)", between, lo, hi)
	}
	return v
}
