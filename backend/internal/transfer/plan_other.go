package transfer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
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
			if err := saveRow(tx, &row, act == ActionCreate); err != nil {
				return fmt.Errorf("machine token %q: %w", name, err)
			}
			if err := tx.Where("token_id = ?", row.ID).Delete(&store.MachineTokenService{}).Error; err != nil {
				return fmt.Errorf("machine token %q: %w", name, err)
			}
			for _, svc := range req.ServiceIDs {
				if err := tx.Create(&store.MachineTokenService{TokenID: row.ID, ServiceID: p.serviceID[svc]}).Error; err != nil {
					return fmt.Errorf("machine token %q: %w", name, err)
				}
			}
			p.events = append(p.events, change.Event{Entity: change.Access, Kind: change.Updated, ID: row.ID})
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

func (p *planner) planChannels() {
	byName := map[string]channelRow{}
	for _, ch := range p.st.channels {
		byName[ch.Name] = ch
	}
	have := map[string]document.NotifyChannel{}
	for _, d := range p.st.notifyChannels() {
		have[d.Name] = d
	}
	taken := func(id string) bool {
		for _, ch := range p.st.channels {
			if ch.ID == id {
				return true
			}
		}
		return false
	}
	dup := dupes(p.doc.NotifyChannels, func(c document.NotifyChannel) string { return strings.TrimSpace(c.Name) })
	for _, ch := range p.doc.NotifyChannels {
		name := strings.TrimSpace(ch.Name)
		var c apperr.Collector
		if n := len([]rune(name)); n < 1 || n > 100 {
			c.Add("name", "must be between 1 and 100 characters")
		}
		if dup[name] {
			c.Add("name", "the file lists this channel more than once")
		}
		if ch.Kind == "" {
			c.Add("kind", "is required")
		}
		settings := bytes.TrimSpace(ch.Settings)
		if len(settings) == 0 {
			settings = []byte("{}")
		}
		if settings[0] != '{' {
			c.Add("settings", "must be an object")
		}
		var secret json.RawMessage
		if p.sec != nil {
			secret = p.sec.NotifyChannels[ch.Name]
		}
		cur, exists := byName[name]
		if !exists && secret == nil {
			c.Add("", "a channel's URL secrets travel only in the encrypted secrets: export with secrets (and give the passphrase), or add the channel here")
		}
		if err := c.Err(); err != nil {
			p.add(refused(KindNotifyChannel, name, err), nil)
			continue
		}
		want := document.NotifyChannel{Name: name, Kind: ch.Kind, Settings: canonical(settings), Events: orEmpty(ch.Events), Enabled: ch.Enabled}
		var fields []string
		var before any
		row := channelRow{ID: cur.ID, Name: name, Kind: ch.Kind, Settings: string(want.Settings), Secrets: cur.Secrets,
			Enabled: ch.Enabled, CreatedAt: cur.CreatedAt, UpdatedAt: p.now}
		ev, _ := json.Marshal(want.Events)
		row.Events = string(ev)
		if exists {
			h := have[name]
			h.ID = ""
			fields = diff(h, want)
			before = h
			if secret != nil {
				if plain, err := p.s.o.Box.Open(cur.Secrets); err != nil || string(canonical(json.RawMessage(plain))) != string(canonical(secret)) {
					fields = append(fields, "secrets")
				}
			}
		} else {
			row.ID, row.CreatedAt = p.newID(ch.ID, taken), p.now
		}
		act := action(exists, fields)
		p.add(Item{Kind: KindNotifyChannel, Name: name, Action: act, Fields: fields}.state(row.ID, before, want).withSealed("secrets"), func(tx *gorm.DB) error {
			if secret != nil {
				sealed, err := p.s.o.Box.Seal(string(canonical(secret)))
				if err != nil {
					return err
				}
				row.Secrets = sealed
			}
			if err := saveRow(tx, &row, act == ActionCreate); err != nil {
				return fmt.Errorf("notification channel %q: %w", name, err)
			}
			return nil
		})
	}
}

