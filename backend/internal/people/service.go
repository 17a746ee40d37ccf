// Package people is the directory of the people Gatehouse knows and their
// groups. Administrators are people with a panel role; what proves who a
// person is (passwords, second factors, sessions) stays in internal/admin,
// which this package asks through Accounts.
package people

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Accounts is the sign-in side of a person, owned by internal/admin.
type Accounts interface {
	HashPassword(password string) (string, error)
	SetPassword(ctx context.Context, personID, password string) error
	ResetSecondFactor(ctx context.Context, personID string) error
	FactorsOf(ctx context.Context, ids []string) (map[string]admin.Factors, error)
	LastSignIns(ctx context.Context, ids []string) (map[string]time.Time, error)
	// PersonSessions, EndPersonSession and EndAllSessions see and end a
	// person's sessions on the panel and on the portal; SessionsEnded ends
	// the service sessions opened from portal sessions a transaction of
	// this package ended (admin.EndSessionsTx).
	PersonSessions(ctx context.Context, personID string) ([]admin.Session, error)
	EndPersonSession(ctx context.Context, personID, id string) error
	EndAllSessions(ctx context.Context, personID string) error
	SessionsEnded(ctx context.Context, ended admin.EndedSessions)
}

// ServiceSessions are a person's single sign-on sessions on the proxied
// services, owned by internal/forwardauth: they belong to the person linked
// to the provider's identity (issuer and subject).
type ServiceSessions interface {
	IdentitySessions(ctx context.Context, issuer, subject string) ([]forwardauth.SessionResponse, error)
	EndIdentitySessions(ctx context.Context, issuer, subject, id string) error
	// PersonSessions and EndPersonSessions are the sessions the people
	// protection opened for the person, on every service and replica.
	PersonSessions(ctx context.Context, personID string) ([]forwardauth.SessionResponse, error)
	EndPersonSessions(ctx context.Context, personID, id string) error
}

// Service manages people and groups.
type Service struct {
	db       *gorm.DB
	now      func() time.Time
	bus      *change.Bus
	accounts Accounts
	services ServiceSessions
}

// Deps are the Service's collaborators; DB and Accounts are required.
type Deps struct {
	DB       *gorm.DB
	Now      func() time.Time
	Bus      *change.Bus // hears when people change (the managed panel router counts them)
	Accounts Accounts
	// Services lists and ends a person's sessions on the proxied services;
	// without it a person has panel sessions only.
	Services ServiceSessions
}

// NewService returns a people service.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = store.Now
	}
	return &Service{db: d.DB, now: d.Now, bus: d.Bus, accounts: d.Accounts, services: d.Services}
}

// activeAdmins are the people who can sign in with the admin role: the
// panel must always keep one.
const activeAdmins = "panel_role = 'admin' AND disabled_at IS NULL"

// List returns one page of people, by username.
func (s *Service) List(ctx context.Context, q ListQuery) (Page, error) {
	q, err := normalQuery(q)
	if err != nil {
		return Page{}, err
	}
	db := s.db.WithContext(ctx).Model(&store.Person{})
	if q.Q != "" {
		cond, args := searchCondition(q.Q)
		db = db.Where(cond, args...)
	}
	if q.PanelRole != "" {
		db = db.Where("panel_role = ?", q.PanelRole)
	}
	if q.GroupID != "" {
		db = db.Where("id IN (SELECT person_id FROM people_group_members WHERE group_id = ?)", q.GroupID)
	}
	var total int64
	if err := db.Count(&total).Error; err != nil {
		return Page{}, fmt.Errorf("count people: %w", err)
	}
	var rows []store.Person
	if err := db.Order("username").Limit(q.Limit).Offset(q.Offset).Find(&rows).Error; err != nil {
		return Page{}, fmt.Errorf("list people: %w", err)
	}
	items, err := s.view(ctx, rows)
	if err != nil {
		return Page{}, err
	}
	return Page{Items: items, Total: total, Limit: q.Limit, Offset: q.Offset}, nil
}

// Get returns one person.
func (s *Service) Get(ctx context.Context, id string) (Person, error) {
	row, err := findPerson(s.db.WithContext(ctx), id)
	if err != nil {
		return Person{}, err
	}
	out, err := s.view(ctx, []store.Person{row})
	if err != nil {
		return Person{}, err
	}
	return out[0], nil
}

