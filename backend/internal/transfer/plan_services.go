package transfer

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// serviceDoc is a service row as the document shows it.
func serviceDoc(r store.Service, domainHost string, prots []document.Protection, acc *document.ServiceAccess) document.Service {
	st := &state{}
	if r.DomainID != nil && domainHost != "" {
		st.domainRows = []store.Domain{{ID: *r.DomainID, Domain: domainHost}}
	}
	sv := st.index().exportService(r)
	sv.Protections, sv.Access = prots, acc
	return sv
}

func (p *planner) planServices() error {
	byName := map[string]store.Service{}
	for _, sv := range p.st.serviceRows {
		byName[sv.Name] = sv
	}
	taken := func(id string) bool { _, ok := p.st.serviceByID[id]; return ok }
	// Hostnames owned by services the document does not name (kept in merge mode).
	var owned []struct{ Hostname, ServiceID string }
	if err := p.tx.Model(&store.ServiceHostname{}).Select("hostname, service_id").Find(&owned).Error; err != nil {
		return fmt.Errorf("read hostnames: %w", err)
	}
	inDoc := map[string]bool{}
	for _, sv := range p.doc.Services {
		inDoc[strings.TrimSpace(sv.Name)] = true
	}
	hostOwner := map[string]string{}
	for _, h := range owned {
		if name := p.st.serviceName(h.ServiceID); !inDoc[name] && p.mode == ModeMerge {
			hostOwner[h.Hostname] = name
		}
	}
	dup := dupes(p.doc.Services, func(s document.Service) string { return strings.TrimSpace(s.Name) })
	hostHosts := map[string]string{} // planned host -> service
	for _, sv := range p.doc.Services {
		name := strings.TrimSpace(sv.Name)
		row, prots, acc, host, err := p.checkService(sv, byName[name])
		if err == nil && dup[name] {
			err = errors.New("the file lists this service more than once")
		}
		if err == nil {
			d := p.domainRow(row.DomainID, host)
			row.Domain = d
			for _, fq := range services.FQDNs(row) {
				if other, ok := hostOwner[fq]; ok {
					err = apperr.Conflict("hostnames", "%s is already used by service %q, which the file does not have", fq, other)
				} else if other, ok := hostHosts[fq]; ok {
					err = apperr.Conflict("hostnames", "%s is also a hostname of service %q in the file", fq, other)
				}
				if err != nil {
					break
				}
				hostHosts[fq] = name
			}
			row.Domain = nil
		}
		if err != nil {
			p.add(refused(KindService, name, err), nil)
			continue
		}
		cur, exists := byName[name]
		var fields []string
		var before any
		after := serviceDoc(row, host, prots, acc)
		if exists {
			row.ID, row.CreatedAt = cur.ID, cur.CreatedAt
			after = serviceDoc(row, host, prots, acc)
			before = p.st.exportService(cur)
			fields = diff(before, after, "id", "createdAt")
		} else {
			row.ID = p.newID(sv.ID, taken)
		}
		p.serviceID[name] = row.ID
		if row.DomainID != nil {
			p.domainUser[*row.DomainID] = name
		}
		act := action(exists, fields)
		wasEnabled := exists && cur.Enabled
		// Changed protections sign everyone out of the service, as an edit on its page does.
		endSessions := slices.Contains(fields, "protections")
		p.add(Item{Kind: KindService, Name: name, Action: act, Fields: fields}.state(row.ID, before, after), func(tx *gorm.DB) error {
			return p.writeService(tx, row, prots, acc, act == ActionCreate, wasEnabled, endSessions)
		})
	}
	return nil
}

func (p *planner) domainRow(id *string, host string) *store.Domain {
	if id == nil {
		return nil
	}
	return &store.Domain{ID: *id, Domain: host}
}