// configItem plans one app_config section given as canonical JSON.
func (p *planner) configItem(kind, key string, want json.RawMessage, event change.Event) error {
	cur, err := rawConfig(p.ctx, p.tx, key)
	if err != nil {
		return err
	}
	if key == store.KeySSO && cur != nil {
		var m map[string]any
		_ = json.Unmarshal(cur, &m)
		delete(m, "clientSecret")
		cur, _ = json.Marshal(m)
	}
	var fields []string
	if cur != nil {
		var a, b map[string]json.RawMessage
		_ = json.Unmarshal(cur, &a)
		_ = json.Unmarshal(want, &b)
		fields = diff(a, b)
	}
	secret := ""
	if kind == KindSSO && p.sec != nil && p.sec.SSOClientSecret != "" {
		secret = p.sec.SSOClientSecret
		var stored struct {
			ClientSecret string `json:"clientSecret"`
		}
		_, _ = store.GetConfig(p.ctx, p.tx, key, &stored)
		if plain, err := p.s.o.Box.Open(stored.ClientSecret); err != nil || plain != secret {
			fields = append(fields, "clientSecret")
		}
	}
	act := action(cur != nil, fields)
	var before any
	if cur != nil {
		before = json.RawMessage(cur)
	}
	p.add(Item{Kind: kind, Name: key, Action: act, Fields: fields}.state("", before, want), func(tx *gorm.DB) error {
		var doc map[string]any
		if err := json.Unmarshal(want, &doc); err != nil {
			return err
		}
		if kind == KindSSO {
			var stored struct {
				ClientSecret string `json:"clientSecret"`
			}
			if _, err := store.GetConfig(p.ctx, tx, key, &stored); err != nil {
				return err
			}
			doc["clientSecret"] = stored.ClientSecret
			if secret != "" {
				sealed, err := p.s.o.Box.Seal(secret)
				if err != nil {
					return err
				}
				doc["clientSecret"] = sealed
			}
		}
		if err := store.PutConfig(p.ctx, tx, key, doc); err != nil {
			return err
		}
		p.events = append(p.events, event)
		return nil
	})
	return nil
}

// object checks that raw is a JSON object and returns it canonical.
func object(raw json.RawMessage) (json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	return canonical(raw), true
}

func (p *planner) planConfig() error {
	cfg := p.doc.Config
	if cfg == nil {
		return nil
	}
	sections := []struct {
		kind, key string
		raw       json.RawMessage
		event     change.Event
		check     func(json.RawMessage) error
	}{
		{KindSettings, store.KeyGlobalConfig, cfg.Global, change.Event{Entity: change.Settings, Kind: change.Updated}, checkGlobal},
		{KindSSO, store.KeySSO, cfg.SSO, change.Event{Entity: change.Security, Kind: change.Updated, ID: store.KeySSO}, nil},
		{KindAdminSSO, store.KeyAdminSSO, cfg.AdminSSO, change.Event{Entity: change.Settings, Kind: change.Updated, ID: store.KeyAdminSSO}, p.checkAdminSSO},
		{KindManaged, store.KeyManaged, cfg.Managed, change.Event{Entity: change.Managed, Kind: change.Updated, ID: store.KeyManaged}, nil},
	}
	for _, sc := range sections {
		if sc.raw == nil {
			continue
		}
		want, ok := object(sc.raw)
		var err error
		if !ok {
			err = apperr.Field("config."+sc.kind, "must be an object")
		} else if sc.check != nil {
			err = sc.check(want)
		}
		if err != nil {
			p.add(refused(sc.kind, sc.key, err), nil)
			continue
		}
		if err := p.configItem(sc.kind, sc.key, want, sc.event); err != nil {
			return err
		}
	}
	if cfg.AccessRules != nil {
		list := slices.Clone(cfg.AccessRules)
		var c apperr.Collector
		rules.Normalize(list, "config.accessRules", rules.Options{GeoIP: p.s.o.GeoIP}, &c)
		if err := c.Err(); err != nil {
			p.add(refused(KindAccessRules, store.KeyAccessRules, err), nil)
		} else {
			var cur []rules.Rule
			found, err := store.GetConfig(p.ctx, p.tx, store.KeyAccessRules, &cur)
			if err != nil {
				return err
			}
			var fields []string
			if found && diffJSON(orEmpty(cur), list) {
				fields = []string{"rules"}
			}
			act := action(found, fields)
			var before any
			if found {
				before = map[string]any{"rules": orEmpty(cur)}
			}
			it := Item{Kind: KindAccessRules, Name: store.KeyAccessRules, Action: act, Fields: fields}.
				state("", before, map[string]any{"rules": list})
			p.add(it, func(tx *gorm.DB) error {
				p.events = append(p.events, change.Event{Entity: change.Access, Kind: change.Updated})
				return store.PutConfig(p.ctx, tx, store.KeyAccessRules, list)
			})
		}
	}
	if cfg.RequireTwoFactor != nil {
		var row store.AdminSecurity
		if err := p.tx.Where("id = 1").Limit(1).Find(&row).Error; err != nil {
			return fmt.Errorf("read admin security: %w", err)
		}
		var fields []string
		if row.RequireTwoFactor != *cfg.RequireTwoFactor {
			fields = []string{"requireTwoFactor"}
		}
		want := *cfg.RequireTwoFactor
		it := Item{Kind: KindAdminSecurity, Name: "requireTwoFactor", Action: action(true, fields), Fields: fields}.
			state("", map[string]bool{"requireTwoFactor": row.RequireTwoFactor}, map[string]bool{"requireTwoFactor": want})
		p.add(it, func(tx *gorm.DB) error {
			now := p.now
			return tx.Save(&store.AdminSecurity{ID: 1, RequireTwoFactor: want, UpdatedAt: &now}).Error
		})
	}
	return p.planDNSCredentials()
}

