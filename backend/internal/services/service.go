// Package services stores proxied services: their hostnames (owned by one
// service only, enforced by the service_hostnames primary key), targets,
// routing rules, middlewares and expiry.
package services

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// DefaultLifetime returns the global default lifetime in seconds (0 = never).
type DefaultLifetime func(ctx context.Context) (int64, error)

// Protections maps service id to the protections enabled on it (one
// service, or all when serviceID is ""), read through db. The access
// feature owns protections: access.ServiceProtections.
type Protections func(ctx context.Context, db *gorm.DB, serviceID string) (map[string]Protection, error)

// Exposures answers, for each service in ids, who can open it without
// signing in ("everyone", "some" or "none"), given its protections. The
// access-rule feature owns the rules: access.Exposures.
type Exposures func(ctx context.Context, db *gorm.DB, ids []string, prot map[string]Protection) (map[string]string, error)

// EndSessions ends the forward-auth sessions of services inside the caller's
// transaction tx, so a disabled service signs everyone out in the same
// commit. The access feature owns sessions: access.EndServiceSessions.
type EndSessions func(tx *gorm.DB, serviceIDs ...string) error

// Deps are the Service's collaborators. The helpers of other features
// are optional.
type Deps struct {
	DB  *gorm.DB
	Bus *change.Bus
	Now func() time.Time
	// DefaultLifetime gives the global default lifetime; nil: never expire.
	DefaultLifetime DefaultLifetime
	// Protections makes List and Get report each service's protections;
	// without it none are reported.
	Protections Protections
	// Exposures makes List and Get report each service's exposure from its
	// access rules; without it a protected service is reported as open to
	// no one and any other as open to everyone.
	Exposures Exposures
	// Restricted makes turning an HTTP service into a tcp or udp one
	// refuse while access rules restrict it (access.Restricts); without
	// it only protections refuse.
	Restricted Restricted
	// EndSessions makes disabling a service end its sessions; without it
	// sessions are left to expire.
	EndSessions EndSessions
	// Notify hears when expiry switches a service off.
	Notify notify.Publisher
	// Entrypoints tells the default entrypoints and, when known, each
	// entrypoint's protocol; without it none are known.
	Entrypoints Entrypoints
	// ReadOnly says why a service may not be changed through the API
	// ("" when it may), read through db: a service declared by a
	// container's labels is written only by the containers feature
	// (containers.Service.ReadOnly). Without it every service is writable.
	ReadOnly ReadOnly
}

// Restricted reports whether access rules restrict service id (it then
// needs the forward-auth check), read through db.
type Restricted func(ctx context.Context, db *gorm.DB, id string) (bool, error)

// ReadOnly answers why service id may not be changed through the API, or
// "" when it may.
type ReadOnly func(ctx context.Context, db *gorm.DB, id string) (string, error)

// Service manages proxied services.
type Service struct {
	db              *gorm.DB
	bus             *change.Bus
	now             func() time.Time
	defaultLifetime DefaultLifetime
	protections     Protections
	exposures       Exposures
	restricted      Restricted
	endSessions     EndSessions
	notify          notify.Publisher
	entrypoints     Entrypoints
	readOnly        ReadOnly
}

// NewService returns the services service.
func NewService(d Deps) *Service {
	s := &Service{db: d.DB, bus: d.Bus, now: d.Now, defaultLifetime: d.DefaultLifetime,
		protections: d.Protections, exposures: d.Exposures, restricted: d.Restricted, endSessions: d.EndSessions, notify: d.Notify,
		entrypoints: d.Entrypoints, readOnly: d.ReadOnly}
	if s.defaultLifetime == nil {
		s.defaultLifetime = func(context.Context) (int64, error) { return 0, nil }
	}
	if s.protections == nil {
		s.protections = func(context.Context, *gorm.DB, string) (map[string]Protection, error) { return nil, nil }
	}
	if s.exposures == nil {
		s.exposures = noRules
	}
	if s.endSessions == nil {
		s.endSessions = func(*gorm.DB, ...string) error { return nil }
	}
	if s.notify == nil {
		s.notify = notify.Discard
	}
	if s.entrypoints == nil {
		s.entrypoints = func(context.Context) (EntrypointInfo, error) { return EntrypointInfo{}, nil }
	}
	if s.readOnly == nil {
		s.readOnly = func(context.Context, *gorm.DB, string) (string, error) { return "", nil }
	}
	return s
}

