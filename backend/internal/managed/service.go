package managed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"regexp"
	"sort"
	"strconv"
	"time"

	"filippo.io/age"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// keyApplied holds what the wrapper last reported running; keyRejected
// the configuration it last reported Traefik would not run.
const (
	keyApplied  = "managed_applied"
	keyRejected = "managed_rejected"
)

// Status values.
const (
	StatusWaiting  = "waiting"  // the wrapper has not reported yet
	StatusPending  = "pending"  // the wrapper runs an older configuration
	StatusRejected = "rejected" // Traefik would not run the current configuration
	StatusApplied  = "applied"  // Traefik runs the current configuration
)

// Deps are the Service's collaborators.
type Deps struct {
	DB  *gorm.DB
	Bus *change.Bus
	// DataDir may hold dns-credentials.age, where the credentials lived
	// before the database held them: ImportFile moves it in.
	DataDir string
	// Identity encrypts the credentials: the panel's age identity
	// (sealbox: PANEL_AGE_IDENTITY[_FILE] or <DataDir>/age.key).
	Identity  *age.X25519Identity
	ACMEEmail string // PANEL_ACME_EMAIL: seeds the default resolver's e-mail
	Static    StaticOptions
	// BaseURL gives the panel's URL for Traefik when Static.ProviderURL is
	// empty (paneladdr.Address.Provider: it knows the bound listen address
	// once the server listens).
	BaseURL func() string
	Now     func() time.Time
	Logger  *slog.Logger
	// Notify hears when the managed Traefik reports the current
	// configuration applied; nil discards.
	Notify notify.Publisher
}