// view adds groups, factors and last sign-ins to rows.
func (s *Service) view(ctx context.Context, rows []store.Person) ([]Person, error) {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	groups, err := groupsOf(s.db.WithContext(ctx), ids)
	if err != nil {
		return nil, err
	}
	factors, err := s.accounts.FactorsOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	last, err := s.accounts.LastSignIns(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Person, len(rows))
	for i, r := range rows {
		p := Person{ID: r.ID, Username: r.Username, Email: r.Email, DisplayName: r.DisplayName, PanelRole: r.PanelRole,
			Enabled: r.DisabledAt == nil, Groups: groups[r.ID], Factors: factors[r.ID],
			CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
		if p.Groups == nil {
			p.Groups = []GroupRef{}
		}
		if at, ok := last[r.ID]; ok {
			p.LastSignInAt = &at
		}
		out[i] = p
	}
	return out, nil
}

func groupsOf(db *gorm.DB, ids []string) (map[string][]GroupRef, error) {
	out := map[string][]GroupRef{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		PersonID string
		ID       string
		Name     string
	}
	err := db.Table("people_group_members m").Select("m.person_id, g.id, g.name").
		Joins("JOIN people_groups g ON g.id = m.group_id").Where("m.person_id IN ?", ids).
		Order("g.name").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list memberships: %w", err)
	}
	for _, r := range rows {
		out[r.PersonID] = append(out[r.PersonID], GroupRef{ID: r.ID, Name: r.Name})
	}
	return out, nil
}

func findPerson(db *gorm.DB, id string) (store.Person, error) {
	var row store.Person
	if len(id) > 64 {
		return row, apperr.NotFound("person")
	}
	err := db.Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return row, apperr.NotFound("person")
	}
	if err != nil {
		return row, fmt.Errorf("find person %s: %w", id, err)
	}
	return row, nil
}

// Create adds a person.
func (s *Service) Create(ctx context.Context, in CreateRequest) (Person, error) {
	var c apperr.Collector
	checkUsername(&c, in.Username)
	in.Email = normalEmail(&c, in.Email)
	in.DisplayName = normalDisplayName(&c, in.DisplayName)
	checkPanelRole(&c, in.PanelRole)
	if in.Password != "" {
		if msg := admin.PasswordProblem(in.Password); msg != "" {
			c.Add("password", "%s", msg)
		}
	}
	checkGroupIDs(&c, in.Groups)
	if err := c.Err(); err != nil {
		return Person{}, err
	}
	hash := ""
	if in.Password != "" {
		var err error
		if hash, err = s.accounts.HashPassword(in.Password); err != nil {
			return Person{}, err
		}
	}
	now := s.now()
	row := store.Person{ID: store.NewID(), Username: in.Username, PasswordHash: hash, PanelRole: in.PanelRole,
		Email: in.Email, DisplayName: in.DisplayName, CreatedAt: now, UpdatedAt: now}
	if in.Enabled != nil && !*in.Enabled {
		row.DisabledAt = &now
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := unique(tx, row); err != nil {
			return err
		}
		if err := tx.Create(&row).Error; err != nil {
			return s.writeError(err, row)
		}
		return setGroups(tx, row.ID, in.Groups, now)
	})
	if err != nil {
		return Person{}, err
	}
	s.changed(row.ID, change.Created)
	return s.Get(ctx, row.ID)
}

// unique refuses a username or e-mail another person holds, naming the
// field (the unique indexes stay the last word under concurrent writes).
func unique(tx *gorm.DB, p store.Person) error {
	var n int64
	if err := tx.Model(&store.Person{}).Where("username = ? AND id <> ?", p.Username, p.ID).Count(&n).Error; err != nil {
		return fmt.Errorf("check username: %w", err)
	}
	if n > 0 {
		return apperr.Conflict("username", "a person named %q already exists", p.Username)
	}
	if p.Email == "" {
		return nil
	}
	if err := tx.Model(&store.Person{}).Where("email <> '' AND lower(email) = lower(?) AND id <> ?", p.Email, p.ID).
		Count(&n).Error; err != nil {
		return fmt.Errorf("check e-mail: %w", err)
	}
	if n > 0 {
		return apperr.Conflict("email", "another person has this e-mail address")
	}
	return nil
}

func (s *Service) writeError(err error, p store.Person) error {
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return apperr.Conflict("username", "a person named %q or with this e-mail address already exists", p.Username)
	}
	return fmt.Errorf("write person %q: %w", p.Username, err)
}

