package transfer

import (
	"fmt"
	"maps"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// planDeletes lists, in replace mode, what the document does not have.
// Administrators are never deleted.
func (p *planner) planDeletes() {
	inDoc := func(set map[string]bool, n string) bool { return set[n] }
	svcNames, hosts, sets, tokens, channels := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range p.doc.Services {
		svcNames[strings.TrimSpace(s.Name)] = true
	}
	for _, d := range p.doc.Domains {
		hosts[validate.NormalizeHostname(d.Domain)] = true
	}
	for _, c := range p.doc.CredentialSets {
		sets[strings.TrimSpace(c.Name)] = true
	}
	for _, t := range p.doc.MachineTokens {
		tokens[strings.TrimSpace(t.Name)] = true
	}
	for _, c := range p.doc.NotifyChannels {
		channels[strings.TrimSpace(c.Name)] = true
	}
	// Domains still used after the import: by refused services that stay.
	used := maps.Clone(p.domainUser)
	refusedSvc := map[string]bool{}
	for _, it := range p.items {
		if it.Kind == KindService && it.Action == ActionRefused {
			refusedSvc[it.Name] = true
		}
	}
	for _, sv := range p.st.serviceRows {
		if refusedSvc[sv.Name] && sv.DomainID != nil {
			used[*sv.DomainID] = sv.Name
		}
	}
	for _, sv := range p.st.serviceRows {
		if inDoc(svcNames, sv.Name) {
			continue
		}
		p.planDelete(KindService, sv.Name, sv.ID, p.st.exportService(sv), p.deleteRow(change.Service, &store.Service{}, sv.ID))
	}
	for _, t := range p.st.machineTokens() {
		if inDoc(tokens, t.Name) {
			continue
		}
		p.planDelete(KindMachineToken, t.Name, t.ID, t, func(tx *gorm.DB) error {
			events, err := machinetokens.DeleteTx(tx, t.ID)
			p.events = append(p.events, events...)
			return err
		})
	}
	for _, ch := range p.st.notifyChannels() {
		if inDoc(channels, ch.Name) {
			continue
		}
		p.planDelete(KindNotifyChannel, ch.Name, ch.ID, ch, func(tx *gorm.DB) error { return notify.DeleteChannelTx(tx, ch.ID) })
	}
	p.planAlertRuleDeletes()
	for _, cs := range p.st.sets {
		if inDoc(sets, cs.Name) {
			continue
		}
		p.planDelete(KindCredentialSet, cs.Name, cs.ID, map[string]any{"name": cs.Name}, p.deleteRow(change.Security, &store.CredentialSet{}, cs.ID))
	}
	for _, d := range p.st.domainRows {
		if inDoc(hosts, d.Domain) {
			continue
		}
		if svc, ok := used[d.ID]; ok {
			p.add(Item{Kind: KindDomain, Name: d.Domain, Action: ActionRefused,
				Reason: fmt.Sprintf("not deleted: service %q, refused above, still uses it", svc)}, nil)
			continue
		}
		p.planDelete(KindDomain, d.Domain, d.ID, exportDomain(d), p.deleteRow(change.Domain, &store.Domain{}, d.ID))
	}
}

// planDelete plans deleting id in replace mode with del; before is the row
// as its audit entry shows it.
func (p *planner) planDelete(kind, name, id string, before any, del op) {
	p.add(Item{Kind: kind, Name: name, Action: ActionDelete}.state(id, before, nil), del)
}

// deleteRow deletes the row id of model's table, a table the transfer
// writes itself, announcing it on the change bus as entity.
func (p *planner) deleteRow(entity change.Entity, model any, id string) op {
	return func(tx *gorm.DB) error {
		p.events = append(p.events, change.Event{Entity: entity, Kind: change.Deleted, ID: id})
		return tx.Where("id = ?", id).Delete(model).Error
	}
}
