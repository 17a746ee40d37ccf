package machinetokens

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ValuePrefix starts every token value, so a leaked one is recognisable
// (and secret scanners can be taught it).
const ValuePrefix = "ght_"

// Directory answers what tokens need to know about services.
type Directory interface {
	// ServiceNames maps the ids that exist to their names.
	ServiceNames(ctx context.Context, ids []string) (map[string]string, error)
	// AcceptsTokens reports whether the service has the tokens protection on.
	AcceptsTokens(ctx context.Context, serviceID string) (bool, error)
}

// Service manages machine tokens.
type Service struct {
	db  *gorm.DB
	bus *change.Bus
	now func() time.Time
	dir Directory
	log *slog.Logger

	mu      sync.Mutex
	pending map[string]use // token id -> last use not yet written
}

type use struct {
	at   time.Time
	addr netip.Addr
}

// NewService returns the machine-token service.
func NewService(db *gorm.DB, bus *change.Bus, now func() time.Time, dir Directory, log *slog.Logger) *Service {
	if now == nil {
		now = store.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, bus: bus, now: now, dir: dir, log: log, pending: map[string]use{}}
}

func newValue() (string, error) {
	v, err := bearer.New()
	if err != nil {
		return "", err
	}
	return ValuePrefix + v, nil
}

// Create stores a new token and returns its value, once.
func (s *Service) Create(ctx context.Context, in CreateRequest) (Created, error) {
	now := s.now()
	if err := in.normalize(now); err != nil {
		return Created{}, err
	}
	names, err := s.dir.ServiceNames(ctx, in.ServiceIDs)
	if err != nil {
		return Created{}, err
	}
	var c apperr.Collector
	for i, id := range in.ServiceIDs {
		if _, ok := names[id]; !ok {
			c.Add(fmt.Sprintf("serviceIds[%d]", i), "no such service")
		}
	}
	if err := c.Err(); err != nil {
		return Created{}, err
	}
	value, err := newValue()
	if err != nil {
		return Created{}, err
	}
	row := store.MachineToken{
		ID: store.NewID(), Name: in.Name, TokenHash: bearer.Hash(value), Prefix: value[:len(ValuePrefix)+6],
		ScopePath: in.Scope.PathPrefix, ScopeMethods: store.NewJSON(in.Scope.Methods), ExpiresAt: in.ExpiresAt, CreatedAt: now,
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&store.MachineToken{}).Where("name = ?", row.Name).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return apperr.Conflict("name", "a machine token named %q already exists", row.Name)
		}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		for _, id := range in.ServiceIDs {
			if err := tx.Create(&store.MachineTokenService{TokenID: row.ID, ServiceID: id}).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		if _, ok := apperr.As(err); ok {
			return Created{}, err
		}
		return Created{}, fmt.Errorf("create machine token %q: %w", in.Name, err)
	}
	s.bus.Publish(change.Event{Entity: change.Access, Kind: change.Created, ID: row.ID})
	out := Created{Value: value, Warnings: []string{}}
	if out.Token, err = s.Get(ctx, row.ID); err != nil {
		return Created{}, err
	}
	for _, ref := range out.Token.Services {
		ok, err := s.dir.AcceptsTokens(ctx, ref.ID)
		if err != nil {
			return Created{}, err
		}
		if !ok {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s does not accept machine tokens yet: turn on its Machine tokens protection", ref.Name))
		}
	}
	return out, nil
}

// List returns every token, newest first, optionally only those that open serviceID.
func (s *Service) List(ctx context.Context, serviceID string) ([]Token, error) {
	db := s.db.WithContext(ctx)
	q := db.Order("created_at DESC, id DESC")
	if serviceID != "" {
		q = q.Where("id IN (?)", db.Model(&store.MachineTokenService{}).Select("token_id").Where("service_id = ?", serviceID))
	}
	var rows []store.MachineToken
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list machine tokens: %w", err)
	}
	return s.toDTOs(ctx, rows)
}

// Get returns one token.
func (s *Service) Get(ctx context.Context, id string) (Token, error) {
	var row store.MachineToken
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return Token{}, apperr.NotFound("machine token")
		}
		return Token{}, fmt.Errorf("read machine token %s: %w", id, err)
	}
	out, err := s.toDTOs(ctx, []store.MachineToken{row})
	if err != nil {
		return Token{}, err
	}
	return out[0], nil
}