// checkService validates a document's service with the panel's own rules
// and builds the row it would store.
func (p *planner) checkService(sv document.Service, cur store.Service) (store.Service, []document.Protection, *document.ServiceAccess, string, error) {
	var row store.Service
	var domainID *string
	host := validate.NormalizeHostname(sv.Domain)
	if host != "" {
		if why, bad := p.domainBad[host]; bad {
			return row, nil, nil, "", apperr.Field("domain", "domain %s is refused (%s)", host, why)
		}
		id, ok := p.domainID[host]
		if !ok {
			return row, nil, nil, "", apperr.Field("domain", "domain %s is neither in the file nor in this panel", host)
		}
		domainID = &id
	}
	expiry := services.Expiry{Type: sv.Expiry.Type, At: sv.Expiry.At, Seconds: sv.Expiry.Seconds}
	if expiry.Type == "" {
		expiry.Type = store.ExpiryNever
	}
	req := services.Request{Name: sv.Name, DomainID: domainID, Hostnames: sv.Hostnames, Targets: sv.Targets,
		PassHostHeader: &sv.PassHostHeader, InsecureSkipVerify: sv.InsecureSkipVerify, Entrypoints: sv.Entrypoints,
		Rules: sv.Rules, Middlewares: sv.Middlewares, Headers: sv.Headers,
		HTTPS: services.HTTPS{Redirect: sv.HTTPSRedirect, HSTS: sv.HSTS}, Kind: sv.Kind, Redirect: sv.Redirect,
		Maintenance:  services.Maintenance{Enabled: sv.Maintenance.Enabled, Message: sv.Maintenance.Message},
		LoadBalancer: sv.LoadBalancer, TCP: sv.TCP, Enabled: &sv.Enabled, Expiry: &expiry}
	if err := services.Check(&req); err != nil {
		return row, nil, nil, "", err
	}
	row = store.Service{Name: req.Name, DomainID: req.DomainID, Hostnames: store.NewJSON(req.Hostnames),
		Targets: store.NewJSON(req.Targets), PassHostHeader: *req.PassHostHeader, InsecureSkipVerify: req.InsecureSkipVerify,
		Entrypoints: store.NewJSON(req.Entrypoints), Rules: store.NewJSON(req.Rules), Middlewares: store.NewJSON(req.Middlewares),
		Headers: store.NewJSON(req.Headers), HTTPSRedirect: req.HTTPS.Redirect, HSTS: store.NewJSON(req.HTTPS.HSTS),
		Kind: req.Kind, Redirect: store.NewJSON(*req.Redirect), Maintenance: req.Maintenance.Enabled,
		MaintenanceMessage: req.Maintenance.Message, LoadBalancer: store.NewJSON(req.LoadBalancer), TCP: store.NewJSON(*req.TCP),
		Enabled:    *req.Enabled,
		ExpiryType: req.Expiry.Type, CreatedAt: p.now, UpdatedAt: p.now}
	if sv.CreatedAt != nil {
		row.CreatedAt = sv.CreatedAt.UTC()
	}
	switch {
	case sv.Expiry.EnabledAt != nil:
		row.EnabledAt = utc(sv.Expiry.EnabledAt)
	case cur.EnabledAt != nil:
		row.EnabledAt = cur.EnabledAt
	case row.Enabled:
		now := p.now
		row.EnabledAt = &now
	}
	switch row.ExpiryType {
	case store.ExpiryAt:
		at := req.Expiry.At.UTC().Truncate(time.Millisecond)
		row.ExpiresAt = &at
	case store.ExpiryDuration:
		secs := req.Expiry.Seconds
		row.LifetimeSeconds = &secs
		if row.EnabledAt != nil {
			at := row.EnabledAt.Add(time.Duration(secs) * time.Second)
			row.ExpiresAt = &at
		}
	}
	prots, err := p.checkProtections(sv.Protections)
	if err != nil {
		return row, nil, nil, "", err
	}
	var acc *document.ServiceAccess
	if sv.Access != nil && (len(sv.Access.Rules) > 0 || sv.Access.DefaultAction != "") {
		var c apperr.Collector
		if sv.Access.DefaultAction != "" && !rules.ValidAction(rules.Action(sv.Access.DefaultAction)) {
			c.Add("access.defaultAction", "must be empty (automatic) or one of: allow, deny, authenticate")
		}
		list := append([]rules.Rule{}, sv.Access.Rules...)
		rules.Normalize(list, "access.rules", rules.Options{GeoIP: p.s.o.GeoIP}, &c)
		if err := c.Err(); err != nil {
			return row, nil, nil, "", err
		}
		acc = &document.ServiceAccess{DefaultAction: sv.Access.DefaultAction, Rules: list}
	}
	if err := refuseGuardedStream(row.Kind, sv.Protections, acc); err != nil {
		return row, nil, nil, "", err
	}
	return row, prots, acc, host, nil
}

// refuseGuardedStream refuses a tcp or udp service that comes with an
// enabled protection or restricting access rules, as the API does: the
// configuration builder would leave it unrouted (fail closed), so the
// plan says why now instead.
func refuseGuardedStream(kind string, prots []document.Protection, acc *document.ServiceAccess) error {
	if !services.IsStream(kind) {
		return nil
	}
	for i, pr := range prots {
		if pr.Enabled {
			return apperr.Field(fmt.Sprintf("protections[%d].enabled", i), "%s", services.StreamRefusal(kind))
		}
	}
	if acc == nil {
		return nil
	}
	for i, r := range acc.Rules {
		if r.Action != rules.Allow {
			return apperr.Field(fmt.Sprintf("access.rules[%d].action", i), "%s", services.StreamRefusal(kind))
		}
	}
	if rules.EffectiveDefault(rules.Action(acc.DefaultAction), false) != rules.Allow {
		return apperr.Field("access.defaultAction", "%s", services.StreamRefusal(kind))
	}
	return nil
}

