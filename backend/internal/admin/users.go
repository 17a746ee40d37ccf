package admin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Account is an administrator as the administrators page lists them.
type Account struct {
	ID       string     `json:"id"`
	Username string     `json:"username"`
	Role     actor.Role `json:"role"`
	Disabled bool       `json:"disabled"`
	// LastSignInAt is when the newest live session opened; nil when the
	// administrator has none (signed out, expired, or never signed in).
	LastSignInAt *time.Time `json:"lastSignInAt"`
	CreatedAt    time.Time  `json:"createdAt"`
}

// CreateUserRequest is POST /api/admin/users.
type CreateUserRequest struct {
	Username string     `json:"username"`
	Password string     `json:"password"`
	Role     actor.Role `json:"role"`
}

// UpdateUserRequest is PATCH /api/admin/users/{id}; absent fields stay.
type UpdateUserRequest struct {
	Role     *actor.Role `json:"role"`
	Disabled *bool       `json:"disabled"`
}

// SetPasswordRequest is PUT /api/admin/users/{id}/password.
type SetPasswordRequest struct {
	Password string `json:"password"`
}

// activeAdmins counts the administrators that can sign in with the admin
// role: the panel must always keep one.
const activeAdmins = "role = 'admin' AND disabled_at IS NULL"

// ListUsers returns every administrator, by username.
func (s *Service) ListUsers(ctx context.Context) ([]Account, error) {
	var rows []store.AdminUser
	db := s.db.WithContext(ctx)
	if err := db.Order("username").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list admins: %w", err)
	}
	last, err := s.lastSignIns(db, "")
	if err != nil {
		return nil, err
	}
	out := make([]Account, 0, len(rows))
	for _, r := range rows {
		out = append(out, toAccount(r, last))
	}
	return out, nil
}

// GetUser returns one administrator.
func (s *Service) GetUser(ctx context.Context, id string) (Account, error) {
	db := s.db.WithContext(ctx)
	row, err := findUser(db, id)
	if err != nil {
		return Account{}, err
	}
	last, err := s.lastSignIns(db, id)
	if err != nil {
		return Account{}, err
	}
	return toAccount(row, last), nil
}

// lastSignIns maps administrators to the opening time of their newest live
// session (only userID's when it is not empty). Live sessions are few (one
// per browser, twelve hours idle at most), so they are read whole rather
// than through MAX(), which hands back SQLite's stored text, not a time.
func (s *Service) lastSignIns(db *gorm.DB, userID string) (map[string]time.Time, error) {
	var rows []store.AdminSession
	q := db.Select("user_id", "created_at").Where("expires_at > ?", s.now())
	if userID != "" {
		q = q.Where("user_id = ?", userID)
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list admin sign-ins: %w", err)
	}
	out := make(map[string]time.Time, len(rows))
	for _, r := range rows {
		if at, ok := out[r.UserID]; !ok || r.CreatedAt.After(at) {
			out[r.UserID] = r.CreatedAt.UTC()
		}
	}
	return out, nil
}

func toAccount(r store.AdminUser, last map[string]time.Time) Account {
	a := Account{ID: r.ID, Username: r.Username, Role: actor.Role(r.Role), Disabled: r.DisabledAt != nil, CreatedAt: r.CreatedAt.UTC()}
	if at, ok := last[r.ID]; ok {
		a.LastSignInAt = &at
	}
	return a
}

func findUser(db *gorm.DB, id string) (store.AdminUser, error) {
	var row store.AdminUser
	err := db.Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return row, apperr.NotFound("administrator")
	}
	if err != nil {
		return row, fmt.Errorf("find admin %s: %w", id, err)
	}
	return row, nil
}

// CreateUser adds an administrator with a role.
func (s *Service) CreateUser(ctx context.Context, in CreateUserRequest) (Account, error) {
	var c apperr.Collector
	if !usernameRE.MatchString(in.Username) {
		c.Add("username", "must be 1-64 letters, digits or . _ @ -")
	}
	if msg := passwordProblem(in.Password); msg != "" {
		c.Add("password", "%s", msg)
	}
	if !in.Role.Valid() {
		c.Add("role", "must be admin or viewer")
	}
	if err := c.Err(); err != nil {
		return Account{}, err
	}
	u, err := s.create(s.db.WithContext(ctx), in.Username, in.Password, in.Role)
	if err != nil {
		return Account{}, err
	}
	s.changed(u.ID)
	return toAccount(u, nil), nil
}

// UpdateUser changes an administrator's role or disables or enables them.
// Disabling ends their sessions. The panel never loses its last active
// administrator with the admin role: the count and the write share one
// immediate transaction, so concurrent demotions cannot both pass it.
func (s *Service) UpdateUser(ctx context.Context, id string, in UpdateUserRequest) (Account, error) {
	if in.Role != nil && !in.Role.Valid() {
		return Account{}, apperr.Field("role", "must be admin or viewer")
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		row, err := findUser(tx, id)
		if err != nil {
			return err
		}
		updates := map[string]any{}
		if in.Role != nil && string(*in.Role) != row.Role {
			updates["role"] = string(*in.Role)
		}
		if in.Disabled != nil && *in.Disabled != (row.DisabledAt != nil) {
			if *in.Disabled {
				updates["disabled_at"] = s.now()
			} else {
				updates["disabled_at"] = nil
			}
		}
		if len(updates) == 0 {
			return nil
		}
		updates["updated_at"] = s.now()
		if err := tx.Model(&store.AdminUser{}).Where("id = ?", id).Updates(updates).Error; err != nil {
			return fmt.Errorf("update admin %s: %w", id, err)
		}
		field := "role"
		if _, ok := updates["disabled_at"]; ok {
			field = "disabled"
		}
		if err := keepOneAdmin(tx, field); err != nil {
			return err
		}
		if in.Disabled != nil && *in.Disabled {
			return endSessions(tx, id, "")
		}
		return nil
	})
	if err != nil {
		return Account{}, err
	}
	// Disabled administrators leave the basic-auth list in front of the
	// panel (managed mode); a new role changes nothing there, but the event
	// is cheap and keeps every listener current.
	s.changed(id)
	return s.GetUser(ctx, id)
}

// DeleteUser removes an administrator, their sessions and their API tokens.
func (s *Service) DeleteUser(ctx context.Context, id string) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Where("id = ?", id).Delete(&store.AdminUser{})
		if res.Error != nil {
			return fmt.Errorf("delete admin %s: %w", id, res.Error)
		}
		if res.RowsAffected == 0 {
			return apperr.NotFound("administrator")
		}
		return keepOneAdmin(tx, "id")
	})
	if err != nil {
		return err
	}
	s.bus.Publish(change.Event{Entity: change.Security, Kind: change.Deleted, ID: id})
	return nil
}

// SetUserPassword sets another administrator's password and ends all of
// their sessions.
func (s *Service) SetUserPassword(ctx context.Context, id, password string) error {
	if msg := passwordProblem(password); msg != "" {
		return apperr.Field("password", "%s", msg)
	}
	return s.setPassword(ctx, id, "", password)
}

// keepOneAdmin fails the transaction when its writes left no active
// administrator with the admin role; field names what the refused request
// changed.
func keepOneAdmin(tx *gorm.DB, field string) error {
	var n int64
	if err := tx.Model(&store.AdminUser{}).Where(activeAdmins).Count(&n).Error; err != nil {
		return fmt.Errorf("count active admins: %w", err)
	}
	if n == 0 {
		return apperr.Conflict(field, "the panel needs at least one active administrator with the admin role")
	}
	return nil
}
