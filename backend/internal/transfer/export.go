package transfer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/alerts"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// ExportOptions say what an export includes beyond the configuration.
type ExportOptions struct {
	Admins bool // list the administrators
	// Secrets seals the secrets (SSO client secret, DNS credential values,
	// notification secrets, machine-token hashes) to Passphrase.
	Secrets bool
	// AdminPasswords adds the administrators' password hashes to the
	// sealed secrets (implies Admins and needs Passphrase).
	AdminPasswords bool
	Passphrase     string
}

func (o *ExportOptions) check() error {
	if o.AdminPasswords {
		o.Admins = true
	}
	if (o.Secrets || o.AdminPasswords) && len([]rune(o.Passphrase)) < MinPassphrase {
		return apperr.Field("passphrase", "must be at least %d characters to export secrets", MinPassphrase)
	}
	return nil
}

// Export builds the document from the database. Every list is sorted by
// name, so two exports of the same data differ only in ExportedAt.
func (s *Service) Export(ctx context.Context, o ExportOptions) (document.Document, error) {
	// Password hashes can be cracked offline into a person's sign-in: only
	// a person or the command line may take them out, never an API token.
	if o.AdminPasswords && !mayChangePersonAccess(ctx) {
		return document.Document{}, apperr.Forbidden("API tokens cannot export administrators' password hashes; sign in instead")
	}
	if err := o.check(); err != nil {
		return document.Document{}, err
	}
	db := s.o.DB.WithContext(ctx)
	doc := document.Document{
		Format: document.Format, Version: document.Version, ExportedAt: s.o.Now().UTC().Truncate(time.Second),
		PanelVersion: s.o.PanelVersion,
	}
	var sec document.Secrets
	var err error
	// One read transaction: the document is one moment's state.
	err = db.Transaction(func(tx *gorm.DB) error {
		st, err := loadState(tx)
		if err != nil {
			return err
		}
		doc.Domains, doc.Services, doc.CredentialSets = st.domains(), st.services(), st.credentialSets()
		doc.MachineTokens, doc.NotifyChannels = st.machineTokens(), st.notifyChannels()
		doc.OIDCClients = st.oidcClients()
		alertRules := st.alertRules()
		doc.AlertRules = &alertRules
		if doc.Config, err = s.exportConfig(ctx, tx, &sec); err != nil {
			return err
		}
		if o.Admins {
			doc.Admins = st.admins()
			doc.Groups = st.groups()
		}
		if o.Secrets && s.o.Credentials != nil {
			if sec.DNSCredentials, err = s.o.Credentials.CredentialValues(ctx, tx); err != nil {
				return fmt.Errorf("read DNS credentials: %w", err)
			}
		}
		if o.Secrets {
			sec.MachineTokens = map[string]string{}
			for _, t := range st.tokens {
				sec.MachineTokens[t.Name] = t.TokenHash
			}
			sec.OIDCClients = map[string]string{}
			for _, c := range st.clients {
				if c.SecretHash != "" {
					sec.OIDCClients[c.Name] = c.SecretHash
				}
			}
			sec.NotifyChannels = map[string]json.RawMessage{}
			for _, ch := range st.channels {
				plain, err := s.o.Box.Open(ch.Secrets)
				if err != nil {
					return fmt.Errorf("open secrets of channel %q: %w", ch.Name, err)
				}
				if plain != "" {
					sec.NotifyChannels[ch.Name] = json.RawMessage(plain)
				}
			}
		}
		if o.AdminPasswords {
			sec.AdminPasswords = map[string]string{}
			for _, a := range st.adminRows {
				if a.PasswordHash != "" {
					sec.AdminPasswords[a.Username] = a.PasswordHash
				}
			}
		}
		return nil
	})
	if err != nil {
		return document.Document{}, err
	}
	if !o.Secrets {
		sec.SSOClientSecret = ""
	}
	if o.Secrets || o.AdminPasswords {
		if doc.Sealed, err = seal(sec, o.Passphrase, s.o.ScryptWorkFactor); err != nil {
			return document.Document{}, err
		}
	}
	return doc, nil
}

// Encode renders doc as the export file: indented JSON with a final newline.
func Encode(doc document.Document) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	return buf.Bytes(), nil
}

