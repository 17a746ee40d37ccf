package services

import (
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// Rule types.
const (
	RulePathPrefix = "pathPrefix"
	RulePath       = "path"
	RuleHeader     = "header"
	RuleQuery      = "query"
	RuleMethod     = "method"
	RuleClientIP   = "clientIP"
)

var methods = map[string]bool{
	"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true,
	"DELETE": true, "OPTIONS": true, "CONNECT": true, "TRACE": true,
}

const maxLifetime = 10 * 365 * 24 * 3600

// normalize trims and lower-cases what is case-insensitive, then checks every
// field, collecting all errors so the client can fix them in one go. Values
// that end up inside Traefik rules are restricted to characters that cannot
// leave a backtick-quoted string.
func (r *Request) normalize() error {
	var c apperr.Collector
	r.Name = strings.TrimSpace(r.Name)
	if n := len([]rune(r.Name)); n < 1 || n > 100 {
		c.Add("name", "must be between 1 and 100 characters")
	}
	if r.DomainID != nil && *r.DomainID == "" {
		r.DomainID = nil
	}

	r.Kind = strings.ToLower(strings.TrimSpace(r.Kind))
	stream := IsStream(r.Kind)
	if len(r.Hostnames) == 0 && !stream {
		c.Add("hostnames", "must have at least one hostname")
	}
	if len(r.Hostnames) > 50 {
		c.Add("hostnames", "must have at most 50 items")
	}
	for i := range r.Hostnames {
		h := &r.Hostnames[i]
		f := fmt.Sprintf("hostnames[%d]", i)
		h.Value = validate.NormalizeHostname(h.Value)
		switch h.Type {
		case store.HostSubdomain:
			if err := validate.RelativeHostname(h.Value); err != nil {
				c.Add(f+".value", "%v", err)
			}
			if r.DomainID == nil {
				c.Add("domainId", "is required for subdomain hostnames")
			}
		case store.HostApex:
			h.Value = ""
			if r.DomainID == nil {
				c.Add("domainId", "is required for the apex hostname")
			}
		case store.HostCustom:
			if err := validate.Hostname(h.Value, false); err != nil {
				c.Add(f+".value", "%v", err)
			}
		default:
			c.Add(f+".type", "must be one of: subdomain, apex, custom")
		}
	}

	switch r.Kind {
	case "", store.KindProxy:
		r.Kind = store.KindProxy
		if len(r.Targets) == 0 {
			c.Add("targets", "must have at least one target")
		}
	case store.KindRedirect:
		// Targets are optional and kept for when the service proxies again.
		if r.Redirect == nil {
			c.Add("redirect.url", "is required for a redirect service")
		}
	case store.KindTCP, store.KindUDP:
		if len(r.Targets) == 0 {
			c.Add("targets", "must have at least one target")
		}
		r.checkStream(&c)
	default:
		c.Add("kind", "must be one of: proxy, redirect, tcp, udp")
	}
	if r.TCP == nil || r.Kind != store.KindTCP {
		r.TCP = &store.TCP{}
	}
	if r.Redirect != nil {
		r.Redirect.URL = strings.TrimSpace(r.Redirect.URL)
		if r.Kind == store.KindRedirect || r.Redirect.URL != "" {
			if err := validate.RedirectURL(r.Redirect.URL, r.Redirect.KeepPath); err != nil {
				c.Add("redirect.url", "%v", err)
			}
		}
	} else {
		r.Redirect = &store.Redirect{}
	}
	if len(r.Targets) > 32 {
		c.Add("targets", "must have at most 32 items")
	}
	for i := range r.Targets {
		t := &r.Targets[i]
		f := fmt.Sprintf("targets[%d]", i)
		t.Scheme = strings.ToLower(strings.TrimSpace(t.Scheme))
		t.Host = strings.Trim(strings.TrimSpace(t.Host), "[]")
		if t.Scheme == "" {
			t.Scheme = "http"
		}
		if stream {
			// A TCP or UDP target is an address: the kind is its scheme.
			t.Scheme = r.Kind
		} else if t.Scheme != "http" && t.Scheme != "https" && t.Scheme != "h2c" {
			c.Add(f+".scheme", "must be one of: http, https, h2c")
		}
		if err := validate.TargetHost(t.Host); err != nil {
			c.Add(f+".host", "%v", err)
		}
		if t.Port < 1 || t.Port > 65535 {
			c.Add(f+".port", "must be between 1 and 65535")
		}
		if t.Weight < 0 || t.Weight > 1000 {
			c.Add(f+".weight", "must be between 0 (the same as 1) and 1000")
		}
	}

	if r.Entrypoints == nil {
		r.Entrypoints = []string{}
	}
	validate.NameList(&c, "entrypoints", r.Entrypoints, validate.Entrypoint, "entrypoint")
	if r.Middlewares == nil {
		r.Middlewares = []string{}
	}
	validate.NameList(&c, "middlewares", r.Middlewares, validate.Middleware, "middleware")

	if len(r.Rules) > 50 {
		c.Add("rules", "must have at most 50 items")
	}
	if r.Rules == nil {
		r.Rules = []store.Rule{}
	}
	for i := range r.Rules {
		checkRule(&c, fmt.Sprintf("rules[%d]", i), &r.Rules[i])
	}

	if len(r.Headers) > 50 {
		c.Add("headers", "must have at most 50 items")
	}
	for name, value := range r.Headers {
		if !validate.HeaderName(name) {
			c.Add("headers."+name, "header name must be letters, digits and !#$%%&'*+-.^_|~")
		}
		if !validate.HeaderValue(value) || len(value) > 4096 {
			c.Add("headers."+name, "header value must be printable text without line breaks (at most 4096 characters)")
		}
	}
	if r.Headers == nil {
		r.Headers = map[string]string{}
	}

	checkLoadBalancer(&c, &r.LoadBalancer)

	r.Maintenance.Message = strings.TrimSpace(r.Maintenance.Message)
	if len([]rune(r.Maintenance.Message)) > 2000 || !isPlainText(r.Maintenance.Message) {
		c.Add("maintenance.message", "must be text of at most 2000 characters (line breaks allowed, no other control characters)")
	}

	checkLauncher(&c, &r.Launcher)

	if r.HTTPS.HSTS != nil {
		validate.HSTS(&c, "https.hsts", validate.Policy(*r.HTTPS.HSTS))
	}

	if r.Expiry != nil {
		switch r.Expiry.Type {
		case store.ExpiryNever:
		case store.ExpiryAt:
			if r.Expiry.At == nil {
				c.Add("expiry.at", "is required when expiry.type is at")
			}
		case store.ExpiryDuration:
			if r.Expiry.Seconds < 60 || r.Expiry.Seconds > maxLifetime {
				c.Add("expiry.seconds", "must be between 60 seconds and 10 years")
			}
		default:
			c.Add("expiry.type", "must be one of: never, at, duration")
		}
	}
	return c.Err()
}

func checkRule(c *apperr.Collector, f string, r *store.Rule) {
	r.Value = strings.TrimSpace(r.Value)
	r.Name = strings.TrimSpace(r.Name)
	switch r.Type {
	case RulePathPrefix, RulePath:
		if !strings.HasPrefix(r.Value, "/") || !isPath(r.Value) {
			c.Add(f+".value", "must be a path starting with / using URL path characters only")
		}
		r.Name = ""
	case RuleHeader, RuleQuery:
		if r.Type == RuleHeader && !validate.HeaderName(r.Name) {
			c.Add(f+".name", "must be a header name (letters, digits and !#$%%&'*+-.^_|~)")
		}
		if r.Type == RuleQuery && (r.Name == "" || !isRuleText(r.Name)) {
			c.Add(f+".name", "must be a query parameter name without quotes, backticks or spaces")
		}
		if !isRuleText(r.Value) {
			c.Add(f+".value", "must be printable text without quotes, backticks or line breaks")
		}
	case RuleMethod:
		r.Value = strings.ToUpper(r.Value)
		if !methods[r.Value] {
			c.Add(f+".value", "must be an HTTP method such as GET or POST")
		}
		r.Name = ""
	case RuleClientIP:
		if _, err := netip.ParsePrefix(r.Value); err != nil {
			if _, err := netip.ParseAddr(r.Value); err != nil {
				c.Add(f+".value", "must be an IP address or a CIDR range")
			}
		}
		r.Name = ""
	default:
		c.Add(f+".type", "must be one of: pathPrefix, path, header, query, method, clientIP")
	}
	if len(r.Value) > 1024 {
		c.Add(f+".value", "must be at most 1024 characters")
	}
}

// ValidRulePath reports whether s may stand as a path in a Traefik rule the
// panel writes. Readers of other tools' configuration use it and
// ValidRuleText to tell what the panel can represent.
func ValidRulePath(s string) bool { return isPath(s) }

// ValidRuleText reports whether s may stand as a rule value other than a path.
func ValidRuleText(s string) bool { return isRuleText(s) }

// isPath accepts RFC 3986 path characters (unreserved, sub-delims except
// quote-like ones, ':', '@', '/', '%').
func isPath(s string) bool {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9':
		case strings.IndexByte("-._~!$&*+,;=:@/%", ch) >= 0:
		default:
			return false
		}
	}
	return true
}