// checkAdminSSO refuses to switch password sign-in off: the panel's own
// settings page does that only once it has checked that an administrator
// can still sign in with SSO, which an import cannot know.
func (p *planner) checkAdminSSO(raw json.RawMessage) error {
	var want struct {
		LocalPasswords *bool `json:"localPasswords"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		return apperr.Field("config.adminSso", "%v", strings.TrimPrefix(err.Error(), "json: "))
	}
	if want.LocalPasswords == nil || *want.LocalPasswords {
		return nil
	}
	cur := struct {
		LocalPasswords bool `json:"localPasswords"`
	}{LocalPasswords: true}
	if _, err := store.GetConfig(p.ctx, p.tx, store.KeyAdminSSO, &cur); err != nil {
		return err
	}
	if cur.LocalPasswords {
		return apperr.Field("config.adminSso.localPasswords", "an import does not switch password sign-in off (it could lock everyone out): do it on the panel's sign-in settings, which check that an administrator can still sign in with SSO")
	}
	return nil
}

func checkGlobal(raw json.RawMessage) error {
	g := settings.Defaults()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return apperr.Field("config.global", "%v", strings.TrimPrefix(err.Error(), "json: "))
	}
	return g.Validate()
}

func diffJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return !bytes.Equal(ja, jb)
}

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

func (p *planner) planAdmins() {
	byName := map[string]store.AdminUser{}
	for _, a := range p.st.adminRows {
		byName[a.Username] = a
	}
	for _, a := range p.doc.Admins {
		name := strings.TrimSpace(a.Username)
		hash := ""
		if p.sec != nil {
			hash = p.sec.AdminPasswords[a.Username]
		}
		cur, exists := byName[name]
		var err error
		switch {
		case name == "" || len(name) > 100:
			err = apperr.Field("username", "must be between 1 and 100 characters")
		case a.Role != "admin" && a.Role != "viewer":
			err = apperr.Field("role", "must be admin or viewer")
		case hash != "" && !bcryptHash(hash):
			err = apperr.Field("passwordHash", "is not a bcrypt hash")
		case !exists && hash == "" && a.SSOIssuer == "" && a.Email == "":
			err = fmt.Errorf("no password hash (export with administrators' passwords) and no single sign-on link: this administrator could not sign in")
		case exists && name == p.actor && (a.Role != "admin" || a.Disabled):
			err = fmt.Errorf("this is the administrator running the import: an import cannot demote or disable it")
		}
		if err != nil {
			p.add(refused(KindAdmin, name, err), nil)
			continue
		}
		row := cur
		if !exists {
			row = store.AdminUser{ID: newID(), Username: name, CreatedAt: p.now}
		}
		row.Role, row.Email, row.SSOIssuer, row.SSOSubject = a.Role, a.Email, a.SSOIssuer, a.SSOSubject
		if hash != "" {
			row.PasswordHash = hash
		}
		switch {
		case a.Disabled && row.DisabledAt == nil:
			now := p.now
			row.DisabledAt = &now
		case !a.Disabled:
			row.DisabledAt = nil
		}
		want := document.Admin{Username: name, Role: a.Role, Email: a.Email, SSOIssuer: a.SSOIssuer, SSOSubject: a.SSOSubject, Disabled: a.Disabled}
		var fields []string
		var before any
		if exists {
			have := document.Admin{Username: cur.Username, Role: cur.Role, Email: cur.Email, SSOIssuer: cur.SSOIssuer,
				SSOSubject: cur.SSOSubject, Disabled: cur.DisabledAt != nil}
			fields = diff(have, want)
			before = have
		}
		newPassword := hash != "" && hash != cur.PasswordHash
		if exists && newPassword {
			fields = append(fields, "password")
		}
		act := action(exists, fields)
		it := Item{Kind: KindAdmin, Name: name, Action: act, Fields: fields}.state(row.ID, before, want)
		if hash != "" {
			it = it.withSealed("password")
		}
		p.add(it, func(tx *gorm.DB) error {
			row.UpdatedAt = p.now
			if err := saveRow(tx, &row, act == ActionCreate); err != nil {
				return fmt.Errorf("administrator %q: %w", name, err)
			}
			// A disabled administrator, or one whose password the file
			// replaced, is signed out everywhere, as on the panel's pages.
			p.events = append(p.events, change.Event{Entity: change.Security, Kind: change.Updated, ID: row.ID})
			if !exists || (row.DisabledAt == nil && !newPassword) {
				return nil
			}
			if p.s.o.Admins == nil {
				return fmt.Errorf("administrator %q: its sessions cannot be ended here", name)
			}
			return p.s.o.Admins.EndSessions(tx, row.ID)
		})
	}
}

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
		p.planDelete(KindService, sv.Name, sv.ID, change.Service, &store.Service{}, p.st.exportService(sv))
	}
	for _, t := range p.st.machineTokens() {
		if inDoc(tokens, t.Name) {
			continue
		}
		p.planDelete(KindMachineToken, t.Name, t.ID, change.Access, &store.MachineToken{}, t)
	}
	for _, ch := range p.st.notifyChannels() {
		if inDoc(channels, ch.Name) {
			continue
		}
		p.planDelete(KindNotifyChannel, ch.Name, ch.ID, "", &channelRow{}, ch) // channels publish no change event
	}
	for _, cs := range p.st.sets {
		if inDoc(sets, cs.Name) {
			continue
		}
		p.planDelete(KindCredentialSet, cs.Name, cs.ID, change.Security, &store.CredentialSet{}, map[string]any{"name": cs.Name})
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
		p.planDelete(KindDomain, d.Domain, d.ID, change.Domain, &store.Domain{}, exportDomain(d))
	}
}

// planDelete plans deleting the row id of model's table in replace mode,
// announcing it on the change bus as entity (none when empty); before is
// the row as its audit entry shows it.
func (p *planner) planDelete(kind, name, id string, entity change.Entity, model any, before any) {
	p.add(Item{Kind: kind, Name: name, Action: ActionDelete}.state(id, before, nil), func(tx *gorm.DB) error {
		if entity != "" {
			p.events = append(p.events, change.Event{Entity: entity, Kind: change.Deleted, ID: id})
		}
		return tx.Where("id = ?", id).Delete(model).Error
	})
}
