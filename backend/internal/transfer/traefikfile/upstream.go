package traefikfile

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// Gatehouse's limits on targets (services.Request.normalize).
const (
	maxTargets = 32
	maxWeight  = 1000
)

// upstream is a Traefik load-balancer service as Gatehouse stores it.
type upstream struct {
	targets            []store.Target
	passHostHeader     bool
	insecureSkipVerify bool
	lb                 store.LoadBalancer
	notes              []string // options left out that do not change who can reach what
}

// notesIfAny is nil-safe access to the notes (a redirect has no upstream).
func (u *upstream) notesIfAny() []string {
	if u == nil {
		return nil
	}
	return u.notes
}

// upstreamOf reads http.services.<name>; the error says why Gatehouse cannot
// express it.
func (f *file) upstreamOf(name string) (*upstream, error) {
	v, ok := f.services[name]
	if !ok || v == nil {
		return nil, fmt.Errorf("its service %q is not defined in this file (Traefik reports the router in error)", name)
	}
	at := path("http", "services", name)
	m, err := asObj(v, at)
	if err != nil {
		return nil, err
	}
	for _, kind := range []string{"weighted", "mirroring", "failover"} {
		if _, ok, _ := field(m, kind); ok {
			return nil, fmt.Errorf("its service %q is a %s service; Gatehouse proxies to one load balancer per service", name, kind)
		}
	}
	lbv, ok, err := field(m, "loadBalancer")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	if !ok {
		return nil, fmt.Errorf("its service %q has no loadBalancer", name)
	}
	at = path(at, "loadBalancer")
	lb, err := asObj(lbv, at)
	if err != nil {
		return nil, err
	}
	u := &upstream{passHostHeader: true}
	if err := u.servers(lb, at); err != nil {
		return nil, err
	}
	if v, ok, err := field(lb, "passHostHeader"); err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	} else if ok {
		if u.passHostHeader, err = asBool(v, path(at, "passHostHeader")); err != nil {
			return nil, err
		}
	}
	if err := u.healthCheck(lb, at); err != nil {
		return nil, err
	}
	if err := u.sticky(lb, at); err != nil {
		return nil, err
	}
	if err := f.transport(u, lb, at); err != nil {
		return nil, err
	}
	for _, k := range []string{"strategy", "responseForwarding"} {
		if v, ok, _ := field(lb, k); ok {
			if s, _ := asString(v, ""); k == "strategy" && strings.EqualFold(s, "wrr") {
				continue
			}
			u.notes = append(u.notes, fmt.Sprintf("%s of service %q is not imported (Gatehouse uses Traefik's defaults)", k, name))
		}
	}
	return u, nil
}

// servers reads the servers list: url (scheme://host[:port]) and weight.
func (u *upstream) servers(lb obj, at string) error {
	v, ok, err := field(lb, "servers")
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	l, isList := v.([]any)
	if !ok || !isList || len(l) == 0 {
		return fmt.Errorf("%s.servers: must list at least one server", at)
	}
	if len(l) > maxTargets {
		return fmt.Errorf("%s.servers: Gatehouse takes at most %d targets", at, maxTargets)
	}
	for i, sv := range l {
		sat := fmt.Sprintf("%s.servers[%d]", at, i)
		s, err := asObj(sv, sat)
		if err != nil {
			return err
		}
		uv, ok, err := field(s, "url")
		if err != nil || !ok {
			return fmt.Errorf("%s: needs a url", sat)
		}
		raw, err := asString(uv, sat+".url")
		if err != nil {
			return err
		}
		t, err := targetOf(raw)
		if err != nil {
			return fmt.Errorf("%s.url %q: %w", sat, raw, err)
		}
		if wv, ok, _ := field(s, "weight"); ok {
			w, err := asInt(wv, sat+".weight")
			if err != nil {
				return err
			}
			if w < 1 || w > maxWeight {
				return fmt.Errorf("%s.weight: Gatehouse weights are 1 to %d (Traefik's %d has no equivalent)", sat, maxWeight, w)
			}
			if w > 1 {
				t.Weight = int(w)
			}
		}
		if pv, ok, _ := field(s, "preservePath"); ok {
			if b, _ := asBool(pv, ""); b {
				return fmt.Errorf("%s.preservePath: Gatehouse targets have no path", sat)
			}
		}
		u.targets = append(u.targets, t)
	}
	return nil
}