// isRuleText is printable ASCII without quotes, backticks or backslashes.
func isRuleText(s string) bool {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch < 0x20 || ch > 0x7e || ch == '`' || ch == '"' || ch == '\'' || ch == '\\' {
			return false
		}
	}
	return true
}

// isPlainText is valid UTF-8 without control characters other than line
// breaks and tabs.
func isPlainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || r == 0x7f {
			return false
		}
	}
	return true
}

// checkLoadBalancer checks the load-balancer options; everything in them
// reaches Traefik's configuration as a value, never inside a rule.
func checkLoadBalancer(c *apperr.Collector, lb *store.LoadBalancer) {
	if h := lb.HealthCheck; h != nil {
		h.Path = strings.TrimSpace(h.Path)
		if !strings.HasPrefix(h.Path, "/") || !isPath(h.Path) || len(h.Path) > 256 {
			c.Add("loadBalancer.healthCheck.path", "must be a path starting with / using URL path characters only (at most 256)")
		}
		if h.IntervalSeconds < 1 || h.IntervalSeconds > 3600 {
			c.Add("loadBalancer.healthCheck.intervalSeconds", "must be between 1 and 3600 seconds")
		}
		if h.TimeoutSeconds < 1 || h.TimeoutSeconds > 300 || (h.IntervalSeconds >= 1 && h.TimeoutSeconds > h.IntervalSeconds) {
			c.Add("loadBalancer.healthCheck.timeoutSeconds", "must be between 1 and 300 seconds, and at most the interval")
		}
		if h.Status != 0 && (h.Status < 100 || h.Status > 599) {
			c.Add("loadBalancer.healthCheck.status", "must be an HTTP status (100-599), or 0 for any 2xx or 3xx")
		}
	}
	if s := lb.Sticky; s != nil {
		s.CookieName = strings.TrimSpace(s.CookieName)
		if len(s.CookieName) > 64 || strings.IndexFunc(s.CookieName, notCookieNameRune) >= 0 {
			c.Add("loadBalancer.sticky.cookieName", "must be letters, digits, _ and - only (at most 64), or empty for a generated name")
		}
		s.SameSite = strings.ToLower(strings.TrimSpace(s.SameSite))
		switch s.SameSite {
		case "", "lax", "strict":
		case "none":
			if !s.Secure {
				c.Add("loadBalancer.sticky.sameSite", "none needs a secure cookie (browsers refuse it otherwise)")
			}
		default:
			c.Add("loadBalancer.sticky.sameSite", "must be one of: none, lax, strict, or empty")
		}
	}
	t := lb.Timeouts
	for _, v := range []struct {
		f string
		n int
	}{{"dialSeconds", t.DialSeconds}, {"responseHeaderSeconds", t.ResponseHeaderSeconds}, {"idleConnSeconds", t.IdleConnSeconds}} {
		if v.n < 0 || v.n > 3600 {
			c.Add("loadBalancer.timeouts."+v.f, "must be between 0 (Traefik's default) and 3600 seconds")
		}
	}
}

