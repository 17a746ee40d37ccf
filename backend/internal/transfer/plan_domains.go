package transfer

import (
	"errors"
	"fmt"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

func (p *planner) planDomains() {
	byHost := map[string]store.Domain{}
	for _, d := range p.st.domainRows {
		byHost[d.Domain] = d
	}
	dup := dupes(p.doc.Domains, func(d document.Domain) string { return validate.NormalizeHostname(d.Domain) })
	taken := func(id string) bool { _, ok := p.st.domainByID[id]; return ok }
	defaults := 0
	for _, d := range p.doc.Domains {
		if d.IsDefault {
			defaults++
		}
	}
	for _, d := range p.doc.Domains {
		host := validate.NormalizeHostname(d.Domain)
		req := domains.Request{Name: d.Name, Domain: d.Domain, CertResolver: d.CertResolver, Wildcard: d.Wildcard,
			IsDefault: d.IsDefault, CertConfigs: d.CertConfigs, HTTPS: domains.HTTPS{Redirect: d.HTTPSRedirect, HSTS: d.HSTS}}
		err := domains.Check(&req)
		switch {
		case err != nil:
		case dup[host]:
			err = errors.New("the file lists this domain more than once")
		case d.IsDefault && defaults > 1:
			err = errors.New("the file marks more than one domain as the default")
		}
		if err != nil {
			p.domainBad[host] = reason(err)
			p.add(refused(KindDomain, d.Domain, err), nil)
			continue
		}
		cur, exists := byHost[req.Domain]
		row := store.Domain{ID: cur.ID, Name: req.Name, Domain: req.Domain, CertResolver: req.CertResolver,
			Wildcard: req.Wildcard, IsDefault: req.IsDefault, CertConfigs: store.NewJSON(req.CertConfigs),
			HTTPSRedirect: req.HTTPS.Redirect, HSTS: store.NewJSON(req.HTTPS.HSTS), CreatedAt: cur.CreatedAt, UpdatedAt: p.now}
		var fields []string
		if exists {
			fields = diff(exportDomain(cur), exportDomain(row), "id")
		} else {
			row.ID, row.CreatedAt = p.newID(d.ID, taken), p.now
		}
		p.domainID[req.Domain] = row.ID
		act := action(exists, fields)
		kind := map[string]change.Kind{ActionCreate: change.Created, ActionUpdate: change.Updated}[act]
		var before any
		if exists {
			before = exportDomain(cur)
		}
		p.add(Item{Kind: KindDomain, Name: req.Domain, Action: act, Fields: fields}.state(row.ID, before, exportDomain(row)), func(tx *gorm.DB) error {
			if row.IsDefault {
				if err := tx.Model(&store.Domain{}).Where("is_default = ? AND id <> ?", true, row.ID).
					Update("is_default", false).Error; err != nil {
					return fmt.Errorf("clear default domain: %w", err)
				}
			}
			if err := saveRow(tx, &row, act == ActionCreate); err != nil {
				return fmt.Errorf("domain %s: %w", row.Domain, err)
			}
			p.events = append(p.events, change.Event{Entity: change.Domain, Kind: kind, ID: row.ID})
			return nil
		})
	}
}
