package transfer

import (
	"fmt"
	"sort"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

func (p *planner) planMachineTokens() {
	byName := map[string]store.MachineToken{}
	hashes := map[string]string{}
	for _, t := range p.st.tokens {
		byName[t.Name] = t
		hashes[t.TokenHash] = t.Name
	}
	have := p.st.machineTokens()
	taken := func(id string) bool { _, ok := byID(p.st.tokens, id); return ok }
	dup := dupes(p.doc.MachineTokens, func(t document.MachineToken) string { return strings.TrimSpace(t.Name) })
	for _, t := range p.doc.MachineTokens {
		req := machinetokens.CreateRequest{Name: t.Name, ServiceIDs: t.Services,
			Scope: machinetokens.Scope{PathPrefix: t.ScopePath, Methods: t.ScopeMethods}}
		err := machinetokens.Check(&req, p.now)
		name := req.Name
		if err == nil && dup[name] {
			err = fmt.Errorf("the file lists this token more than once")
		}
		for i, svc := range req.ServiceIDs { // names, in the document
			if _, ok := p.serviceID[svc]; err == nil && !ok {
				err = apperr.Field(fmt.Sprintf("services[%d]", i), "service %q is neither in the file nor in this panel (or is refused)", svc)
			}
		}
		cur, exists := byName[name]
		hash := ""
		if p.sec != nil {
			hash = p.sec.MachineTokens[t.Name]
		}
		switch {
		case err != nil:
		case !exists && hash == "":
			err = fmt.Errorf("a token's hash travels only in the encrypted secrets: export with secrets (and give the passphrase) to bring it over, or create a new token here")
		case hash != "" && hashes[hash] != "" && hashes[hash] != name:
			err = fmt.Errorf("token %q of this panel has the same value", hashes[hash])
		}
		if err != nil {
			p.add(refused(KindMachineToken, name, err), nil)
			continue
		}
		sort.Strings(req.ServiceIDs)
		want := document.MachineToken{Name: name, Prefix: t.Prefix, ScopePath: req.Scope.PathPrefix,
			ScopeMethods: req.Scope.Methods, ExpiresAt: utc(t.ExpiresAt), Revoked: t.Revoked, Services: req.ServiceIDs}
		row := store.MachineToken{ID: cur.ID, Name: name, TokenHash: cur.TokenHash, Prefix: t.Prefix,
			ScopePath: want.ScopePath, ScopeMethods: store.NewJSON(want.ScopeMethods), ExpiresAt: want.ExpiresAt,
			RevokedAt: cur.RevokedAt, LastUsedAt: cur.LastUsedAt, LastUsedAddress: cur.LastUsedAddress, CreatedAt: cur.CreatedAt}
		if t.Revoked && row.RevokedAt == nil {
			now := p.now
			row.RevokedAt = &now
		} else if !t.Revoked {
			row.RevokedAt = nil
		}
		var fields []string
		var before any
		if exists {
			for _, h := range have {
				if h.Name == name {
					want.ID, want.CreatedAt = h.ID, h.CreatedAt
					fields = diff(h, want, "id", "createdAt")
					before = h
				}
			}
			if hash != "" && hash != cur.TokenHash {
				fields = append(fields, "value")
			}
		} else {
			row.ID, row.CreatedAt = p.newID(t.ID, taken), t.CreatedAt.UTC()
			if t.CreatedAt.IsZero() {
				row.CreatedAt = p.now
			}
		}
		if hash != "" {
			row.TokenHash = hash
		}
		act := action(exists, fields)
		p.add(Item{Kind: KindMachineToken, Name: name, Action: act, Fields: fields}.state(row.ID, before, want).withSealed("value"), func(tx *gorm.DB) error {
			ids := make([]string, len(req.ServiceIDs))
			for i, svc := range req.ServiceIDs {
				ids[i] = p.serviceID[svc]
			}
			events, err := machinetokens.ImportTx(tx, row, ids, act == ActionCreate)
			if err != nil {
				return fmt.Errorf("machine token %q: %w", name, err)
			}
			p.events = append(p.events, events...)
			return nil
		})
	}
}

func byID(rows []store.MachineToken, id string) (store.MachineToken, bool) {
	for _, r := range rows {
		if r.ID == id {
			return r, true
		}
	}
	return store.MachineToken{}, false
}