// Credential is a stored credential's name; values never leave the vault
// except through the wrapper's secrets-env endpoint.
type Credential struct {
	Name      string    `json:"name"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// State is the answer of GET /api/proxy/managed.
type State struct {
	Config      Config       `json:"config"`
	Credentials []Credential `json:"credentials"`
	Status      string       `json:"status"`
	AppliedAt   *time.Time   `json:"appliedAt"`
	Rejection   *Rejection   `json:"rejection"`
}

// Rejection says why the wrapper went back to the previous configuration.
type Rejection struct {
	ConfigHash  string    `json:"configHash"`
	SecretsHash string    `json:"secretsHash"`
	Reason      string    `json:"reason"`
	At          time.Time `json:"at"`
}

// secretsDoc is stored under store.KeyManagedSecrets: names and the keyed
// hash of the environment file, enough for the UI and the status.
type secretsDoc struct {
	Credentials []Credential `json:"credentials"`
	Hash        string       `json:"hash"`
}

// appliedDoc is what the wrapper reported after (re)starting Traefik.
type appliedDoc struct {
	ConfigHash  string    `json:"configHash"`
	SecretsHash string    `json:"secretsHash"`
	At          time.Time `json:"at"`
}

// Service owns the managed configuration and credentials.
type Service struct {
	db      *gorm.DB
	bus     *change.Bus
	vault   *vault
	o       Deps
	apiPort int
}

// NewService returns the service.
func NewService(o Deps) (*Service, error) {
	if o.Identity == nil {
		return nil, errors.New("managed mode needs the panel's age identity")
	}
	if o.Now == nil {
		o.Now = store.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Static.APIAddress == "" {
		o.Static.APIAddress = ":8080"
	}
	if o.Static.PanelAddress == "" {
		o.Static.PanelAddress = "127.0.0.1:8081"
	}
	_, port, err := net.SplitHostPort(o.Static.APIAddress)
	if err != nil {
		return nil, fmt.Errorf("managed API address %q: %w", o.Static.APIAddress, err)
	}
	apiPort, _ := strconv.Atoi(port)
	return &Service{db: o.DB, bus: o.Bus, vault: newVault(o.DB, o.DataDir, o.Identity), o: o, apiPort: apiPort}, nil
}

// Config returns the stored configuration, or the defaults.
func (s *Service) Config(ctx context.Context) (Config, error) {
	c := Defaults(s.o.ACMEEmail)
	if _, err := store.GetConfig(ctx, s.db, store.KeyManaged, &c); err != nil {
		return Config{}, err
	}
	c.normalize()
	return c, nil
}

// ResolverNames lists the certificate resolvers of the stored
// configuration; none until one is saved.
func (s *Service) ResolverNames(ctx context.Context) ([]string, error) {
	var c Config
	ok, err := store.GetConfig(ctx, s.db, store.KeyManaged, &c)
	if err != nil || !ok {
		return nil, err
	}
	names := make([]string, 0, len(c.Resolvers))
	for _, r := range c.Resolvers {
		if r.Name != "" {
			names = append(names, r.Name)
		}
	}
	return names, nil
}

// PutConfig validates and stores c and answers the new state.
func (s *Service) PutConfig(ctx context.Context, c Config) (State, error) {
	if err := c.Validate(s.apiPort); err != nil {
		return State{}, err
	}
	if err := s.checkPanelEntrypoint(c); err != nil {
		return State{}, err
	}
	if err := store.PutConfig(ctx, s.db, store.KeyManaged, c); err != nil {
		return State{}, err
	}
	s.bus.Publish(change.Event{Entity: change.Managed, Kind: change.Updated, ID: store.KeyManaged})
	return s.State(ctx)
}

// State returns the configuration, credential names and applied status.
func (s *Service) State(ctx context.Context) (State, error) {
	c, err := s.Config(ctx)
	if err != nil {
		return State{}, err
	}
	sec, err := s.secretsDoc(ctx)
	if err != nil {
		return State{}, err
	}
	var applied appliedDoc
	found, err := store.GetConfig(ctx, s.db, keyApplied, &applied)
	if err != nil {
		return State{}, err
	}
	var rejected Rejection
	wasRejected, err := store.GetConfig(ctx, s.db, keyRejected, &rejected)
	if err != nil {
		return State{}, err
	}
	_, configHash := StaticDocument(BuildStatic(c, s.staticOptions()))
	st := State{Config: c, Credentials: sec.Credentials, Status: StatusWaiting}
	if found {
		at := applied.At
		st.AppliedAt = &at
		st.Status = StatusPending
	}
	switch {
	case found && applied.ConfigHash == configHash && applied.SecretsHash == sec.Hash:
		st.Status = StatusApplied
	case wasRejected && rejected.ConfigHash == configHash && rejected.SecretsHash == sec.Hash:
		st.Status, st.Rejection = StatusRejected, &rejected
	}
	return st, nil
}

// Static renders the static configuration file and its hash.
func (s *Service) Static(ctx context.Context) ([]byte, string, error) {
	c, err := s.Config(ctx)
	if err != nil {
		return nil, "", err
	}
	doc, hash := StaticDocument(BuildStatic(c, s.staticOptions()))
	return doc, hash, nil
}

// Replicas renders the file provider's load balancer over the replicas
// (empty without PANEL_REPLICA_URLS) and its hash. It is the same on every
// replica: it comes from their common environment only.
func (s *Service) Replicas(_ context.Context) ([]byte, string) {
	doc, hash := ReplicasDocument(BuildReplicas(s.o.Static.Replicas))
	return doc, hash
}

// checkPanelEntrypoint keeps the entrypoints off the loopback entrypoint in
// front of the replicas: its name and, when it listens on every interface
// or the same address, its port.
func (s *Service) checkPanelEntrypoint(c Config) error {
	if len(s.o.Static.Replicas) == 0 {
		return nil
	}
	host, port, _ := net.SplitHostPort(s.o.Static.PanelAddress)
	var col apperr.Collector
	for i, e := range c.Entrypoints {
		f := fmt.Sprintf("entrypoints[%d].", i)
		if e.Name == PanelEntrypoint {
			col.Add(f+"name", "%q is reserved for the entrypoint in front of the panel's replicas", PanelEntrypoint)
		}
		if strconv.Itoa(e.Port) == port && (e.Host == "" || host == "" || e.Host == host) {
			col.Add(f+"port", "port %s is taken by the entrypoint in front of the panel's replicas (PANEL_MANAGED_PANEL_ADDRESS)", port)
		}
	}
	return col.Err()
}

func (s *Service) staticOptions() StaticOptions {
	o := s.o.Static
	if o.ProviderURL == "" && s.o.BaseURL != nil {
		o.ProviderURL = s.o.BaseURL()
	}
	return o
}

// EntrypointProtocols maps each managed entrypoint to "tcp" (HTTP
// entrypoints too) or "udp", and the internal API entrypoint to "tcp". ok
// is false when the configuration cannot be read.
func (s *Service) EntrypointProtocols(ctx context.Context) (map[string]string, bool) {
	c, err := s.Config(ctx)
	if err != nil {
		s.o.Logger.Warn("read managed entrypoints", "err", err)
		return nil, false
	}
	m := make(map[string]string, len(c.Entrypoints)+1)
	m[APIEntrypoint] = ProtocolTCP
	for _, e := range c.Entrypoints {
		m[e.Name] = ProtocolTCP
		if e.Protocol == ProtocolUDP {
			m[e.Name] = ProtocolUDP
		}
	}
	return m, true
}

// TLSEntrypoints reports which managed entrypoints terminate TLS, for the
// dynamic configuration. ok is false when the configuration cannot be read.
func (s *Service) TLSEntrypoints(ctx context.Context) (map[string]bool, bool) {
	c, err := s.Config(ctx)
	if err != nil {
		s.o.Logger.Warn("read managed entrypoints", "err", err)
		return nil, false
	}
	m := make(map[string]bool, len(c.Entrypoints))
	for _, e := range c.Entrypoints {
		m[e.Name] = e.TLS
	}
	return m, true
}

func (s *Service) secretsDoc(ctx context.Context) (secretsDoc, error) {
	return s.secretsDocIn(ctx, s.db)
}

func (s *Service) secretsDocIn(ctx context.Context, db *gorm.DB) (secretsDoc, error) {
	var d secretsDoc
	found, err := store.GetConfig(ctx, db, store.KeyManagedSecrets, &d)
	if err != nil {
		return secretsDoc{}, err
	}
	if !found || d.Hash == "" {
		d.Hash = s.vault.hash(map[string]string{})
	}
	if d.Credentials == nil {
		d.Credentials = []Credential{}
	}
	return d, nil
}

// CredentialValues returns the DNS credentials' values by name, for an
// export that seals them to a passphrase; nothing else reads them.
func (s *Service) CredentialValues(ctx context.Context) (map[string]string, error) {
	return s.vault.load(ctx, s.db)
}

// CredentialValuesIn is CredentialValues as db (a transaction) sees them.
func (s *Service) CredentialValuesIn(ctx context.Context, db *gorm.DB) (map[string]string, error) {
	return s.vault.load(ctx, db)
}

// ImportFile moves <DataDir>/dns-credentials.age into the database once,
// while the database holds no credentials (an install from before they lived
// there, or a restored archive made then), and renames the file to
// dns-credentials.age.migrated so it is never imported again, even once every
// credential is removed. A file found while the database already holds
// credentials is left alone and ignored. Run it at start.
func (s *Service) ImportFile(ctx context.Context) error {
	imported, ignored, err := s.vault.importFile(ctx)
	if err != nil {
		return fmt.Errorf("import DNS credentials: %w", err)
	}
	if ignored {
		s.o.Logger.Warn("DNS credentials file ignored: the database holds the credentials", "path", s.vault.file)
	}
	if !imported {
		return nil
	}
	s.o.Logger.Info("DNS credentials imported into the database", "path", s.vault.file)
	s.bus.Publish(change.Event{Entity: change.Managed, Kind: change.Updated, ID: store.KeyManagedSecrets})
	if err := os.Rename(s.vault.file, s.vault.file+MigratedSuffix); err != nil {
		// The database holds them now: the file is ignored from here on.
		s.o.Logger.Warn("rename the imported DNS credentials file", "path", s.vault.file, "err", err)
	}
	return nil
}

// UpdateSecrets applies upserts and removals as one batch and answers the
// resulting names. Removing a name that does not exist is not an error.
func (s *Service) UpdateSecrets(ctx context.Context, upsert map[string]string, remove []string) ([]Credential, error) {
	if err := checkBatch(upsert, remove); err != nil {
		return nil, err
	}
	var doc secretsDoc
	var count int
	// Read, changed and written in one transaction: transactions serialise
	// writers on both engines, so replicas saving at once lose nothing.
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) (err error) {
		doc, count, err = s.updateSecrets(ctx, tx, upsert, remove)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.o.Logger.Info("managed credentials updated", "upserted", len(upsert), "removed", len(remove), "count", count)
	s.bus.Publish(change.Event{Entity: change.Managed, Kind: change.Updated, ID: store.KeyManagedSecrets})
	return doc.Credentials, nil
}

// UpdateSecretsIn is UpdateSecrets inside the caller's transaction tx (an
// import's), which publishes the change once it commits.
func (s *Service) UpdateSecretsIn(ctx context.Context, tx *gorm.DB, upsert map[string]string, remove []string) error {
	if err := checkBatch(upsert, remove); err != nil {
		return err
	}
	_, _, err := s.updateSecrets(ctx, tx, upsert, remove)
	return err
}

// updateSecrets applies the batch through tx, a transaction.
func (s *Service) updateSecrets(ctx context.Context, tx *gorm.DB, upsert map[string]string, remove []string) (secretsDoc, int, error) {
	creds, err := s.vault.load(ctx, tx)
	if err != nil {
		// Never overwrite values we cannot read: the others would be lost.
		return secretsDoc{}, 0, err
	}
	prev, err := s.secretsDocIn(ctx, tx)
	if err != nil {
		return secretsDoc{}, 0, err
	}
	for _, n := range remove {
		delete(creds, n)
	}
	for n, v := range upsert {
		creds[n] = v
	}
	if len(creds) > maxCredentials {
		return secretsDoc{}, 0, apperr.Field("upsert", "at most %d credentials can be stored", maxCredentials)
	}
	doc := s.namesOf(creds, prev, upsert)
	if err := store.PutConfig(ctx, tx, store.KeyManagedSecrets, doc); err != nil {
		return secretsDoc{}, 0, err
	}
	return doc, len(creds), s.vault.save(ctx, tx, creds)
}

// namesOf lists the names of creds with when each last changed, and the hash
// of the environment file they render to.
func (s *Service) namesOf(creds map[string]string, prev secretsDoc, upsert map[string]string) secretsDoc {
	updated := map[string]time.Time{}
	for _, c := range prev.Credentials {
		updated[c.Name] = c.UpdatedAt
	}
	now := s.o.Now()
	doc := secretsDoc{Credentials: make([]Credential, 0, len(creds)), Hash: s.vault.hash(creds)}
	for n := range creds {
		at, ok := updated[n]
		if _, changed := upsert[n]; changed || !ok {
			at = now
		}
		doc.Credentials = append(doc.Credentials, Credential{Name: n, UpdatedAt: at})
	}
	sort.Slice(doc.Credentials, func(i, j int) bool { return doc.Credentials[i].Name < doc.Credentials[j].Name })
	return doc
}

func checkBatch(upsert map[string]string, remove []string) error {
	var col apperr.Collector
	names := make([]string, 0, len(upsert))
	for n := range upsert {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) > maxCredentials {
		col.Add("upsert", "must have at most %d items", maxCredentials)
	}
	for _, n := range names {
		if err := CheckName(n); err != nil {
			col.Add("upsert."+safeFieldName(n), "%v", err)
			continue
		}
		if err := CheckValue(upsert[n]); err != nil {
			col.Add("upsert."+n, "%v", err)
		}
	}
	for i, n := range remove {
		// Only the shape: a credential stored before its name was reserved
		// can still be removed.
		if err := checkNameShape(n); err != nil {
			col.Add(fmt.Sprintf("remove[%d]", i), "%v", err)
		} else if _, both := upsert[n]; both {
			col.Add(fmt.Sprintf("remove[%d]", i), "%s is also in upsert", n)
		}
	}
	return col.Err()
}

var unsafeFieldChars = regexp.MustCompile(`[^A-Za-z0-9_]`)

// safeFieldName keeps an invalid name readable in a field path without
// echoing arbitrary bytes back.
func safeFieldName(n string) string {
	if len(n) > maxNameLen {
		n = n[:maxNameLen]
	}
	return unsafeFieldChars.ReplaceAllString(n, "?")
}

// SecretsEnv decrypts the credentials and renders the environment file. A
// decryption failure is an internal error: the wrapper keeps what it has.
func (s *Service) SecretsEnv(ctx context.Context) ([]byte, string, error) {
	creds, err := s.vault.load(ctx, s.db)
	if err != nil {
		return nil, "", err
	}
	exports := renderExports(creds)
	hash := secretsHash(s.vault.hashKey, exports)
	return envDocument(exports, hash), hash, nil
}

var hashRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// maxReasonLen bounds the wrapper's rejection reason.
const maxReasonLen = 1000

// ReportApplied records the hashes the wrapper runs Traefik with and, when
// it went back from a configuration Traefik would not run, that one and why.
// It answers the resulting status.
func (s *Service) ReportApplied(ctx context.Context, configHash, secretsHash string, rejected *Rejection) (State, error) {
	var col apperr.Collector
	if !hashRE.MatchString(configHash) {
		col.Add("configHash", "must be 64 lower-case hex digits")
	}
	if !hashRE.MatchString(secretsHash) {
		col.Add("secretsHash", "must be 64 lower-case hex digits")
	}
	if rejected != nil {
		if !hashRE.MatchString(rejected.ConfigHash) {
			col.Add("rejected.configHash", "must be 64 lower-case hex digits")
		}
		if !hashRE.MatchString(rejected.SecretsHash) {
			col.Add("rejected.secretsHash", "must be 64 lower-case hex digits")
		}
		if len(rejected.Reason) > maxReasonLen {
			col.Add("rejected.reason", "must be at most %d characters", maxReasonLen)
		}
	}
	if err := col.Err(); err != nil {
		return State{}, err
	}
	now := s.o.Now()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		doc := appliedDoc{ConfigHash: configHash, SecretsHash: secretsHash, At: now}
		if err := store.PutConfig(ctx, tx, keyApplied, doc); err != nil {
			return err
		}
		if rejected == nil {
			return nil
		}
		r := *rejected
		r.At = now
		if r.Reason == "" {
			r.Reason = "Traefik did not start with it"
		}
		return store.PutConfig(ctx, tx, keyRejected, r)
	})
	if err != nil {
		return State{}, err
	}
	st, err := s.State(ctx)
	if err != nil {
		return State{}, err
	}
	s.o.Logger.Info("managed traefik reported its configuration", "status", st.Status)
	if s.o.Notify != nil {
		switch {
		case st.Status == StatusApplied:
			s.o.Notify.Publish(ctx, notify.ManagedAppliedEvent(configHash, secretsHash, now))
		case st.Status == StatusRejected && st.Rejection != nil:
			s.o.Notify.Publish(ctx, notify.ManagedRejectedEvent(st.Rejection.ConfigHash, st.Rejection.Reason, st.Rejection.At))
		}
	}
	return st, nil
}

// isDecryptError reports whether err means the stored credentials could not be decrypted.
func isDecryptError(err error) bool { return errors.Is(err, errDecrypt) }
