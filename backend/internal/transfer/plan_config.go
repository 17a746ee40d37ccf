package transfer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

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
	if cfg.Portal != nil {
		if err := p.planPortal(cfg.Portal); err != nil {
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

// planPortal plans the sign-in portal's settings with the rules of
// PUT /api/config/portal: fields left out keep their defaults, every field
// is checked (the host against the panel's domain, the file's when it has
// one), and what is stored is the normalized form.
func (p *planner) planPortal(raw json.RawMessage) error {
	want, err := p.checkPortal(raw)
	if err != nil {
		if apperr.IsCode(err, apperr.CodeValidationFailed) || apperr.IsCode(err, apperr.CodeInvalidRequest) {
			p.add(refused(KindPortal, settings.KeyPortal, err), nil)
			return nil
		}
		return err
	}
	return p.configItem(KindPortal, settings.KeyPortal, want, change.Event{Entity: change.Settings, Kind: change.Updated, ID: settings.KeyPortal})
}

func (p *planner) checkPortal(raw json.RawMessage) (json.RawMessage, error) {
	const section = "config.portal"
	if _, ok := object(raw); !ok {
		return nil, apperr.Field(section, "must be an object")
	}
	portal := settings.PortalDefaults()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&portal); err != nil {
		return nil, apperr.Field(section, "%v", strings.TrimPrefix(err.Error(), "json: "))
	}
	global := settings.Defaults()
	if _, err := store.GetConfig(p.ctx, p.tx, store.KeyGlobalConfig, &global); err != nil {
		return nil, err
	}
	if g := p.doc.Config.Global; g != nil {
		_ = json.Unmarshal(g, &global) // a bad global section is refused on its own
	}
	if err := portal.Validate(global.AdminDomain); err != nil {
		if e, ok := apperr.As(err); ok {
			for i := range e.Fields {
				e.Fields[i].Field = section + "." + e.Fields[i].Field
			}
		}
		return nil, err
	}
	b, err := json.Marshal(portal)
	if err != nil {
		return nil, err
	}
	return canonical(b), nil
}