// List returns every service in creation order.
func (s *Service) List(ctx context.Context) ([]Response, error) {
	var rows []store.Service
	if err := s.db.WithContext(ctx).Preload("Domain").Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list services: %w", err)
	}
	prot, err := s.protectionsOf(ctx, "", rows)
	if err != nil {
		return nil, err
	}
	out := make([]Response, len(rows))
	for i, r := range rows {
		out[i] = toResponse(r, prot[r.ID])
	}
	return out, nil
}

// Get returns one service.
func (s *Service) Get(ctx context.Context, id string) (Response, error) {
	row, err := s.load(s.db.WithContext(ctx), id)
	if err != nil {
		return Response{}, err
	}
	prot, err := s.protectionsOf(ctx, id, []store.Service{row})
	if err != nil {
		return Response{}, err
	}
	return toResponse(row, prot[id]), nil
}

// protectionsOf reads the protections of rows (every service when id is
// "", else the one) and adds each one's exposure.
func (s *Service) protectionsOf(ctx context.Context, id string, rows []store.Service) (map[string]Protection, error) {
	prot, err := s.protections(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if prot == nil {
		prot = map[string]Protection{}
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	exp, err := s.exposures(ctx, s.db, ids, prot)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		p := prot[r.ID]
		p.Exposure = exp[r.ID]
		if r.Kind == store.KindTCP || r.Kind == store.KindUDP {
			// As dynconf decides it: a protection, or rules that do not
			// simply allow every request.
			p.StreamGuarded = p.Any()
			if !p.StreamGuarded && s.restricted != nil {
				if p.StreamGuarded, err = s.restricted(ctx, s.db, r.ID); err != nil {
					return nil, fmt.Errorf("read the access rules of %s: %w", r.ID, err)
				}
			}
		}
		prot[r.ID] = p
	}
	return prot, nil
}

// noRules is the exposure without access rules: a protected service is
// open to no one without signing in, any other to everyone.
func noRules(_ context.Context, _ *gorm.DB, ids []string, prot map[string]Protection) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	for _, id := range ids {
		out[id] = "everyone"
		if prot[id].Any() {
			out[id] = "none"
		}
	}
	return out, nil
}

func (s *Service) load(tx *gorm.DB, id string) (store.Service, error) {
	var row store.Service
	err := tx.Preload("Domain").Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return row, apperr.NotFound("service")
	}
	if err != nil {
		return row, fmt.Errorf("load service %s: %w", id, err)
	}
	return row, nil
}

// Create validates and stores a new service.
func (s *Service) Create(ctx context.Context, req Request) (Response, error) {
	return s.CreateThen(ctx, req, nil)
}

// CreateThen is Create calling then, when not nil, inside the same
// transaction once the service's row exists: a feature that keeps rows
// about the new service (the containers feature's binding) writes them in
// the same commit.
func (s *Service) CreateThen(ctx context.Context, req Request, then func(tx *gorm.DB, id string) error) (Response, error) {
	if err := req.normalize(); err != nil {
		return Response{}, err
	}
	if req.Expiry == nil {
		def, err := s.defaultLifetime(ctx)
		if err != nil {
			return Response{}, err
		}
		req.Expiry = &Expiry{Type: store.ExpiryNever}
		if def > 0 {
			req.Expiry = &Expiry{Type: store.ExpiryDuration, Seconds: def}
		}
	}
	info, err := s.entrypoints(ctx)
	if err != nil {
		return Response{}, err
	}
	now := s.now()
	row := store.Service{ID: store.NewID(), CreatedAt: now}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.apply(tx, &row, req, now, false); err != nil {
			return err
		}
		if err := checkEntrypointConflicts(tx, &row, info); err != nil {
			return err
		}
		if err := tx.Create(&row).Error; err != nil {
			return fmt.Errorf("create service: %w", err)
		}
		if err := s.syncHostnames(tx, row); err != nil {
			return err
		}
		if then != nil {
			return then(tx, row.ID)
		}
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	s.bus.Publish(change.Event{Entity: change.Service, Kind: change.Created, ID: row.ID})
	return s.Get(ctx, row.ID)
}