func (p *planner) checkProtections(in []document.Protection) ([]document.Protection, error) {
	out := []document.Protection{}
	seen := map[string]bool{}
	for i, pr := range in {
		f := fmt.Sprintf("protections[%d]", i)
		settings, err := forwardauth.CheckProtection(pr.Type, pr.Settings)
		if err != nil {
			return nil, apperr.Field(f, "%s", reason(err))
		}
		if seen[pr.Type] {
			return nil, apperr.Field(f+".type", "%s is listed twice", pr.Type)
		}
		seen[pr.Type] = true
		d := document.Protection{Type: pr.Type, Enabled: pr.Enabled, Settings: settings}
		if pr.Type == store.SecurityBasicAuth {
			name := strings.TrimSpace(pr.CredentialSet)
			if why, bad := p.setBad[name]; bad {
				return nil, apperr.Field(f+".credentialSet", "credential set %q is refused (%s)", name, why)
			}
			if _, ok := p.setID[name]; !ok {
				return nil, apperr.Field(f+".credentialSet", "credential set %q is neither in the file nor in this panel", name)
			}
			d.CredentialSet = name
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Type < out[j].Type })
	return out, nil
}

// writeService stores one service with its hostnames, protections and
// access rules.
func (p *planner) writeService(tx *gorm.DB, row store.Service, prots []document.Protection, acc *document.ServiceAccess,
	create, wasEnabled, endSessions bool) error {
	row.UpdatedAt = p.now
	if err := saveRow(tx, &row, create); err != nil {
		return fmt.Errorf("service %q: %w", row.Name, err)
	}
	if row.DomainID != nil {
		var d store.Domain
		if err := tx.Where("id = ?", *row.DomainID).Take(&d).Error; err != nil {
			return fmt.Errorf("service %q: load domain: %w", row.Name, err)
		}
		row.Domain = &d
	}
	if err := services.SyncHostnames(tx, row); err != nil {
		return fmt.Errorf("service %q: %w", row.Name, err)
	}
	// What Traefik could not route apart on one entrypoint (two udp
	// services, two catch-all tcp services...) is refused as by the API;
	// the import does not know the default entrypoints or their protocols.
	if err := services.CheckEntrypointConflicts(tx, &row, services.EntrypointInfo{}); err != nil {
		return fmt.Errorf("service %q: %w", row.Name, err)
	}
	if err := tx.Where("service_id = ?", row.ID).Delete(&store.SecurityConfig{}).Error; err != nil {
		return fmt.Errorf("service %q: %w", row.Name, err)
	}
	for _, pr := range prots {
		sc := store.SecurityConfig{ID: newID(), ServiceID: row.ID, Type: pr.Type, Enabled: pr.Enabled,
			Settings: store.NewJSON(pr.Settings), CreatedAt: p.now, UpdatedAt: p.now}
		if pr.Type == store.SecurityBasicAuth {
			id := p.setID[pr.CredentialSet]
			sc.CredentialSetID = &id
		}
		if err := tx.Create(&sc).Error; err != nil {
			return fmt.Errorf("service %q: protection %s: %w", row.Name, pr.Type, err)
		}
	}
	if err := tx.Where("service_id = ?", row.ID).Delete(&store.ServiceAccess{}).Error; err != nil {
		return fmt.Errorf("service %q: %w", row.Name, err)
	}
	if acc != nil {
		if err := tx.Create(&store.ServiceAccess{ServiceID: row.ID, DefaultAction: acc.DefaultAction,
			Rules: store.NewJSON(acc.Rules), UpdatedAt: p.now}).Error; err != nil {
			return fmt.Errorf("service %q: access rules: %w", row.Name, err)
		}
	}
	kind := change.Updated
	if create {
		kind = change.Created
	}
	p.events = append(p.events, change.Event{Entity: change.Service, Kind: kind, ID: row.ID},
		change.Event{Entity: change.Security, Kind: change.Updated, ID: row.ID},
		change.Event{Entity: change.Access, Kind: change.Updated, ID: row.ID})
	if wasEnabled && !row.Enabled {
		p.events = append(p.events, change.Event{Entity: change.Service, Kind: change.Disabled, ID: row.ID})
		endSessions = true
	}
	if endSessions {
		if err := forwardauth.EndServiceSessions(tx, row.ID); err != nil {
			return err
		}
		p.events = append(p.events, change.Event{Entity: change.Security, Kind: change.Deleted, ID: row.ID})
	}
	return nil
}