// targetOf splits a server URL into a Gatehouse target; Traefik's default
// ports are 80 for http and h2c, 443 for https.
func targetOf(raw string) (store.Target, error) {
	p, err := url.Parse(raw)
	if err != nil {
		return store.Target{}, fmt.Errorf("not a URL")
	}
	scheme := strings.ToLower(p.Scheme)
	if scheme != "http" && scheme != "https" && scheme != "h2c" {
		return store.Target{}, fmt.Errorf("the scheme must be http, https or h2c")
	}
	if p.User != nil || p.RawQuery != "" || p.Fragment != "" || (p.Path != "" && p.Path != "/") {
		return store.Target{}, fmt.Errorf("a Gatehouse target is a scheme, host and port only (no path, query or credentials)")
	}
	host := p.Hostname()
	if err := validate.TargetHost(host); err != nil {
		return store.Target{}, fmt.Errorf("host: %w", err)
	}
	port := 80
	if scheme == "https" {
		port = 443
	}
	if ps := p.Port(); ps != "" {
		n, err := strconv.Atoi(ps)
		if err != nil || n < 1 || n > 65535 {
			return store.Target{}, fmt.Errorf("the port must be between 1 and 65535")
		}
		port = n
	}
	return store.Target{Scheme: scheme, Host: host, Port: port}, nil
}

// healthCheck reads path, interval, timeout and status; Traefik's defaults
// are 30s and 5s. Options Gatehouse has no field for are noted.
func (u *upstream) healthCheck(lb obj, at string) error {
	v, ok, err := field(lb, "healthCheck")
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	if !ok {
		return nil
	}
	at = path(at, "healthCheck")
	m, err := asObj(v, at)
	if err != nil {
		return err
	}
	h := &store.HealthCheck{Path: "/", IntervalSeconds: 30, TimeoutSeconds: 5}
	for _, k := range sortedKeys(m) {
		kat := path(at, k)
		switch strings.ToLower(k) {
		case "path":
			if h.Path, err = asString(m[k], kat); err != nil {
				return err
			}
			if !isPath(h.Path) || len(h.Path) > 256 {
				return fmt.Errorf("%s: Gatehouse health-check paths use URL path characters only", kat)
			}
		case "interval", "timeout":
			d, err := asSeconds(m[k], kat)
			if err != nil {
				return err
			}
			s := int((d + time.Second - 1) / time.Second)
			if strings.EqualFold(k, "interval") {
				h.IntervalSeconds = s
			} else {
				h.TimeoutSeconds = s
			}
		case "status":
			n, err := asInt(m[k], kat)
			if err != nil {
				return err
			}
			h.Status = int(n)
		default:
			u.notes = append(u.notes, fmt.Sprintf("%s is not imported (Gatehouse's health check has path, interval, timeout and status)", kat))
		}
	}
	if h.IntervalSeconds < 1 || h.IntervalSeconds > 3600 || h.TimeoutSeconds < 1 || h.TimeoutSeconds > 300 ||
		h.TimeoutSeconds > h.IntervalSeconds || (h.Status != 0 && (h.Status < 100 || h.Status > 599)) {
		return fmt.Errorf("%s: Gatehouse takes an interval of 1s-1h, a timeout of 1s-5m no longer than the interval, and an HTTP status", at)
	}
	u.lb.HealthCheck = h
	return nil
}

// sticky reads sticky.cookie: name, secure, httpOnly and sameSite.
func (u *upstream) sticky(lb obj, at string) error {
	v, ok, err := field(lb, "sticky")
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	if !ok {
		return nil
	}
	at = path(at, "sticky")
	m, err := asObj(v, at)
	if err != nil {
		return err
	}
	cv, ok, err := field(m, "cookie")
	if err != nil || !ok {
		return fmt.Errorf("%s: only sticky cookies are known", at)
	}
	at = path(at, "cookie")
	c, err := asObj(cv, at)
	if err != nil {
		return err
	}
	s := &store.Sticky{}
	for _, k := range sortedKeys(c) {
		kat := path(at, k)
		switch strings.ToLower(k) {
		case "name":
			if s.CookieName, err = asString(c[k], kat); err != nil {
				return err
			}
			if len(s.CookieName) > 64 || strings.IndexFunc(s.CookieName, notCookieNameRune) >= 0 {
				return fmt.Errorf("%s: Gatehouse cookie names are letters, digits, _ and - (at most 64)", kat)
			}
		case "secure":
			if s.Secure, err = asBool(c[k], kat); err != nil {
				return err
			}
		case "httponly":
			if s.HTTPOnly, err = asBool(c[k], kat); err != nil {
				return err
			}
		case "samesite":
			ss, err := asString(c[k], kat)
			if err != nil {
				return err
			}
			s.SameSite = strings.ToLower(ss)
			if s.SameSite != "" && s.SameSite != "lax" && s.SameSite != "strict" && (s.SameSite != "none" || !s.Secure) {
				return fmt.Errorf("%s: Gatehouse takes lax, strict, or none with a secure cookie", kat)
			}
		default:
			u.notes = append(u.notes, fmt.Sprintf("%s is not imported (Gatehouse's sticky cookie has name, secure, httpOnly and sameSite)", kat))
		}
	}
	u.lb.Sticky = s
	return nil
}

// notCookieNameRune reports a rune a sticky cookie's name may not hold.
func notCookieNameRune(r rune) bool {
	ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
	return !ok
}