// state is every row an export or a plan looks at, read at one moment.
type state struct {
	domainRows  []store.Domain
	serviceRows []store.Service
	sets        []store.CredentialSet
	security    []store.SecurityConfig
	access      []store.ServiceAccess
	tokens      []store.MachineToken
	tokenSvcs   []store.MachineTokenService
	clients     []store.OIDCClient
	channels    []notify.StoredChannel
	adminRows   []store.Person
	groupRows   []store.Group
	members     []store.GroupMember
	rules       []alerts.StoredRule

	// Indexes by id, built by index.
	domainByID  map[string]string // id -> host name
	setByID     map[string]string // id -> name
	serviceByID map[string]string // id -> name
	securityOf  map[string][]store.SecurityConfig
	accessOf    map[string]store.ServiceAccess
	tokenSvcsOf map[string][]string // token id -> service ids
}

// index builds the lookups by id.
func (st *state) index() *state {
	st.domainByID, st.setByID, st.serviceByID = map[string]string{}, map[string]string{}, map[string]string{}
	st.securityOf, st.accessOf, st.tokenSvcsOf = map[string][]store.SecurityConfig{}, map[string]store.ServiceAccess{}, map[string][]string{}
	for _, d := range st.domainRows {
		st.domainByID[d.ID] = d.Domain
	}
	for _, cs := range st.sets {
		st.setByID[cs.ID] = cs.Name
	}
	for _, sv := range st.serviceRows {
		st.serviceByID[sv.ID] = sv.Name
	}
	for _, p := range st.security {
		st.securityOf[p.ServiceID] = append(st.securityOf[p.ServiceID], p)
	}
	for _, a := range st.access {
		st.accessOf[a.ServiceID] = a
	}
	for _, b := range st.tokenSvcs {
		st.tokenSvcsOf[b.TokenID] = append(st.tokenSvcsOf[b.TokenID], b.ServiceID)
	}
	return st
}

func loadState(tx *gorm.DB) (*state, error) {
	st := &state{}
	for _, q := range []struct {
		what string
		run  func() error
	}{
		{"domains", func() error { return tx.Order("domain").Find(&st.domainRows).Error }},
		{"services", func() error { return tx.Order("name, id").Find(&st.serviceRows).Error }},
		{"credential sets", func() error {
			return tx.Preload("Users", func(db *gorm.DB) *gorm.DB { return db.Order("username") }).Order("name").Find(&st.sets).Error
		}},
		{"protections", func() error { return tx.Order("service_id, type").Find(&st.security).Error }},
		{"access rules", func() error { return tx.Order("service_id").Find(&st.access).Error }},
		{"machine tokens", func() error { return tx.Order("name").Find(&st.tokens).Error }},
		{"machine token services", func() error { return tx.Find(&st.tokenSvcs).Error }},
		{"OpenID Connect clients", func() error { return tx.Order("name").Find(&st.clients).Error }},
		{"notification channels", func() error { return tx.Order("name").Find(&st.channels).Error }},
		{"people", func() error { return tx.Order("username").Find(&st.adminRows).Error }},
		{"groups", func() error { return tx.Order("name").Find(&st.groupRows).Error }},
		{"group members", func() error { return tx.Find(&st.members).Error }},
		{"alert rules", func() (err error) { st.rules, err = alerts.RulesTx(tx); return err }},
	} {
		if err := q.run(); err != nil {
			return nil, fmt.Errorf("read %s: %w", q.what, err)
		}
	}
	return st.index(), nil
}

func (st *state) domainHost(id *string) string {
	if id == nil {
		return ""
	}
	return st.domainByID[*id]
}

func (st *state) setName(id *string) string {
	if id == nil {
		return ""
	}
	return st.setByID[*id]
}

func (st *state) serviceName(id string) string { return st.serviceByID[id] }

func (st *state) domains() []document.Domain {
	out := make([]document.Domain, 0, len(st.domainRows))
	for _, d := range st.domainRows {
		out = append(out, exportDomain(d))
	}
	return out
}

func exportDomain(d store.Domain) document.Domain {
	cc := d.CertConfigs.V
	if cc == nil {
		cc = []store.CertConfig{}
	}
	for i := range cc {
		if cc[i].SANs == nil {
			cc[i].SANs = []string{}
		}
	}
	return document.Domain{ID: d.ID, Name: d.Name, Domain: d.Domain, CertResolver: d.CertResolver,
		Wildcard: d.Wildcard, IsDefault: d.IsDefault, CertConfigs: cc, HTTPSRedirect: d.HTTPSRedirect, HSTS: d.HSTS.V}
}