// Update replaces a service's fields.
func (s *Service) Update(ctx context.Context, id string, req Request) (Response, error) {
	if err := req.normalize(); err != nil {
		return Response{}, err
	}
	return s.update(ctx, id, true, func(store.Service) (Request, error) { return req, nil })
}

// Replace is Update for the feature that owns a read-only service (the
// containers feature, for a service its labels declare): it skips the
// ReadOnly check.
func (s *Service) Replace(ctx context.Context, id string, req Request) (Response, error) {
	if err := req.normalize(); err != nil {
		return Response{}, err
	}
	return s.update(ctx, id, false, func(store.Service) (Request, error) { return req, nil })
}

// SetTargets replaces a service's targets, leaving every other field as
// stored: the containers feature follows a container to its new address.
// It skips the ReadOnly check (its caller owns the binding).
func (s *Service) SetTargets(ctx context.Context, id string, targets []store.Target) (Response, error) {
	return s.update(ctx, id, false, func(row store.Service) (Request, error) {
		req := toRequest(row)
		req.Targets = targets
		return req, req.normalize()
	})
}

// Writable refuses, with the reason, a service that may not be changed
// through the API.
func (s *Service) Writable(ctx context.Context, tx *gorm.DB, id string) error {
	reason, err := s.readOnly(ctx, tx, id)
	if err != nil {
		return err
	}
	if reason != "" {
		return &apperr.Error{Code: apperr.CodeConflict, Message: reason}
	}
	return nil
}

// SetEnabled switches a service on or off, leaving every other field as
// stored. The read and the write share one transaction, so a toggle cannot
// undo an edit made at the same moment.
func (s *Service) SetEnabled(ctx context.Context, id string, enabled bool) (Response, error) {
	return s.update(ctx, id, true, func(row store.Service) (Request, error) {
		req := toRequest(row)
		req.Enabled = &enabled
		return req, req.normalize()
	})
}

// update rewrites one service inside a transaction with the request that
// next derives from the stored row; guarded refuses a read-only service.
func (s *Service) update(ctx context.Context, id string, guarded bool, next func(store.Service) (Request, error)) (Response, error) {
	var disabled bool
	info, err := s.entrypoints(ctx)
	if err != nil {
		return Response{}, err
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := s.load(tx, id)
		if err != nil {
			return err
		}
		if guarded {
			if err := s.Writable(ctx, tx, id); err != nil {
				return err
			}
		}
		req, err := next(row)
		if err != nil {
			return err
		}
		if !IsStream(row.Kind) && IsStream(req.Kind) {
			if err := s.refuseGuardedStream(ctx, tx, id, req.Kind); err != nil {
				return err
			}
		}
		if req.Expiry == nil {
			cur := toResponse(row, Protection{}).Expiry
			req.Expiry = &cur
		}
		wasEnabled := row.Enabled
		if err := s.apply(tx, &row, req, s.now(), true); err != nil {
			return err
		}
		if err := checkEntrypointConflicts(tx, &row, info); err != nil {
			return err
		}
		row.Domain = nil
		if err := tx.Select("*").Omit("created_at").Save(&row).Error; err != nil {
			return fmt.Errorf("update service %s: %w", id, err)
		}
		if wasEnabled && !row.Enabled {
			disabled = true
			if err := s.endSessions(tx, id); err != nil {
				return err
			}
		}
		return s.syncHostnames(tx, row)
	})
	if err != nil {
		return Response{}, err
	}
	s.bus.Publish(change.Event{Entity: change.Service, Kind: change.Updated, ID: id})
	if disabled {
		s.bus.Publish(change.Event{Entity: change.Service, Kind: change.Disabled, ID: id})
	}
	return s.Get(ctx, id)
}

