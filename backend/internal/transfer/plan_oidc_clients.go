package transfer

import (
	"fmt"
	"slices"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc/clients"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// oidcClients is the clients section as an export writes it: groups and
// the service by name, never a secret.
func (st *state) oidcClients() []document.OIDCClient {
	groupName := map[string]string{}
	for _, g := range st.groupRows {
		groupName[g.ID] = g.Name
	}
	out := make([]document.OIDCClient, 0, len(st.clients))
	for _, c := range st.clients {
		d := document.OIDCClient{ID: c.ID, Name: c.Name, LogoURL: c.LogoURL, Preset: c.Preset, Public: c.Public,
			RedirectURIs: nonNil(c.RedirectURIs.V), PostLogoutRedirectURIs: nonNil(c.PostLogoutRedirectURIs.V),
			BackchannelLogoutURI: c.BackchannelLogoutURI, AllowedGroups: []string{}, Scopes: nonNil(c.Scopes.V),
			GrantTypes: nonNil(c.GrantTypes.V), SigningAlg: c.SigningAlg, ClaimMappings: c.ClaimMappings.V,
			ImpliedConsent: c.ImpliedConsent, SecondFactor: c.SecondFactor, MaxAgeSeconds: c.MaxAgeSeconds,
			AccessTokenTTLSeconds: c.AccessTokenTTLSeconds,
			IDTokenTTLSeconds:     c.IDTokenTTLSeconds, RefreshTokenTTLSeconds: c.RefreshTokenTTLSeconds,
			Disabled: c.DisabledAt != nil, CreatedAt: c.CreatedAt.UTC()}
		if d.ClaimMappings == nil {
			d.ClaimMappings = []store.OIDCClaimMapping{}
		}
		for _, id := range c.AllowedGroups.V {
			if n, ok := groupName[id]; ok {
				d.AllowedGroups = append(d.AllowedGroups, n)
			}
		}
		slices.Sort(d.AllowedGroups)
		if c.ServiceID != nil {
			d.Service = st.serviceName(*c.ServiceID)
		}
		out = append(out, d)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// planOIDCClients plans the clients section after the groups and the
// services it names. Clients are matched by name; a new one keeps the
// file's client_id when it is free, so the app's settings still hold. A
// secret's hash comes only from the sealed secrets; without it a new
// confidential client has no secret until one is made on the Apps page.
// An import never deletes a client.
func (p *planner) planOIDCClients() {
	byName := map[string]store.OIDCClient{}
	for _, c := range p.st.clients {
		byName[c.Name] = c
	}
	have := map[string]document.OIDCClient{}
	for _, h := range p.st.oidcClients() {
		have[h.Name] = h
	}
	taken := func(id string) bool {
		return slices.ContainsFunc(p.st.clients, func(c store.OIDCClient) bool { return c.ID == id })
	}
	dup := dupes(p.doc.OIDCClients, func(c document.OIDCClient) string { return strings.TrimSpace(c.Name) })
	for _, c := range p.doc.OIDCClients {
		in := clients.Input{Name: c.Name, LogoURL: c.LogoURL, Preset: c.Preset, Public: c.Public,
			RedirectURIs: c.RedirectURIs, PostLogoutRedirectURIs: c.PostLogoutRedirectURIs,
			BackchannelLogoutURI: c.BackchannelLogoutURI, Scopes: c.Scopes, GrantTypes: c.GrantTypes,
			SigningAlg: c.SigningAlg, ImpliedConsent: c.ImpliedConsent, Disabled: c.Disabled,
			SecondFactor: c.SecondFactor, MaxAgeSeconds: c.MaxAgeSeconds,
			AccessTokenTTLSeconds: c.AccessTokenTTLSeconds, IDTokenTTLSeconds: c.IDTokenTTLSeconds,
			RefreshTokenTTLSeconds: c.RefreshTokenTTLSeconds, AllowedGroupIDs: []string{}}
		for _, m := range c.ClaimMappings {
			cm := clients.ClaimMapping{Claim: m.Claim, Kind: m.Kind, From: m.From, Default: m.Default}
			for _, v := range m.Values {
				cm.Values = append(cm.Values, clients.ClaimValue{Group: v.Group, Value: v.Value})
			}
			in.ClaimMappings = append(in.ClaimMappings, cm)
		}
		var err error
		for i, g := range c.AllowedGroups {
			id, ok := p.groupID[strings.ToLower(strings.TrimSpace(g))]
			if !ok {
				err = apperr.Field(fmt.Sprintf("allowedGroups[%d]", i), "no group %q here or in the file", g)
				break
			}
			in.AllowedGroupIDs = append(in.AllowedGroupIDs, id)
		}
		if err == nil && c.Service != "" {
			if id, ok := p.serviceID[c.Service]; ok {
				in.ServiceID = id
			} else {
				err = apperr.Field("service", "service %q is neither in the file nor in this panel (or is refused)", c.Service)
			}
		}
		if err == nil {
			err = clients.Check(&in)
		}
		name := in.Name
		if err == nil && dup[name] {
			err = fmt.Errorf("the file lists this client more than once")
		}
		if err != nil {
			p.add(refused(KindOIDCClient, strings.TrimSpace(c.Name), err), nil)
			continue
		}
		hash := ""
		if p.sec != nil {
			hash = p.sec.OIDCClients[c.Name]
		}
		cur, exists := byName[name]
		if !exists {
			cur = store.OIDCClient{ID: p.newID(c.ID, taken), CreatedAt: c.CreatedAt.UTC()}
			if c.CreatedAt.IsZero() {
				cur.CreatedAt = p.now
			}
		}
		row := clients.ImportRow(in, cur, hash, p.now)
		want := c
		want.ID, want.Name, want.CreatedAt = row.ID, name, cur.CreatedAt
		want.AllowedGroups = slices.Sorted(slices.Values(nonNil(c.AllowedGroups)))
		var fields []string
		var before any
		if exists {
			h := have[name]
			// Compare what the file says with what the panel has, after the
			// same normalisation (defaults filled, order canonical).
			want = h
			want.LogoURL, want.Preset, want.Public = in.LogoURL, in.Preset, in.Public
			want.RedirectURIs, want.PostLogoutRedirectURIs = in.RedirectURIs, in.PostLogoutRedirectURIs
			want.BackchannelLogoutURI, want.Scopes, want.GrantTypes = in.BackchannelLogoutURI, in.Scopes, in.GrantTypes
			want.SigningAlg, want.ImpliedConsent, want.Disabled = in.SigningAlg, in.ImpliedConsent, in.Disabled
			want.AccessTokenTTLSeconds, want.IDTokenTTLSeconds = in.AccessTokenTTLSeconds, in.IDTokenTTLSeconds
			want.RefreshTokenTTLSeconds = in.RefreshTokenTTLSeconds
			want.SecondFactor, want.MaxAgeSeconds = in.SecondFactor, in.MaxAgeSeconds
			want.ClaimMappings = row.ClaimMappings.V
			want.AllowedGroups = slices.Sorted(slices.Values(nonNil(c.AllowedGroups)))
			want.Service = c.Service
			fields, before = diff(h, want, "id", "createdAt"), h
			if hash != "" && hash != cur.SecretHash && !row.Public {
				fields = append(fields, "secret")
			}
		}
		act := action(exists, fields)
		it := Item{Kind: KindOIDCClient, Name: name, Action: act, Fields: fields}.state(row.ID, before, want).withSealed("secret")
		p.add(it, func(tx *gorm.DB) error {
			events, err := clients.ImportTx(tx, row, act == ActionCreate)
			if err != nil {
				return fmt.Errorf("OpenID Connect client %q: %w", name, err)
			}
			p.events = append(p.events, events...)
			return nil
		})
	}
}
