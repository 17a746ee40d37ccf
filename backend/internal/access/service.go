package access

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ServiceInfo is what the tester and the GET answer need to know about a
// service from forward-auth: its hostnames and enabled protections.
type ServiceInfo interface {
	// AccessInfo answers ok=false for an unknown service.
	AccessInfo(ctx context.Context, serviceID string) (info Info, ok bool, err error)
}

// Info describes one service.
type Info struct {
	Hosts       []string // lower-case
	Protections []string // basicAuth, sso, sharedLinks, tokens
}

// People is the directory, for identity conditions: which names exist,
// and a person's identity for the tester.
type People interface {
	// DirectoryNames returns every username and group name.
	DirectoryNames(ctx context.Context) (people, groups []string, err error)
	// IdentityByUsername answers ok=false for an unknown username.
	IdentityByUsername(ctx context.Context, username string) (id rules.Identity, ok bool, err error)
}

// Service stores and tests access rules.
type Service struct {
	db   *gorm.DB
	bus  *change.Bus
	now  func() time.Time
	info ServiceInfo
	geo  rules.Geo // nil without a country database
	dir  People    // nil: identity conditions are checked for shape only
	// writable is Deps.Writable, asked by the API's writes only.
	writable func(ctx context.Context, serviceID string) error
}

// Deps are the Service's collaborators.
type Deps struct {
	DB   *gorm.DB
	Bus  *change.Bus
	Now  func() time.Time
	Info ServiceInfo
	Geo  rules.Geo // nil without a country database
	// People checks the names in identity conditions and gives the tester
	// a person's groups.
	People People
	// Writable refuses, with the reason, a service whose rules may not be
	// changed through the API (one managed by container labels). Nil:
	// every service is writable.
	Writable func(ctx context.Context, serviceID string) error
}

// NewService returns the access-rule service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = store.Now
	}
	if d.Writable == nil {
		d.Writable = func(context.Context, string) error { return nil }
	}
	return &Service{db: d.DB, bus: d.Bus, now: d.Now, info: d.Info, geo: d.Geo, dir: d.People, writable: d.Writable}
}

func (s *Service) options() rules.Options { return rules.Options{GeoIP: s.geo != nil} }

// optionsFor are the options to normalize list with: the directory is
// read only when a rule has identity conditions.
func (s *Service) optionsFor(ctx context.Context, list []rules.Rule) (rules.Options, error) {
	o := s.options()
	if s.dir == nil || !slices.ContainsFunc(list, func(r rules.Rule) bool { return r.HasIdentity() }) {
		return o, nil
	}
	people, groups, err := s.dir.DirectoryNames(ctx)
	if err != nil {
		return o, fmt.Errorf("read the directory for identity conditions: %w", err)
	}
	o.Directory = NewDirectory(people, groups)
	return o, nil
}

// warnUnknownNames warns about people and groups that rules name but the
// directory no longer has (renamed or deleted since the rules were saved):
// such a condition matches nobody.
func (s *Service) warnUnknownNames(ctx context.Context, out *ServiceAccess) error {
	o, err := s.optionsFor(ctx, out.Rules)
	if err != nil || o.Directory == nil {
		return err
	}
	for i, r := range out.Rules {
		for _, p := range r.People {
			if !o.Directory.HasPerson(p) {
				out.Warnings = append(out.Warnings, fmt.Sprintf("rule %d names the person %q, who is not in the directory: it matches nobody", i+1, p))
			}
		}
		for _, g := range r.Groups {
			if !o.Directory.HasGroup(g) {
				out.Warnings = append(out.Warnings, fmt.Sprintf("rule %d names the group %q, which is not in the directory: it matches nobody", i+1, g))
			}
		}
	}
	return nil
}

// NewDirectory is a rules.Directory over lists of names.
func NewDirectory(people, groups []string) rules.Directory {
	d := nameDirectory{people: map[string]bool{}, groups: map[string]bool{}}
	for _, p := range people {
		d.people[strings.ToLower(p)] = true
	}
	for _, g := range groups {
		d.groups[strings.ToLower(g)] = true
	}
	return d
}

type nameDirectory struct{ people, groups map[string]bool }

func (d nameDirectory) HasPerson(n string) bool { return d.people[strings.ToLower(n)] }
func (d nameDirectory) HasGroup(n string) bool  { return d.groups[strings.ToLower(n)] }