// refuseGuardedStream refuses to turn an HTTP service into a tcp or udp
// one while a protection or an access rule restricts it: forward-auth
// answers HTTP requests, so the configuration builder would leave the
// service out of Traefik's configuration (fail closed) and it would
// silently stop being routed.
func (s *Service) refuseGuardedStream(ctx context.Context, tx *gorm.DB, id, kind string) error {
	prot, err := s.protections(ctx, tx, id)
	if err != nil {
		return fmt.Errorf("read protections of %s: %w", id, err)
	}
	if prot[id].Any() {
		return apperr.Field("kind", "remove the service's protections first (Security tab): %s", StreamRefusal(kind))
	}
	if s.restricted == nil {
		return nil
	}
	restricted, err := s.restricted(ctx, tx, id)
	if err != nil {
		return fmt.Errorf("read access rules of %s: %w", id, err)
	}
	if restricted {
		return apperr.Field("kind", "remove the access rules that restrict the service first (its Access tab, or the global rules): %s", StreamRefusal(kind))
	}
	return nil
}

// Delete removes a service; its hostnames, protections, links and sessions go with it.
func (s *Service) Delete(ctx context.Context, id string) error {
	if err := s.Writable(ctx, s.db.WithContext(ctx), id); err != nil {
		return err
	}
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&store.Service{})
	if res.Error != nil {
		return fmt.Errorf("delete service %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("service")
	}
	s.bus.Publish(change.Event{Entity: change.Service, Kind: change.Deleted, ID: id})
	return nil
}

// apply copies a validated request onto row, resolving its domain and expiry.
func (s *Service) apply(tx *gorm.DB, row *store.Service, req Request, now time.Time, existing bool) error {
	row.Domain = nil
	if req.DomainID != nil {
		var d store.Domain
		err := tx.Where("id = ?", *req.DomainID).Take(&d).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return apperr.Field("domainId", "no domain with this id")
		}
		if err != nil {
			return fmt.Errorf("load domain: %w", err)
		}
		row.Domain = &d
	}
	enabled := true
	if req.Enabled != nil {
		enabled = *req.Enabled
	} else if existing {
		enabled = row.Enabled
	}
	passHost := true
	if req.PassHostHeader != nil {
		passHost = *req.PassHostHeader
	}
	wasEnabled := existing && row.Enabled
	row.Name, row.DomainID = req.Name, req.DomainID
	row.Hostnames = store.NewJSON(req.Hostnames)
	row.Targets = store.NewJSON(req.Targets)
	row.PassHostHeader, row.InsecureSkipVerify = passHost, req.InsecureSkipVerify
	row.Entrypoints = store.NewJSON(req.Entrypoints)
	row.Rules = store.NewJSON(req.Rules)
	row.Middlewares = store.NewJSON(req.Middlewares)
	row.Headers = store.NewJSON(req.Headers)
	row.HTTPSRedirect, row.HSTS = req.HTTPS.Redirect, store.NewJSON(req.HTTPS.HSTS)
	row.Kind, row.Redirect = req.Kind, store.NewJSON(*req.Redirect)
	row.Maintenance, row.MaintenanceMessage = req.Maintenance.Enabled, req.Maintenance.Message
	row.LoadBalancer = store.NewJSON(req.LoadBalancer)
	row.Launcher = store.NewJSON(req.Launcher)
	row.TCP = store.NewJSON(*req.TCP)
	row.UpdatedAt = now
	row.Enabled = enabled
	if enabled && (!wasEnabled || row.EnabledAt == nil) {
		row.EnabledAt = &now
	}
	return setExpiry(row, *req.Expiry, now)
}

func setExpiry(row *store.Service, e Expiry, now time.Time) error {
	row.ExpiryType = e.Type
	row.LifetimeSeconds = nil
	row.ExpiresAt = nil
	switch e.Type {
	case store.ExpiryAt:
		at := e.At.UTC().Truncate(time.Millisecond)
		if row.Enabled && !at.After(now) {
			return apperr.Field("expiry.at", "must be in the future for an enabled service")
		}
		row.ExpiresAt = &at
	case store.ExpiryDuration:
		secs := e.Seconds
		row.LifetimeSeconds = &secs
		if row.EnabledAt != nil {
			at := row.EnabledAt.Add(time.Duration(secs) * time.Second)
			if row.Enabled && !at.After(now) {
				// Re-enabling or shortening past now: count from now instead.
				at = now.Add(time.Duration(secs) * time.Second)
				row.EnabledAt = &now
			}
			row.ExpiresAt = &at
		}
	}
	return nil
}