// setGroups makes ids the person's groups.
func setGroups(tx *gorm.DB, personID string, ids []string, now time.Time) error {
	if err := tx.Where("person_id = ?", personID).Delete(&store.GroupMember{}).Error; err != nil {
		return fmt.Errorf("clear memberships: %w", err)
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		var n int64
		if err := tx.Model(&store.Group{}).Where("id = ?", id).Count(&n).Error; err != nil {
			return fmt.Errorf("find group: %w", err)
		}
		if n == 0 {
			return apperr.Field(fmt.Sprintf("groups[%d]", i), "no such group")
		}
		if err := tx.Create(&store.GroupMember{GroupID: id, PersonID: personID, CreatedAt: now}).Error; err != nil {
			return fmt.Errorf("add membership: %w", err)
		}
	}
	return nil
}

// Update changes a person. Disabling them, or taking away their panel
// role, ends their sessions. The panel never loses its last enabled
// administrator with the admin role, and an administrator never disables,
// deletes or removes the panel role of themselves: the count and the write
// share one immediate transaction, so concurrent changes cannot both pass.
func (s *Service) Update(ctx context.Context, id string, in UpdateRequest) (Person, error) {
	var c apperr.Collector
	if in.Username != nil {
		checkUsername(&c, *in.Username)
	}
	if in.Email != nil {
		*in.Email = normalEmail(&c, *in.Email)
	}
	if in.DisplayName != nil {
		*in.DisplayName = normalDisplayName(&c, *in.DisplayName)
	}
	if in.PanelRole != nil {
		checkPanelRole(&c, *in.PanelRole)
	}
	if in.Groups != nil {
		checkGroupIDs(&c, *in.Groups)
	}
	if err := c.Err(); err != nil {
		return Person{}, err
	}
	self := isSelf(ctx, id)
	if self && in.Enabled != nil && !*in.Enabled {
		return Person{}, apperr.Conflict("enabled", "you cannot disable yourself")
	}
	if self && in.PanelRole != nil && *in.PanelRole == store.PanelRoleNone {
		return Person{}, apperr.Conflict("panelRole", "you cannot take away your own panel role")
	}
	var signOut, disabled bool
	var identity store.Person
	var ended admin.EndedSessions
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := findPerson(tx, id)
		if err != nil {
			return err
		}
		now := s.now()
		field := ""
		if in.Username != nil {
			row.Username = *in.Username
		}
		if in.Email != nil {
			row.Email = *in.Email
		}
		if in.DisplayName != nil {
			row.DisplayName = *in.DisplayName
		}
		if in.PanelRole != nil && *in.PanelRole != row.PanelRole {
			signOut = signOut || *in.PanelRole == store.PanelRoleNone
			row.PanelRole, field = *in.PanelRole, "panelRole"
		}
		if in.Enabled != nil && *in.Enabled != (row.DisabledAt == nil) {
			if *in.Enabled {
				row.DisabledAt = nil
			} else {
				row.DisabledAt, signOut, disabled = &now, true, true
			}
			field = "enabled"
		}
		if err := unique(tx, row); err != nil {
			return err
		}
		identity = row
		row.UpdatedAt = now
		if err := tx.Select("username", "email", "display_name", "panel_role", "disabled_at", "updated_at").
			Updates(&row).Error; err != nil {
			return s.writeError(err, row)
		}
		if in.Groups != nil {
			if err := setGroups(tx, id, *in.Groups, now); err != nil {
				return err
			}
		}
		if field != "" {
			if err := keepOneAdmin(tx, field); err != nil {
				return err
			}
		}
		if signOut {
			ended, err = admin.EndSessionsTx(tx, id)
			return err
		}
		return nil
	})
	if err != nil {
		return Person{}, err
	}
	s.accounts.SessionsEnded(ctx, ended)
	s.changed(id, change.Updated)
	// A disabled person keeps no session on any service either.
	if disabled {
		if err := s.endServiceSessions(ctx, identity, ""); err != nil {
			return Person{}, err
		}
	}
	return s.Get(ctx, id)
}

// Delete removes a person with their sessions, factors, API tokens and
// memberships.
func (s *Service) Delete(ctx context.Context, id string) error {
	if isSelf(ctx, id) {
		return apperr.Conflict("id", "you cannot delete yourself")
	}
	var gone store.Person
	var ended admin.EndedSessions
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if gone, err = findPerson(tx, id); err != nil {
			return err
		}
		// Ended here rather than by the foreign key's cascade, so the
		// service sessions opened from the portal's end with them.
		if ended, err = admin.EndSessionsTx(tx, id); err != nil {
			return err
		}
		res := tx.Where("id = ?", id).Delete(&store.Person{})
		if res.Error != nil {
			return fmt.Errorf("delete person %s: %w", id, res.Error)
		}
		if res.RowsAffected == 0 {
			return apperr.NotFound("person")
		}
		return keepOneAdmin(tx, "id")
	})
	if err != nil {
		return err
	}
	s.accounts.SessionsEnded(ctx, ended)
	s.changed(id, change.Deleted)
	return s.endServiceSessions(ctx, gone, "")
}

