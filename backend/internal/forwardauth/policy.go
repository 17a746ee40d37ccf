package forwardauth

import (
	"context"
	"fmt"
	"net/textproto"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// policy is an immutable snapshot of everything verify needs to decide,
// rebuilt from the database after any change. Verify never queries for it.
type policy struct {
	services map[string]*servicePolicy
	panelURL string
	// portalURL is the sign-in portal's base URL; "" when none is set.
	portalURL string
	// people is the directory by person id, loaded when a service has a
	// people protection (nil otherwise).
	people map[string]*personEntry
	tokens map[string]*machinetokens.Policy // by hash; revoked ones left out
}

// servicePolicy is one service's protections.
type servicePolicy struct {
	id, name  string
	expiresAt time.Time // zero: never
	hosts     []string  // lower-case FQDNs, in declared order
	// entrypoints the service is routed on (none: the global defaults),
	// which say the scheme browsers use (Schemes). Services listing the
	// same entrypoints share one slice.
	entrypoints []string
	// rules decide before any protection; nil when the service has no
	// rule, no global rule applies and no default action was set: then a
	// protected service authenticates and an unprotected one allows.
	rules     *rules.Set
	enabled   bool
	protected bool
	links     bool
	tokens    bool // machine tokens are accepted
	// traffic counts the service's decisions: kept by the recorder across
	// rebuilds, so a new snapshot goes on counting where the last one was.
	traffic *traffic.Counters
	// The protections with settings of their own and the launcher entry,
	// which most services lack: those share noExtras, so that a policy of
	// 10,000 services does not hold them 10,000 times over. Never written
	// through before withExtras.
	*policyExtras
}

// policyExtras is the part of a servicePolicy most services leave empty.
type policyExtras struct {
	basic     *basicPolicy
	sso       *ssoPolicy
	emailCode *emailCodePolicy
	people    *peoplePolicy
	tokenHdr  string   // canonical name of the service's own token header, if any
	challenge []string // WWW-Authenticate value when basic auth is accepted
	// launcher is how the service shows on the portal's launcher.
	launcher store.Launcher
}

// noExtras is the policyExtras of every service that has none: read only.
var noExtras = &policyExtras{}

// withExtras gives sp extras of its own, to be written.
func (p *servicePolicy) withExtras() *policyExtras {
	if p.policyExtras == noExtras {
		p.policyExtras = &policyExtras{}
	}
	return p.policyExtras
}

// protections names the enabled protections, as the API shows them.
func (p *servicePolicy) protections() []string {
	out := []string{}
	for _, x := range [...]struct {
		on   bool
		name string
	}{{p.basic != nil, "basicAuth"}, {p.sso != nil, "sso"}, {p.links, "sharedLinks"}, {p.tokens, "tokens"}, {p.emailCode != nil, "emailCode"}, {p.people != nil, "people"}} {
		if x.on {
			out = append(out, x.name)
		}
	}
	return out
}

type basicPolicy struct {
	setID string // "" when the set was deleted: deny everyone
	users map[string][]byte
}

// ssoPolicy is who may use a service with single sign-on. Each entry of
// the users list is compared with one kind of claim (see ssoEntry).
type ssoPolicy struct {
	issuer   string          // the provider sub: entries were saved for; "" before that was recorded
	subjects map[string]bool // sub: entries, as written (subjects are case-sensitive)
	emails   map[string]bool // entries with an @, lower-case: the verified email claim
	names    map[string]bool // other entries, lower-case: preferred_username, or the subject
	groups   map[string]bool
}

// SubjectPrefix marks an allow-list entry that names the provider's stable
// subject (the ID token's sub claim).
const SubjectPrefix = "sub:"

// add files one users entry under the claim it is compared with.
func (p *ssoPolicy) add(entry string) {
	switch {
	case strings.HasPrefix(entry, SubjectPrefix):
		if sub := strings.TrimPrefix(entry, SubjectPrefix); sub != "" {
			p.subjects[sub] = true
		}
	case strings.Contains(entry, "@"):
		p.emails[strings.ToLower(entry)] = true
	default:
		p.names[strings.ToLower(entry)] = true
	}
}

// allows reports whether an identity may use the service. Empty lists admit
// any signed-in user. An e-mail entry matches only an address the provider
// has verified; a sub: entry only the subject from the provider it was
// saved for.
func (p *ssoPolicy) allows(id identity) bool {
	if len(p.subjects) == 0 && len(p.emails) == 0 && len(p.names) == 0 && len(p.groups) == 0 {
		return true
	}
	if id.subject != "" && p.subjects[id.subject] && (p.issuer == "" || p.issuer == id.issuer) {
		return true
	}
	if e := id.verifiedEmail(); e != "" && p.emails[strings.ToLower(e)] {
		return true
	}
	for _, n := range [...]string{id.preferred, id.subject} {
		if n != "" && p.names[strings.ToLower(n)] {
			return true
		}
	}
	for _, g := range id.groups {
		if p.groups[g] {
			return true
		}
	}
	return false
}

// hasHost reports whether host (possibly with a port) is one of the service's names.
func (p *servicePolicy) hasHost(host string) bool {
	host = strings.ToLower(validate.StripPort(host))
	for _, h := range p.hosts {
		if h == host {
			return true
		}
	}
	return false
}

// live reports whether the service currently serves traffic.
func (p *servicePolicy) live(now time.Time) bool {
	return p.enabled && (p.expiresAt.IsZero() || now.Before(p.expiresAt))
}

// policyCache holds the current snapshot. A generation counter makes sure a
// snapshot built from data read before an invalidation is never installed.
type policyCache struct {
	load func(ctx context.Context) (*policy, error)
	cur  atomic.Pointer[policy]
	gen  atomic.Uint64
	// turn serialises rebuilds. A channel rather than a mutex: while the
	// database does not answer, a request waiting for another's rebuild
	// gives up at its own deadline instead of queueing behind every
	// rebuild before it.
	turn chan struct{}
}

func newPolicyCache(load func(ctx context.Context) (*policy, error)) *policyCache {
	return &policyCache{load: load, turn: make(chan struct{}, 1)}
}

func (c *policyCache) invalidate() {
	c.gen.Add(1)
	c.cur.Store(nil)
}

func (c *policyCache) get(ctx context.Context) (*policy, error) {
	if p := c.cur.Load(); p != nil {
		return p, nil
	}
	ctx, cancel := context.WithTimeout(ctx, dbTimeout)
	defer cancel()
	select {
	case c.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("load forward-auth policy: %w", ctx.Err())
	}
	defer func() { <-c.turn }()
	if p := c.cur.Load(); p != nil {
		return p, nil
	}
	gen := c.gen.Load()
	p, err := c.load(ctx)
	if err != nil {
		return nil, err
	}
	if c.gen.Load() == gen {
		c.cur.Store(p)
	}
	return p, nil
}

// entrypointLists hands out one slice per distinct entrypoint list: a
// policy's services mostly list the same few.
type entrypointLists map[string][]string

func (l *entrypointLists) of(eps []string) []string {
	if *l == nil {
		*l = entrypointLists{}
	}
	k := strings.Join(eps, "\x00")
	if v, ok := (*l)[k]; ok && len(v) == len(eps) {
		return v
	}
	(*l)[k] = eps
	return eps
}

// loadPolicy reads every service, its enabled protections and the users of
// the credential sets they use.
func (s *Service) loadPolicy(ctx context.Context) (*policy, error) {
	db := s.db.WithContext(ctx)
	var rows []store.Service
	// Only what a servicePolicy keeps, and what services.FQDNs resolves
	// host names from: targets, rules, headers and the rest would be
	// decoded for every service only to be dropped.
	if err := db.Select("id", "name", "enabled", "expires_at", "entrypoints", "hostnames", "domain_id", "launcher").
		Preload("Domain").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load services for forward-auth: %w", err)
	}
	var cfgs []store.SecurityConfig
	if err := db.Where("enabled = ?", true).Find(&cfgs).Error; err != nil {
		return nil, fmt.Errorf("load security configs: %w", err)
	}
	var users []store.CredentialUser
	if err := db.Find(&users).Error; err != nil {
		return nil, fmt.Errorf("load credential users: %w", err)
	}
	panel, err := s.panelURL(ctx)
	if err != nil {
		return nil, fmt.Errorf("panel public URL: %w", err)
	}
	var portal string
	if s.portalURL != nil {
		if portal, err = s.portalURL(ctx); err != nil {
			return nil, fmt.Errorf("portal public URL: %w", err)
		}
	}
	var people map[string]*personEntry
	var groupName map[string]string
	if slices.ContainsFunc(cfgs, func(c store.SecurityConfig) bool { return c.Type == store.SecurityPeople }) {
		if people, groupName, err = loadDirectory(db); err != nil {
			return nil, err
		}
	}
	bySet := map[string]map[string][]byte{}
	for _, u := range users {
		if bySet[u.SetID] == nil {
			bySet[u.SetID] = map[string][]byte{}
		}
		bySet[u.SetID][u.Username] = []byte(u.PasswordHash)
	}
	p := &policy{services: make(map[string]*servicePolicy, len(rows)), panelURL: strings.TrimRight(panel, "/"),
		portalURL: strings.TrimRight(portal, "/"), people: people}
	var eps entrypointLists
	for _, r := range rows {
		sp := &servicePolicy{id: r.ID, name: r.Name, enabled: r.Enabled, entrypoints: eps.of(r.Entrypoints.V),
			policyExtras: noExtras, traffic: s.traffic.For(r.ID)}
		if r.Launcher.V != (store.Launcher{}) {
			sp.withExtras().launcher = r.Launcher.V
		}
		if r.ExpiresAt != nil {
			sp.expiresAt = *r.ExpiresAt
		}
		for _, h := range services.FQDNs(r) {
			sp.hosts = append(sp.hosts, strings.ToLower(h))
		}
		p.services[r.ID] = sp
	}
	for _, c := range cfgs {
		sp := p.services[c.ServiceID]
		if sp == nil {
			continue
		}
		sp.protected = true
		switch c.Type {
		case store.SecurityBasicAuth:
			bp := &basicPolicy{users: map[string][]byte{}}
			if c.CredentialSetID != nil {
				bp.setID = *c.CredentialSetID
				if m := bySet[bp.setID]; m != nil {
					bp.users = m
				}
			}
			sp.withExtras().basic = bp
			sp.withExtras().challenge = []string{`Basic realm="` + realm(sp.name) + `", charset="UTF-8"`}
		case store.SecuritySSO:
			st := decodeSSOSettings(c.Settings.V)
			sp.withExtras().sso = &ssoPolicy{issuer: st.Issuer, subjects: map[string]bool{}, emails: map[string]bool{},
				names: map[string]bool{}, groups: map[string]bool{}}
			for _, u := range st.Users {
				sp.sso.add(u)
			}
			for _, g := range st.Groups {
				sp.sso.groups[g] = true
			}
		case store.SecurityPeople:
			sp.withExtras().people = newPeoplePolicy(decodePeopleSettings(c.Settings.V), people, groupName)
		case store.SecuritySharedLinks:
			sp.links = true
		case store.SecurityEmailCode:
			st := decodeEmailCodeSettings(c.Settings.V)
			sp.withExtras().emailCode = &emailCodePolicy{allow: newEmailAllow(st.Allowed), sessionSeconds: st.SessionSeconds}
		case store.SecurityTokens:
			sp.tokens = true
			if h := decodeTokenHeader(c.Settings.V); h != "" {
				sp.withExtras().tokenHdr = textproto.CanonicalMIMEHeaderKey(h)
			}
			if sp.challenge == nil {
				// Many WebDAV and CalDAV clients send credentials only after a
				// Basic challenge; the token goes in as the password.
				sp.withExtras().challenge = []string{`Basic realm="` + realm(sp.name) + `", charset="UTF-8"`}
			}
		}
	}
	if err := s.loadRules(ctx, p); err != nil {
		return nil, err
	}
	if s.tokens != nil {
		if p.tokens, err = s.tokens.Snapshot(ctx); err != nil {
			return nil, fmt.Errorf("load machine tokens: %w", err)
		}
	}
	return p, nil
}

// loadRules compiles every service's rule set. The global rules are
// compiled once and shared.
func (s *Service) loadRules(ctx context.Context, p *policy) error {
	if s.rules == nil {
		return nil
	}
	snap, err := s.rules.Snapshot(ctx)
	if err != nil {
		return fmt.Errorf("load access rules: %w", err)
	}
	global, err := rules.CompileList(snap.Global)
	if err != nil {
		return fmt.Errorf("compile global access rules: %w", err)
	}
	for id, sp := range p.services {
		own := snap.Services[id]
		if global.Len() == 0 && len(own.Rules) == 0 && own.Default == "" {
			continue
		}
		list, err := rules.CompileList(own.Rules)
		if err != nil {
			return fmt.Errorf("compile access rules of %s: %w", id, err)
		}
		sp.rules = rules.NewSet(global, list, rules.EffectiveDefault(own.Default, sp.protected), s.geo)
	}
	return nil
}

// realm makes a service name safe inside a quoted header parameter.
func realm(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			continue
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "Gatehouse"
	}
	return b.String()
}