// syncHostnames rewrites the service's rows in service_hostnames, answering
// 409 naming the other service when a hostname is taken.
func (s *Service) syncHostnames(tx *gorm.DB, row store.Service) error {
	if row.Domain == nil && row.DomainID != nil {
		var d store.Domain
		if err := tx.Where("id = ?", *row.DomainID).Take(&d).Error; err != nil {
			return fmt.Errorf("load domain: %w", err)
		}
		row.Domain = &d
	}
	return SyncHostnames(tx, row)
}

// SyncHostnames rewrites one service's hostname ownership rows inside tx.
// Exported for the domains feature, which renames hosts when a domain changes.
func SyncHostnames(tx *gorm.DB, row store.Service) error {
	names := FQDNs(row)
	seen := map[string]int{}
	for i, n := range names {
		if j, dup := seen[n]; dup {
			return apperr.Field(fmt.Sprintf("hostnames[%d]", i), "%q is the same host as hostnames[%d]", n, j)
		}
		seen[n] = i
	}
	if len(names) > 0 {
		var taken []struct {
			Hostname string
			Name     string
		}
		err := tx.Table("service_hostnames h").Select("h.hostname, s.name").
			Joins("JOIN services s ON s.id = h.service_id").
			Where("h.hostname IN ? AND h.service_id <> ?", names, row.ID).Scan(&taken).Error
		if err != nil {
			return fmt.Errorf("check hostnames: %w", err)
		}
		if len(taken) > 0 {
			return apperr.Conflict(fmt.Sprintf("hostnames[%d]", seen[taken[0].Hostname]),
				"%s is already used by service %q", taken[0].Hostname, taken[0].Name)
		}
	}
	if err := tx.Where("service_id = ?", row.ID).Delete(&store.ServiceHostname{}).Error; err != nil {
		return fmt.Errorf("clear hostnames: %w", err)
	}
	for _, n := range names {
		if err := tx.Create(&store.ServiceHostname{Hostname: n, ServiceID: row.ID}).Error; err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				return apperr.Conflict(fmt.Sprintf("hostnames[%d]", seen[n]), "%s is already used by another service", n)
			}
			return fmt.Errorf("store hostname %q: %w", n, err)
		}
	}
	return nil
}

// ListEnabled returns the enabled services with their domains, in creation
// order (created_at, then id) so derived identifiers are stable.
func (s *Service) ListEnabled(ctx context.Context) ([]store.Service, error) {
	var rows []store.Service
	err := s.db.WithContext(ctx).Preload("Domain").Where("enabled = ?", true).Order("created_at, id").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list enabled services: %w", err)
	}
	return rows, nil
}

// EachEnabled calls fn with every enabled service (with its domain) in
// ListEnabled's order, reading them 500 at a time: a caller that keeps
// only part of each row never holds them all at once, as it would after
// ListEnabled (10,000 rows are about 13 MB decoded). The order is read
// first, then the rows by id: a service written meanwhile is seen as it is
// now or not at all (disabled or deleted), and one enabled meanwhile is
// missed; either way its change event follows. fn may keep the row; an
// error from fn stops the walk and is returned.
func (s *Service) EachEnabled(ctx context.Context, fn func(store.Service) error) error {
	return s.EachEnabledOf(ctx, nil, fn)
}

