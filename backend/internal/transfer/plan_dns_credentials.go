package transfer

import (
	"fmt"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func (p *planner) planDNSCredentials() error {
	names := p.doc.Config.DNSCredentials
	if len(names) == 0 {
		return nil
	}
	if p.s.o.Credentials == nil {
		for _, n := range names {
			p.add(Item{Kind: KindDNSCredential, Name: n, Action: ActionRefused,
				Reason: "this panel is not in managed mode (PANEL_MANAGED): it keeps no DNS credentials"}, nil)
		}
		return nil
	}
	cur, err := p.s.o.Credentials.CredentialValues(p.ctx, p.tx)
	if err != nil {
		return fmt.Errorf("read DNS credentials: %w", err)
	}
	upsert := map[string]string{}
	for _, n := range names {
		v, given := "", false
		if p.sec != nil {
			v, given = p.sec.DNSCredentials[n]
		}
		old, exists := cur[n]
		switch {
		case !given && exists:
			p.add(Item{Kind: KindDNSCredential, Name: n, Action: ActionUnchanged}, nil)
		case !given:
			p.add(Item{Kind: KindDNSCredential, Name: n, Action: ActionRefused,
				Reason: "its value travels only in the encrypted secrets: export with secrets, or set it here"}, nil)
		case exists && old == v:
			p.add(Item{Kind: KindDNSCredential, Name: n, Action: ActionUnchanged}, nil)
		default:
			var fields []string
			if exists {
				fields = []string{"value"}
			}
			upsert[n] = v
			p.add(Item{Kind: KindDNSCredential, Name: n, Action: action(exists, fields), Fields: fields}.state(n, nil, nil).withSealed("value"), nil)
		}
	}
	if len(upsert) > 0 {
		// One write for the batch, with the rest of the import.
		p.writes = append(p.writes, func(tx *gorm.DB) error {
			return p.s.o.Credentials.UpdateSecrets(p.ctx, tx, upsert, nil)
		})
		p.events = append(p.events, change.Event{Entity: change.Managed, Kind: change.Updated, ID: store.KeyManagedSecrets})
	}
	return nil
}