// notCookieNameRune reports a rune a sticky cookie's name may not hold:
// only letters, digits, _ and - are allowed.
func notCookieNameRune(r rune) bool {
	ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
	return !ok
}

// Check normalizes and validates req as Create and Update do, for callers
// that write services another way (the configuration import).
func Check(req *Request) error { return req.normalize() }

// launcherIcon is the name of a built-in icon.
var launcherIcon = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// checkLauncher checks how a service shows on the portal's launcher.
func checkLauncher(c *apperr.Collector, l *store.Launcher) {
	l.Description, l.Icon, l.Group = strings.TrimSpace(l.Description), strings.TrimSpace(l.Icon), strings.TrimSpace(l.Group)
	if len([]rune(l.Description)) > 300 || !isPlainText(l.Description) || strings.ContainsAny(l.Description, "\r\n") {
		c.Add("launcher.description", "must be one line of text of at most 300 characters")
	}
	if len([]rune(l.Group)) > 60 || !isPlainText(l.Group) || strings.ContainsAny(l.Group, "\r\n") {
		c.Add("launcher.group", "must be one line of text of at most 60 characters")
	}
	if l.Order < -10000 || l.Order > 10000 {
		c.Add("launcher.order", "must be between -10000 and 10000")
	}
	if l.Icon != "" && !launcherIcon.MatchString(l.Icon) {
		u, err := url.Parse(l.Icon)
		if len(l.Icon) > 2048 || err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil ||
			strings.ContainsAny(l.Icon, " \"'<>\\") {
			c.Add("launcher.icon", "must be an https URL or the name of a built-in icon (lower-case letters, digits and dashes)")
		}
	}
}