func (st *state) services() []document.Service {
	out := make([]document.Service, 0, len(st.serviceRows))
	for _, r := range st.serviceRows {
		out = append(out, st.exportService(r))
	}
	return out
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (st *state) exportService(r store.Service) document.Service {
	created := r.CreatedAt.UTC()
	sv := document.Service{
		ID: r.ID, Name: r.Name, Domain: st.domainHost(r.DomainID),
		Hostnames: orEmpty(r.Hostnames.V), Targets: orEmpty(r.Targets.V),
		PassHostHeader: r.PassHostHeader, InsecureSkipVerify: r.InsecureSkipVerify,
		Entrypoints: orEmpty(r.Entrypoints.V), Rules: orEmpty(r.Rules.V), Middlewares: orEmpty(r.Middlewares.V),
		Headers: r.Headers.V, HTTPSRedirect: r.HTTPSRedirect, HSTS: r.HSTS.V, Kind: r.Kind,
		Maintenance:  document.Maintenance{Enabled: r.Maintenance, Message: r.MaintenanceMessage},
		LoadBalancer: r.LoadBalancer.V, Enabled: r.Enabled,
		Expiry:      document.Expiry{Type: r.ExpiryType, EnabledAt: utc(r.EnabledAt)},
		Protections: []document.Protection{}, CreatedAt: &created,
	}
	if sv.Headers == nil {
		sv.Headers = map[string]string{}
	}
	if r.Kind == store.KindRedirect || r.Redirect.V != (store.Redirect{}) {
		red := r.Redirect.V
		sv.Redirect = &red
	}
	if r.Kind == store.KindTCP {
		tcp := r.TCP.V
		tcp.AllowList = orEmpty(tcp.AllowList)
		sv.TCP = &tcp
	}
	switch r.ExpiryType {
	case store.ExpiryAt:
		sv.Expiry.At = utc(r.ExpiresAt)
	case store.ExpiryDuration:
		if r.LifetimeSeconds != nil {
			sv.Expiry.Seconds = *r.LifetimeSeconds
		}
	}
	for _, p := range st.securityOf[r.ID] {
		sv.Protections = append(sv.Protections, document.Protection{Type: p.Type, Enabled: p.Enabled,
			CredentialSet: st.setName(p.CredentialSetID), Settings: p.Settings.V})
	}
	if a, ok := st.accessOf[r.ID]; ok {
		sv.Access = &document.ServiceAccess{DefaultAction: a.DefaultAction, Rules: orEmpty(a.Rules.V)}
	}
	return sv
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func (st *state) credentialSets() []document.CredentialSet {
	out := make([]document.CredentialSet, 0, len(st.sets))
	for _, cs := range st.sets {
		d := document.CredentialSet{ID: cs.ID, Name: cs.Name, Users: []document.CredentialUser{}}
		for _, u := range cs.Users {
			d.Users = append(d.Users, document.CredentialUser{Username: u.Username, PasswordHash: u.PasswordHash})
		}
		out = append(out, d)
	}
	return out
}

func (st *state) machineTokens() []document.MachineToken {
	out := make([]document.MachineToken, 0, len(st.tokens))
	for _, t := range st.tokens {
		d := document.MachineToken{ID: t.ID, Name: t.Name, Prefix: t.Prefix, ScopePath: t.ScopePath,
			ScopeMethods: orEmpty(t.ScopeMethods.V), ExpiresAt: utc(t.ExpiresAt), Revoked: t.RevokedAt != nil,
			Services: []string{}, CreatedAt: t.CreatedAt.UTC()}
		for _, id := range st.tokenSvcsOf[t.ID] {
			d.Services = append(d.Services, st.serviceName(id))
		}
		sort.Strings(d.Services)
		out = append(out, d)
	}
	return out
}

func (st *state) notifyChannels() []document.NotifyChannel {
	out := make([]document.NotifyChannel, 0, len(st.channels))
	for _, ch := range st.channels {
		d := document.NotifyChannel{ID: ch.ID, Name: ch.Name, Kind: ch.Kind, Enabled: ch.Enabled,
			Settings: rawOrEmpty(ch.Settings), Events: []string{}}
		_ = json.Unmarshal([]byte(ch.Events), &d.Events) // a broken list exports as none
		d.Events = orEmpty(d.Events)
		out = append(out, d)
	}
	return out
}

func rawOrEmpty(s string) json.RawMessage {
	if s == "" || !json.Valid([]byte(s)) {
		return json.RawMessage("{}")
	}
	return canonical(json.RawMessage(s))
}

func (st *state) admins() []document.Admin {
	out := make([]document.Admin, 0, len(st.adminRows))
	for _, a := range st.adminRows {
		out = append(out, document.Admin{Username: a.Username, Role: a.PanelRole, Email: a.Email, DisplayName: a.DisplayName,
			SSOIssuer: a.SSOIssuer, SSOSubject: a.SSOSubject, Disabled: a.DisabledAt != nil})
	}
	return out
}

// groups lists the groups with their members' usernames, both sorted.
func (st *state) groups() []document.Group {
	name := make(map[string]string, len(st.adminRows))
	for _, p := range st.adminRows {
		name[p.ID] = p.Username
	}
	members := map[string][]string{}
	for _, m := range st.members {
		members[m.GroupID] = append(members[m.GroupID], name[m.PersonID])
	}
	out := make([]document.Group, 0, len(st.groupRows))
	for _, g := range st.groupRows {
		ms := members[g.ID]
		if ms == nil {
			ms = []string{}
		}
		slices.Sort(ms)
		out = append(out, document.Group{Name: g.Name, Description: g.Description, Members: ms})
	}
	return out
}

// exportConfig reads the panel-wide sections; the SSO client secret goes
// to sec (opened from the panel's sealing), never into the section.
func (s *Service) exportConfig(ctx context.Context, tx *gorm.DB, sec *document.Secrets) (*document.Config, error) {
	cfg := &document.Config{}
	var err error
	if cfg.Global, err = rawConfig(ctx, tx, store.KeyGlobalConfig); err != nil {
		return nil, err
	}
	if cfg.AdminSSO, err = rawConfig(ctx, tx, store.KeyAdminSSO); err != nil {
		return nil, err
	}
	if cfg.Portal, err = rawConfig(ctx, tx, settings.KeyPortal); err != nil {
		return nil, err
	}
	if cfg.Managed, err = rawConfig(ctx, tx, store.KeyManaged); err != nil {
		return nil, err
	}
	var sso map[string]any
	found, err := store.GetConfig(ctx, tx, store.KeySSO, &sso)
	if err != nil {
		return nil, err
	}
	if found {
		if secret, ok := sso["clientSecret"].(string); ok && secret != "" {
			if sec.SSOClientSecret, err = s.o.Box.Open(secret); err != nil {
				return nil, fmt.Errorf("open the SSO client secret: %w", err)
			}
		}
		delete(sso, "clientSecret")
		b, _ := json.Marshal(sso)
		cfg.SSO = b
	}
	var rules []rules.Rule
	if found, err := store.GetConfig(ctx, tx, store.KeyAccessRules, &rules); err != nil {
		return nil, err
	} else if found {
		cfg.AccessRules = orEmpty(rules)
	}
	var sec2fa store.AdminSecurity
	if err := tx.Where("id = 1").Limit(1).Find(&sec2fa).Error; err != nil {
		return nil, fmt.Errorf("read admin security: %w", err)
	}
	req := sec2fa.RequireTwoFactor
	cfg.RequireTwoFactor = &req
	var names struct {
		Credentials []struct {
			Name string `json:"name"`
		} `json:"credentials"`
	}
	if _, err := store.GetConfig(ctx, tx, store.KeyManagedSecrets, &names); err != nil {
		return nil, err
	}
	for _, c := range names.Credentials {
		cfg.DNSCredentials = append(cfg.DNSCredentials, c.Name)
	}
	slices.Sort(cfg.DNSCredentials)
	return cfg, nil
}

// rawConfig is one app_config document in canonical form (keys sorted), or
// nil when it was never saved.
func rawConfig(ctx context.Context, tx *gorm.DB, key string) (json.RawMessage, error) {
	var v any
	found, err := store.GetConfig(ctx, tx, key, &v)
	if err != nil || !found {
		return nil, err
	}
	b, err := json.Marshal(v)
	return b, err
}

// canonical re-encodes a JSON value with sorted keys and no spaces; numbers
// keep their text.
func canonical(raw json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return b
}