func (s *Service) toDTOs(ctx context.Context, rows []store.MachineToken) ([]Token, error) {
	out := make([]Token, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var binds []store.MachineTokenService
	if err := s.db.WithContext(ctx).Where("token_id IN ?", ids).Find(&binds).Error; err != nil {
		return nil, fmt.Errorf("list machine token services: %w", err)
	}
	var svcIDs []string
	byToken := map[string][]string{}
	for _, b := range binds {
		byToken[b.TokenID] = append(byToken[b.TokenID], b.ServiceID)
		svcIDs = append(svcIDs, b.ServiceID)
	}
	names, err := s.dir.ServiceNames(ctx, svcIDs)
	if err != nil {
		return nil, err
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range rows {
		t := Token{ID: r.ID, Name: r.Name, Prefix: r.Prefix, Scope: Scope{PathPrefix: r.ScopePath, Methods: r.ScopeMethods.V},
			ExpiresAt: r.ExpiresAt, CreatedAt: r.CreatedAt, RevokedAt: r.RevokedAt, LastUsedAt: r.LastUsedAt,
			LastUsedAddress: r.LastUsedAddress, Services: []ServiceRef{}, Status: StatusActive}
		if t.Scope.Methods == nil {
			t.Scope.Methods = []string{}
		}
		if u, ok := s.pending[r.ID]; ok {
			t.LastUsedAt, t.LastUsedAddress = &u.at, addrString(u.addr)
		}
		for _, id := range byToken[r.ID] {
			t.Services = append(t.Services, ServiceRef{ID: id, Name: names[id]})
		}
		sort.Slice(t.Services, func(i, j int) bool { return t.Services[i].Name < t.Services[j].Name })
		switch {
		case r.RevokedAt != nil:
			t.Status = StatusRevoked
		case r.ExpiresAt != nil && !now.Before(*r.ExpiresAt):
			t.Status = StatusExpired
		}
		out = append(out, t)
	}
	return out, nil
}

// Revoke stops a token from working; it stays listed.
func (s *Service) Revoke(ctx context.Context, id string) (Token, error) {
	res := s.db.WithContext(ctx).Model(&store.MachineToken{}).Where("id = ? AND revoked_at IS NULL", id).Update("revoked_at", s.now())
	if res.Error != nil {
		return Token{}, fmt.Errorf("revoke machine token %s: %w", id, res.Error)
	}
	s.bus.Publish(change.Event{Entity: change.Access, Kind: change.Updated, ID: id})
	return s.Get(ctx, id)
}

// Delete removes a token.
func (s *Service) Delete(ctx context.Context, id string) error {
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&store.MachineToken{})
	if res.Error != nil {
		return fmt.Errorf("delete machine token %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("machine token")
	}
	s.bus.Publish(change.Event{Entity: change.Access, Kind: change.Deleted, ID: id})
	return nil
}

// Snapshot returns every token that is not revoked, by hash, for
// forward-auth's policy snapshot. Expiry is checked per request.
func (s *Service) Snapshot(ctx context.Context) (map[string]*Policy, error) {
	db := s.db.WithContext(ctx)
	var rows []store.MachineToken
	if err := db.Where("revoked_at IS NULL").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load machine tokens: %w", err)
	}
	var binds []store.MachineTokenService
	if err := db.Find(&binds).Error; err != nil {
		return nil, fmt.Errorf("load machine token services: %w", err)
	}
	byID := make(map[string]*Policy, len(rows))
	out := make(map[string]*Policy, len(rows))
	for _, r := range rows {
		p := &Policy{ID: r.ID, Name: r.Name, Services: map[string]bool{}, ScopePath: r.ScopePath,
			User: []string{"token:" + r.Name}}
		if len(r.ScopeMethods.V) > 0 {
			p.Methods = r.ScopeMethods.V
		}
		if r.ExpiresAt != nil {
			p.ExpiresAt = *r.ExpiresAt
		}
		byID[r.ID], out[r.TokenHash] = p, p
	}
	for _, b := range binds {
		if p := byID[b.TokenID]; p != nil {
			p.Services[b.ServiceID] = true
		}
	}
	return out, nil
}

// RecordUse notes a token's use; it is written by the flush loop, never on
// the request path.
func (s *Service) RecordUse(id string, at time.Time, addr netip.Addr) {
	s.mu.Lock()
	s.pending[id] = use{at: at, addr: addr}
	s.mu.Unlock()
}

// Loop writes last-use times every interval until ctx ends, then once more.
func (s *Service) Loop(interval time.Duration) func(ctx context.Context) {
	return func(ctx context.Context) {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				s.flush(context.WithoutCancel(ctx))
				return
			case <-t.C:
				s.flush(ctx)
			}
		}
	}
}

func (s *Service) flush(ctx context.Context) {
	s.mu.Lock()
	batch := s.pending
	s.pending = map[string]use{}
	s.mu.Unlock()
	for id, u := range batch {
		err := s.db.WithContext(ctx).Model(&store.MachineToken{}).Where("id = ?", id).
			Updates(map[string]any{"last_used_at": u.at, "last_used_address": addrString(u.addr)}).Error
		if err != nil {
			s.log.Warn("record machine token use", "token_id", id, "err", err)
		}
	}
}

// Allows reports whether p opens serviceID for this method and request
// URI at now. The scope is matched narrowly, like an allow rule.
func (p *Policy) Allows(serviceID, method, uri string, now time.Time) bool {
	if !p.Services[serviceID] || (!p.ExpiresAt.IsZero() && !now.Before(p.ExpiresAt)) {
		return false
	}
	if p.Methods != nil && !slices.Contains(p.Methods, method) {
		return false
	}
	return p.ScopePath == "" || rules.UnderPrefix(uri, p.ScopePath)
}

func addrString(a netip.Addr) string {
	if !a.IsValid() {
		return ""
	}
	return a.String()
}

// LooksLikeToken reports a value with the token prefix, so verify can skip
// hashing ordinary passwords.
func LooksLikeToken(v string) bool { return strings.HasPrefix(v, ValuePrefix) }