// EachEnabledOf is EachEnabled reading only the columns cols of each row
// (nil: all), and id and domain_id always: a caller that needs a few
// fields of every service, every few seconds, does not decode the rest
// (rules, headers, load-balancer options and such are JSON).
func (s *Service) EachEnabledOf(ctx context.Context, cols []string, fn func(store.Service) error) error {
	db := s.db.WithContext(ctx)
	rows := db
	if cols != nil {
		// A new session: the chain is used once per chunk.
		rows = db.Select(append([]string{"id", "domain_id"}, cols...)).Session(&gorm.Session{})
	}
	var ids []string
	if err := db.Model(&store.Service{}).Where("enabled = ?", true).Order("created_at, id").Pluck("id", &ids).Error; err != nil {
		return fmt.Errorf("list enabled services: %w", err)
	}
	var doms []store.Domain
	if err := db.Find(&doms).Error; err != nil {
		return fmt.Errorf("list domains: %w", err)
	}
	byID := make(map[string]*store.Domain, len(doms))
	for i := range doms {
		byID[doms[i].ID] = &doms[i]
	}
	for chunk := range slices.Chunk(ids, 500) {
		var part []store.Service
		if err := rows.Where("enabled = ? AND id IN ?", true, chunk).Find(&part).Error; err != nil {
			return fmt.Errorf("list enabled services: %w", err)
		}
		at := make(map[string]int, len(part))
		for i := range part {
			at[part[i].ID] = i
		}
		for _, id := range chunk {
			i, ok := at[id]
			if !ok {
				continue // disabled or deleted since the order was read
			}
			r := part[i]
			if r.DomainID != nil {
				r.Domain = byID[*r.DomainID]
			}
			if err := fn(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// EnabledByID returns the enabled services among ids (with their domain),
// for callers that follow changes one service at a time.
func (s *Service) EnabledByID(ctx context.Context, ids []string) ([]store.Service, error) {
	var rows []store.Service
	for chunk := range slices.Chunk(ids, 500) {
		var part []store.Service
		if err := s.db.WithContext(ctx).Preload("Domain").Where("enabled = ? AND id IN ?", true, chunk).
			Find(&part).Error; err != nil {
			return nil, fmt.Errorf("list enabled services by id: %w", err)
		}
		rows = append(rows, part...)
	}
	return rows, nil
}

// DisableExpired disables every enabled service whose expiry has passed,
// ends their sessions, and returns their ids.
func (s *Service) DisableExpired(ctx context.Context) ([]string, error) {
	now := s.now()
	var ids []string
	var expired []struct{ ID, Name string }
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&store.Service{}).Select("id", "name").
			Where("enabled = ? AND expires_at IS NOT NULL AND expires_at <= ?", true, now).
			Find(&expired).Error; err != nil {
			return err
		}
		for _, e := range expired {
			ids = append(ids, e.ID)
		}
		if len(ids) == 0 {
			return nil
		}
		if err := tx.Model(&store.Service{}).Where("id IN ?", ids).
			Updates(map[string]any{"enabled": false, "updated_at": now}).Error; err != nil {
			return err
		}
		return s.endSessions(tx, ids...)
	})
	if err != nil {
		return nil, fmt.Errorf("disable expired services: %w", err)
	}
	for _, e := range expired {
		s.bus.Publish(change.Event{Entity: change.Service, Kind: change.Disabled, ID: e.ID})
		s.notify.Publish(ctx, notify.ServiceExpiredEvent(e.ID, e.Name, now))
	}
	return ids, nil
}

// NextExpiry returns the earliest future expiry of an enabled service.
func (s *Service) NextExpiry(ctx context.Context) (time.Time, bool, error) {
	var row store.Service
	err := s.db.WithContext(ctx).Where("enabled = ? AND expires_at IS NOT NULL", true).
		Order("expires_at").Limit(1).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next expiry: %w", err)
	}
	return *row.ExpiresAt, true, nil
}

// Exists reports whether a service has the id (enabled or not): a
// per-service read of another feature (its traffic history) answers 404
// for an id that is no service.
func (s *Service) Exists(ctx context.Context, id string) (bool, error) {
	var n int64
	if err := s.db.WithContext(ctx).Model(&store.Service{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return false, fmt.Errorf("look up service %s: %w", id, err)
	}
	return n > 0, nil
}

// Names maps every service's id to its name (the panel's metrics label
// series with it; alerts name the service they watch).
func (s *Service) Names(ctx context.Context) (map[string]string, error) {
	var rows []struct{ ID, Name string }
	if err := s.db.WithContext(ctx).Model(&store.Service{}).Select("id, name").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list service names: %w", err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, nil
}