// SetPassword sets a person's password and ends all of their sessions.
func (s *Service) SetPassword(ctx context.Context, id, password string) error {
	if _, err := findPerson(s.db.WithContext(ctx), id); err != nil {
		return err
	}
	return s.accounts.SetPassword(ctx, id, password)
}

// ResetSecondFactor removes a person's TOTP, passkeys and recovery codes
// and ends their sessions.
func (s *Service) ResetSecondFactor(ctx context.Context, id string) error {
	if _, err := findPerson(s.db.WithContext(ctx), id); err != nil {
		return err
	}
	return s.accounts.ResetSecondFactor(ctx, id)
}

// Sessions lists a person's live sessions.
func (s *Service) Sessions(ctx context.Context, id string) ([]admin.Session, error) {
	if _, err := findPerson(s.db.WithContext(ctx), id); err != nil {
		return nil, err
	}
	return s.accounts.PersonSessions(ctx, id)
}

// EndSession ends one of a person's sessions.
func (s *Service) EndSession(ctx context.Context, id, sessionID string) error {
	if len(sessionID) > 64 {
		return apperr.NotFound("session")
	}
	return s.accounts.EndPersonSession(ctx, id, sessionID)
}

// EndSessions ends every session of a person: on the panel, on the portal
// and on every service.
func (s *Service) EndSessions(ctx context.Context, id string) error {
	p, err := findPerson(s.db.WithContext(ctx), id)
	if err != nil {
		return err
	}
	if err := s.accounts.EndAllSessions(ctx, id); err != nil {
		return err
	}
	return s.endServiceSessions(ctx, p, "")
}

// ServiceSessions lists a person's single sign-on sessions on the proxied
// services: those of the provider's identity the person is linked to.
func (s *Service) ServiceSessions(ctx context.Context, id string) ([]forwardauth.SessionResponse, error) {
	p, err := findPerson(s.db.WithContext(ctx), id)
	if err != nil {
		return nil, err
	}
	if s.services == nil {
		return []forwardauth.SessionResponse{}, nil
	}
	sso, err := s.services.IdentitySessions(ctx, p.SSOIssuer, p.SSOSubject)
	if err != nil {
		return nil, err
	}
	own, err := s.services.PersonSessions(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := append(own, sso...)
	slices.SortStableFunc(out, func(a, b forwardauth.SessionResponse) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return out, nil
}

// EndServiceSession ends one of a person's sessions on a service.
func (s *Service) EndServiceSession(ctx context.Context, id, sessionID string) error {
	p, err := findPerson(s.db.WithContext(ctx), id)
	if err != nil {
		return err
	}
	if sessionID == "" || len(sessionID) > 64 || s.services == nil {
		return apperr.NotFound("session")
	}
	return s.endServiceSessions(ctx, p, sessionID)
}

func (s *Service) endServiceSessions(ctx context.Context, p store.Person, sessionID string) error {
	if s.services == nil {
		return nil
	}
	if sessionID == "" {
		if err := s.services.EndPersonSessions(ctx, p.ID, ""); err != nil {
			return err
		}
		return s.services.EndIdentitySessions(ctx, p.SSOIssuer, p.SSOSubject, "")
	}
	err := s.services.EndPersonSessions(ctx, p.ID, sessionID)
	if apperr.IsCode(err, apperr.CodeNotFound) {
		return s.services.EndIdentitySessions(ctx, p.SSOIssuer, p.SSOSubject, sessionID)
	}
	return err
}

// keepOneAdmin fails the transaction when its writes left no enabled
// person with the admin role; field names what the refused request changed.
func keepOneAdmin(tx *gorm.DB, field string) error {
	var n int64
	if err := tx.Model(&store.Person{}).Where(activeAdmins).Count(&n).Error; err != nil {
		return fmt.Errorf("count active admins: %w", err)
	}
	if n == 0 {
		return apperr.Conflict(field, "the panel needs at least one enabled person with the admin role")
	}
	return nil
}

// isSelf reports whether the request's actor is the person id signed in.
func isSelf(ctx context.Context, id string) bool {
	a, ok := actor.From(ctx)
	return ok && a.Kind == actor.KindAdmin && a.ID == id
}

// changed tells the rest of the panel that a person changed: the dynamic
// configuration counts the people who may use the panel on every rebuild.
func (s *Service) changed(id string, kind change.Kind) {
	s.bus.Publish(change.Event{Entity: change.Security, Kind: kind, ID: id})
}