// Get returns a service's rules.
func (s *Service) Get(ctx context.Context, serviceID string) (ServiceAccess, error) {
	info, ok, err := s.info.AccessInfo(ctx, serviceID)
	if err != nil {
		return ServiceAccess{}, err
	}
	if !ok {
		return ServiceAccess{}, apperr.NotFound("service")
	}
	var row store.ServiceAccess
	err = s.db.WithContext(ctx).Where("service_id = ?", serviceID).Take(&row).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return ServiceAccess{}, fmt.Errorf("read access rules of %s: %w", serviceID, err)
	}
	out := ServiceAccess{ServiceID: serviceID, DefaultAction: rules.Action(row.DefaultAction),
		Rules: row.Rules.V, Protections: info.Protections, GeoIP: s.geo != nil}
	if row.ServiceID != "" {
		out.UpdatedAt = &row.UpdatedAt
	}
	g, err := s.GetGlobal(ctx)
	if err != nil {
		return ServiceAccess{}, err
	}
	s.describe(&out)
	if err := s.warnUnknownNames(ctx, &out); err != nil {
		return ServiceAccess{}, err
	}
	out.Exposure = rules.ExposureOf(g.Rules, out.Rules, out.EffectiveDefault)
	return out, nil
}

// describe fills the derived fields of an answer.
func (s *Service) describe(out *ServiceAccess) {
	if out.Rules == nil {
		out.Rules = []rules.Rule{}
	}
	if out.Protections == nil {
		out.Protections = []string{}
	}
	out.EffectiveDefault = rules.EffectiveDefault(out.DefaultAction, len(out.Protections) > 0)
	out.Warnings = warnings(out.Rules, out.EffectiveDefault, out.Protections)
}

// warnings point out rule lists that cannot do what they seem to.
func warnings(list []rules.Rule, def rules.Action, protections []string) []string {
	w := []string{}
	if len(protections) > 0 {
		return w
	}
	uses := def == rules.Authenticate
	for _, r := range list {
		uses = uses || r.Action == rules.Authenticate
	}
	if uses {
		w = append(w, "authenticate cannot succeed: the service has no protection (basic auth, single sign-on, shared links or machine tokens), so it answers 401")
	}
	return w
}

func normalizeDefault(a *rules.Action, field string, c *apperr.Collector) {
	if *a == "" {
		return
	}
	if !rules.ValidAction(*a) {
		c.Add(field, "must be empty (automatic) or one of: allow, deny, authenticate")
	}
}

// Put replaces a service's rules and default action.
func (s *Service) Put(ctx context.Context, serviceID string, in PutServiceAccess) (ServiceAccess, error) {
	var c apperr.Collector
	normalizeDefault(&in.DefaultAction, "defaultAction", &c)
	o, err := s.optionsFor(ctx, in.Rules)
	if err != nil {
		return ServiceAccess{}, err
	}
	rules.Normalize(in.Rules, "rules", o, &c)
	if err := c.Err(); err != nil {
		return ServiceAccess{}, err
	}
	info, ok, err := s.info.AccessInfo(ctx, serviceID)
	if err != nil {
		return ServiceAccess{}, err
	}
	if !ok {
		return ServiceAccess{}, apperr.NotFound("service")
	}
	g, err := s.GetGlobal(ctx)
	if err != nil {
		return ServiceAccess{}, err
	}
	def := rules.EffectiveDefault(in.DefaultAction, len(info.Protections) > 0)
	if err := confirmPublic(in.ConfirmPublic, rules.ExposureOf(g.Rules, in.Rules, def), len(info.Protections) > 0,
		"the service although it is protected by "+strings.Join(info.Protections, ", ")); err != nil {
		return ServiceAccess{}, err
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var kinds []string
		if err := tx.Model(&store.Service{}).Where("id = ?", serviceID).Pluck("kind", &kinds).Error; err != nil {
			return err
		}
		if len(kinds) == 0 {
			return apperr.NotFound("service")
		}
		if err := refuseStream(kinds[0], in); err != nil {
			return err
		}
		if len(in.Rules) == 0 && in.DefaultAction == "" {
			return tx.Where("service_id = ?", serviceID).Delete(&store.ServiceAccess{}).Error
		}
		row := store.ServiceAccess{ServiceID: serviceID, DefaultAction: string(in.DefaultAction),
			Rules: store.NewJSON(in.Rules), UpdatedAt: s.now()}
		return tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&row).Error
	})
	if err != nil {
		if _, ok := apperr.As(err); ok {
			return ServiceAccess{}, err
		}
		return ServiceAccess{}, fmt.Errorf("save access rules of %s: %w", serviceID, err)
	}
	s.bus.Publish(change.Event{Entity: change.Access, Kind: change.Updated, ID: serviceID})
	return s.Get(ctx, serviceID)
}

