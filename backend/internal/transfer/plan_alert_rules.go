package transfer

import (
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/alerts"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// alertRules is the alert rules section as an export writes it: the
// service by name, no episode and no firing state. Never nil: the export
// writes the section even empty, so that an import in replace mode tells
// "no rules" from "no section".
func (st *state) alertRules() []document.AlertRule {
	out := make([]document.AlertRule, 0, len(st.rules))
	for _, r := range st.rules {
		out = append(out, exportAlertRule(r, st.serviceByID))
	}
	return out
}

func exportAlertRule(r alerts.StoredRule, serviceName map[string]string) document.AlertRule {
	enabled, created := r.Enabled, r.CreatedAt.UTC()
	d := document.AlertRule{ID: r.ID, Name: r.Name, Kind: string(r.Kind), Threshold: r.Threshold,
		ForMinutes: r.ForMinutes, Enabled: &enabled, CreatedAt: &created}
	if r.ServiceID != nil {
		d.Service = serviceName[*r.ServiceID]
	}
	return d
}

// planAlertRules plans the alert rules section after the services it
// names. Rules are matched by name (unique in the panel). Every rule is
// checked as the API checks it (alerts.Check); unlike the sections whose
// items are refused one by one, a bad rule, a rule listed twice or a rule
// naming a service that neither the file nor the panel has fails the
// whole import with the field (alertRules[i].field), as the API would
// refuse the request. A rule whose service the file has but this plan
// refuses is refused with it. A file without the section leaves the
// rules alone; the section, even empty, is the whole list in replace mode.
func (p *planner) planAlertRules() error {
	if p.doc.AlertRules == nil {
		return nil
	}
	byName := map[string]alerts.StoredRule{}
	taken := map[string]bool{}
	for _, r := range p.st.rules {
		byName[r.Name] = r
		taken[r.ID] = true
	}
	history, err := alerts.HistoryRuleIDsTx(p.tx)
	if err != nil {
		return err
	}
	inFile, refusedSvc := map[string]bool{}, map[string]bool{}
	for _, sv := range p.doc.Services {
		inFile[strings.TrimSpace(sv.Name)] = true
	}
	for _, it := range p.items {
		if it.Kind == KindService && it.Action == ActionRefused {
			refusedSvc[it.Name] = true
		}
	}
	type checked struct {
		req     alerts.RuleRequest
		doc     document.AlertRule
		service string // the service's name, "" for the totals
		refused string // why the rule is refused with its service
	}
	var c apperr.Collector
	seen := map[string]int{}
	list := make([]checked, 0, len(p.doc.Rules()))
	for i, r := range p.doc.Rules() {
		f := fmt.Sprintf("alertRules[%d]", i)
		ck := checked{doc: r, service: strings.TrimSpace(r.Service),
			req: alerts.RuleRequest{Name: r.Name, Kind: alerts.Kind(r.Kind), Threshold: r.Threshold, ForMinutes: r.ForMinutes, Enabled: r.Enabled}}
		if ck.service != "" {
			id, ok := p.serviceID[ck.service]
			switch {
			case len(ck.service) > 200:
				c.Add(f+".service", "must be a service's name (at most 200 characters)")
			case ok && (p.mode == ModeMerge || inFile[ck.service]):
				ck.req.ServiceID = &id
			case refusedSvc[ck.service]:
				ck.refused = fmt.Sprintf("service: service %q is refused", ck.service)
			case ok:
				c.Add(f+".service", "service %q is not in the file: a replace import deletes it", ck.service)
			default:
				c.Add(f+".service", "no service %q in the file or in this panel", ck.service)
			}
		}
		req, err := alerts.Check(ck.req)
		if err != nil {
			e, ok := apperr.As(err)
			if !ok {
				return err
			}
			for _, fe := range e.Fields {
				name := fe.Field
				if name == "serviceId" {
					name = "service"
				}
				c.Add(f+"."+name, "%s", fe.Message)
			}
			continue
		}
		ck.req = req
		if j, dup := seen[req.Name]; dup {
			c.Add(f+".name", "alertRules[%d] has the same name: names are unique", j)
			continue
		}
		seen[req.Name] = i
		list = append(list, ck)
	}
	if err := c.Err(); err != nil {
		return err
	}
	// The API keeps at most alerts.MaxRules: so does an import.
	count := 0
	if p.mode == ModeMerge {
		for name := range byName {
			if _, ok := seen[name]; !ok {
				count++
			}
		}
	}
	for _, ck := range list {
		if _, exists := byName[ck.req.Name]; exists || ck.refused == "" {
			count++
		}
	}
	if count > alerts.MaxRules {
		return apperr.Conflict("alertRules", "the import would leave %d alert rules: at most %d", count, alerts.MaxRules)
	}
	for _, ck := range list {
		name := ck.req.Name
		if ck.refused != "" {
			p.add(Item{Kind: KindAlertRule, Name: name, Action: ActionRefused, Reason: ck.refused}, nil)
			continue
		}
		cur, exists := byName[name]
		row := alerts.StoredRule{ID: cur.ID, Name: name, ServiceID: ck.req.ServiceID, Kind: ck.req.Kind,
			Threshold: ck.req.Threshold, ForMinutes: ck.req.ForMinutes, Enabled: ck.req.Enabled == nil || *ck.req.Enabled,
			CreatedAt: cur.CreatedAt, UpdatedAt: p.now}
		if !exists {
			row.ID = p.newID(ck.doc.ID, func(id string) bool { return taken[id] || history[id] })
			row.CreatedAt = p.now
			if ck.doc.CreatedAt != nil && !ck.doc.CreatedAt.IsZero() {
				row.CreatedAt = ck.doc.CreatedAt.UTC()
			}
		}
		names := map[string]string{}
		if row.ServiceID != nil {
			names[*row.ServiceID] = ck.service
		}
		after := exportAlertRule(row, names)
		var fields []string
		var before any
		if exists {
			was := exportAlertRule(cur, p.st.serviceByID)
			fields, before = diff(was, after, "id", "createdAt"), was
		}
		act := action(exists, fields)
		p.add(Item{Kind: KindAlertRule, Name: name, Action: act, Fields: fields}.state(row.ID, before, after), func(tx *gorm.DB) error {
			if err := alerts.ImportRuleTx(tx, row); err != nil {
				return fmt.Errorf("alert rule %q: %w", name, err)
			}
			return nil
		})
	}
	return nil
}

// planAlertRuleDeletes lists, in replace mode, the rules a file with the
// section does not have.
func (p *planner) planAlertRuleDeletes() {
	if p.doc.AlertRules == nil {
		return
	}
	inFile := map[string]bool{}
	for _, r := range p.doc.Rules() {
		inFile[strings.TrimSpace(r.Name)] = true
	}
	for _, r := range p.st.rules {
		if inFile[r.Name] {
			continue
		}
		id := r.ID
		p.planDelete(KindAlertRule, r.Name, id, exportAlertRule(r, p.st.serviceByID), func(tx *gorm.DB) error {
			return alerts.DeleteRuleTx(tx, id)
		})
	}
}
