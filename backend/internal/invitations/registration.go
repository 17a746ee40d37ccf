package invitations

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Kinds of invitation rows.
const (
	KindInvitation   = "invitation"
	KindRegistration = "registration"
)

// Self-registration modes.
const (
	RegistrationOff     = "off"
	RegistrationDomains = "domains"
)

// Self-registration bounds and limits.
const (
	// RegistrationTTL is how long a registration link works.
	RegistrationTTL       = 24 * time.Hour
	MaxRegistrationDomain = 64
	MaxDomainLength       = 253
	MaxRegistrationGroups = 32
	RegistrationsPerEmail = 3
	RegistrationsPerIP    = 10
	// registrationBy is who the invitations list says made the link.
	registrationBy = "self-registration"
)

var domainRE = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$`)

func (s *Service) loadRegistration(ctx context.Context) (RegistrationSettings, error) {
	var row store.RegistrationSettings
	err := s.db.WithContext(ctx).Where("id = 1").Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return RegistrationSettings{Mode: RegistrationOff, Domains: []string{}, Groups: []string{}}, nil
	}
	if err != nil {
		return RegistrationSettings{}, fmt.Errorf("read registration settings: %w", err)
	}
	out := RegistrationSettings{Mode: row.Mode, Domains: row.Domains.V, Groups: row.GroupIDs.V}
	if out.Domains == nil {
		out.Domains = []string{}
	}
	if out.Groups == nil {
		out.Groups = []string{}
	}
	return out, nil
}

// RegistrationSettings returns the self-registration settings.
func (s *Service) RegistrationSettings(ctx context.Context) (RegistrationSettings, error) {
	return s.loadRegistration(ctx)
}

// SetRegistrationSettings validates and saves the self-registration
// settings; default groups must exist.
func (s *Service) SetRegistrationSettings(ctx context.Context, in RegistrationSettings) (RegistrationSettings, error) {
	var c apperr.Collector
	if in.Mode != RegistrationOff && in.Mode != RegistrationDomains {
		c.Add("mode", "must be %q or %q", RegistrationOff, RegistrationDomains)
	}
	domains := normalDomains(&c, in.Domains)
	if in.Mode == RegistrationDomains && len(in.Domains) == 0 {
		c.Add("domains", "list at least one domain")
	}
	if len(in.Groups) > MaxRegistrationGroups {
		c.Add("groups", "must list at most %d groups", MaxRegistrationGroups)
		in.Groups = nil
	}
	groups := []string{}
	for i, id := range in.Groups {
		var n int64
		if id == "" || len(id) > 64 {
			c.Add(fmt.Sprintf("groups[%d]", i), "no such group")
			continue
		}
		if err := s.db.WithContext(ctx).Model(&store.Group{}).Where("id = ?", id).Count(&n).Error; err != nil {
			return RegistrationSettings{}, fmt.Errorf("find group: %w", err)
		}
		if n == 0 {
			c.Add(fmt.Sprintf("groups[%d]", i), "no such group")
			continue
		}
		groups = append(groups, id)
	}
	if err := c.Err(); err != nil {
		return RegistrationSettings{}, err
	}
	before, err := s.loadRegistration(ctx)
	if err != nil {
		return RegistrationSettings{}, err
	}
	row := store.RegistrationSettings{ID: 1, Mode: in.Mode, Domains: store.NewJSON(domains),
		GroupIDs: store.NewJSON(groups), UpdatedAt: s.now()}
	if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{UpdateAll: true}).Create(&row).Error; err != nil {
		return RegistrationSettings{}, fmt.Errorf("save registration settings: %w", err)
	}
	out := RegistrationSettings{Mode: in.Mode, Domains: domains, Groups: groups}
	audit.Changed(ctx, before, out)
	return out, nil
}

// normalDomains folds and checks the listed domains, naming each refused
// one by its index (domains[i]).
func normalDomains(c *apperr.Collector, in []string) []string {
	domains := []string{}
	if len(in) > MaxRegistrationDomain {
		c.Add("domains", "must list at most %d domains", MaxRegistrationDomain)
		return domains
	}
	seen := map[string]bool{}
	for i, d := range in {
		d = strings.ToLower(strings.TrimSpace(d))
		switch {
		case d == "":
			c.Add(fmt.Sprintf("domains[%d]", i), "is required")
		case len(d) > MaxDomainLength || !domainRE.MatchString(d):
			c.Add(fmt.Sprintf("domains[%d]", i), "must be a domain name such as example.com")
		case seen[d]:
			c.Add(fmt.Sprintf("domains[%d]", i), "is listed twice")
		default:
			seen[d] = true
			domains = append(domains, d)
		}
	}
	return domains
}

// RegistrationOpen says whether a visitor may register: the mode lists
// domains, mail can be sent and links have an address.
func (s *Service) RegistrationOpen(ctx context.Context) bool {
	set, err := s.loadRegistration(ctx)
	if err != nil || set.Mode != RegistrationDomains || len(set.Domains) == 0 {
		return false
	}
	if _, err := s.base(ctx); err != nil {
		return false
	}
	return s.ResetAvailable(ctx)
}

// Register asks for a registration link. The answer is the same whether
// the username and address are free, taken or outside the listed domains:
// the checks and the mail happen off the request.
func (s *Service) Register(ctx context.Context, in RegisterRequest, ip string) error {
	if !s.RegistrationOpen(ctx) {
		return apperr.NotFound("self-registration")
	}
	var c apperr.Collector
	people.CheckUsername(&c, in.Username)
	email := people.NormalEmail(&c, in.Email)
	if email == "" {
		c.Add("email", "is required")
	}
	if err := c.Err(); err != nil {
		return err
	}
	key := strings.ToLower(email)
	if blocked, wait := s.limits.regEmail.Blocked(key); blocked {
		return apperr.RateLimited("Too many links were asked for this address. Wait and try again.", wait)
	}
	if blocked, wait := s.limits.regIP.Blocked(ip); blocked {
		return apperr.RateLimited("Too many links were asked from your network. Wait and try again.", wait)
	}
	s.limits.regEmail.Fail(key)
	s.limits.regIP.Fail(ip)
	select {
	case s.slots <- struct{}{}:
	default:
		s.log.Warn("registration link not sent: too many mails in flight")
		return nil
	}
	go func() {
		defer func() { <-s.slots }()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := s.sendRegistration(ctx, in.Username, email); err != nil {
			s.log.Warn("registration link not sent", "err", err)
		}
	}()
	return nil
}

func domainOf(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return ""
	}
	return strings.ToLower(email[at+1:])
}

// sendRegistration creates the invitation a registration is: the person
// disabled, with panel role none and the default groups, enabled by the
// accept path when the link is used. A username or address already taken
// ends here, silently. Expired registrations give their names back first.
func (s *Service) sendRegistration(ctx context.Context, username, email string) error {
	set, err := s.loadRegistration(ctx)
	if err != nil || set.Mode != RegistrationDomains {
		return err
	}
	listed := false
	for _, d := range set.Domains {
		if d == domainOf(email) {
			listed = true
		}
	}
	if !listed {
		return nil
	}
	s.purgeRegistrations(ctx)
	base, err := s.base(ctx)
	if err != nil {
		return err
	}
	off := false
	p, err := s.people.Create(ctx, people.CreateRequest{Username: username, Email: email,
		PanelRole: "none", Enabled: &off, Groups: set.Groups})
	if apperr.IsCode(err, apperr.CodeConflict) || apperr.IsCode(err, apperr.CodeValidationFailed) {
		return nil // taken (or a default group went away): no mail, same answer
	}
	if err != nil {
		return err
	}
	tok, err := bearer.New()
	if err != nil {
		_ = s.people.Delete(ctx, p.ID)
		return err
	}
	now := s.now()
	row := store.Invitation{ID: store.NewID(), TokenHash: bearer.Hash(tok), PersonID: &p.ID, Username: p.Username,
		Email: p.Email, CreatedBy: registrationBy, Kind: KindRegistration, ExpiresAt: now.Add(RegistrationTTL), CreatedAt: now}
	if err := s.db.WithContext(ctx).Create(&row).Error; err != nil {
		_ = s.people.Delete(ctx, p.ID)
		return fmt.Errorf("store registration: %w", err)
	}
	return s.mailer.SendMail(ctx, registrationMail(p, base+"/register/"+tok, row.ExpiresAt))
}

// purgeRegistrations removes the never-enabled people of expired
// registration links, so an unused link does not hold a username.
func (s *Service) purgeRegistrations(ctx context.Context) {
	var rows []store.Invitation
	if err := s.db.WithContext(ctx).Where("kind = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at <= ? AND person_id IS NOT NULL",
		KindRegistration, s.now()).Limit(100).Find(&rows).Error; err != nil {
		s.log.Warn("expired registrations not purged", "err", err)
		return
	}
	for _, r := range rows {
		if err := s.people.Delete(ctx, *r.PersonID); err != nil && !apperr.IsCode(err, apperr.CodeNotFound) {
			s.log.Warn("expired registration not purged", "invitation", r.ID, "err", err)
		}
	}
}