// refuseStream refuses own rules that restrict a tcp or udp service: the
// forward-auth check that applies them answers HTTP requests, so the
// configuration builder would leave the service out of Traefik's
// configuration (fail closed) and it would silently stop being routed.
// Rules that let everyone in (or none at all) are kept as before.
func refuseStream(kind string, in PutServiceAccess) error {
	if !services.IsStream(kind) || rules.Trivial(nil, in.Rules, rules.EffectiveDefault(in.DefaultAction, false)) {
		return nil
	}
	field := "defaultAction"
	for i, r := range in.Rules {
		if r.Action != rules.Allow {
			field = fmt.Sprintf("rules[%d].action", i)
			break
		}
	}
	return apperr.Field(field, "%s", services.StreamRefusal(kind))
}

// GetGlobal returns the global rules.
func (s *Service) GetGlobal(ctx context.Context) (GlobalRules, error) {
	var list []rules.Rule
	if _, err := store.GetConfig(ctx, s.db, store.KeyAccessRules, &list); err != nil {
		return GlobalRules{}, fmt.Errorf("read global access rules: %w", err)
	}
	if list == nil {
		list = []rules.Rule{}
	}
	return GlobalRules{Rules: list, GeoIP: s.geo != nil}, nil
}

// PutGlobal replaces the global rules.
func (s *Service) PutGlobal(ctx context.Context, in GlobalRules) (GlobalRules, error) {
	var c apperr.Collector
	o, err := s.optionsFor(ctx, in.Rules)
	if err != nil {
		return GlobalRules{}, err
	}
	rules.Normalize(in.Rules, "rules", o, &c)
	if err := c.Err(); err != nil {
		return GlobalRules{}, err
	}
	// Global rules come first for every service: one that allows every
	// request opens all of them, protected or not.
	if err := confirmPublic(in.ConfirmPublic, rules.ExposureOf(in.Rules, nil, rules.Authenticate),
		true, "every service, whatever its protections"); err != nil {
		return GlobalRules{}, err
	}
	if in.Rules == nil {
		in.Rules = []rules.Rule{}
	}
	if err := store.PutConfig(ctx, s.db, store.KeyAccessRules, in.Rules); err != nil {
		return GlobalRules{}, fmt.Errorf("save global access rules: %w", err)
	}
	s.bus.Publish(change.Event{Entity: change.Access, Kind: change.Updated})
	return s.GetGlobal(ctx)
}

// Snapshot reads every rule list at once, for forward-auth's policy.
func (s *Service) Snapshot(ctx context.Context) (Snapshot, error) { return s.snapshot(ctx, nil) }

// snapshot reads the global rules and those of the services in ids, or of
// every service when ids is nil.
func (s *Service) snapshot(ctx context.Context, ids []string) (Snapshot, error) {
	g, err := s.GetGlobal(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	var rows []store.ServiceAccess
	q := s.db.WithContext(ctx)
	if ids != nil {
		q = q.Where("service_id IN ?", ids)
	}
	if err := q.Find(&rows).Error; err != nil {
		return Snapshot{}, fmt.Errorf("read access rules: %w", err)
	}
	snap := Snapshot{Global: g.Rules, Services: make(map[string]ServiceRules, len(rows))}
	for _, r := range rows {
		snap.Services[r.ServiceID] = ServiceRules{Default: rules.Action(r.DefaultAction), Rules: r.Rules.V}
	}
	return snap, nil
}

// Presets lists the built-in presets.
func (s *Service) Presets() Presets { return Presets{Items: rules.Presets()} }

// Guard answers which services need forward-auth, given which have an
// enabled protection: those, and those whose rules can refuse a request.
// Global rules apply to every service, so one that can refuse guards them
// all. A service whose rules only ever allow needs no forward-auth at all.
// With ids, only those services' rules are read, and only their answers
// hold.
func (s *Service) Guard(ctx context.Context, protected func(serviceID string) bool, ids ...string) (func(serviceID string) bool, error) {
	if len(ids) == 0 {
		ids = nil
	}
	snap, err := s.snapshot(ctx, ids)
	if err != nil {
		return nil, err
	}
	globalRestricts := !rules.Trivial(snap.Global, nil, rules.Allow)
	return func(id string) bool {
		p := protected(id)
		if p || globalRestricts {
			return true
		}
		own, ok := snap.Services[id]
		return ok && !rules.Trivial(nil, own.Rules, rules.EffectiveDefault(own.Default, p))
	}, nil
}
