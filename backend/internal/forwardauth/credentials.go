package forwardauth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// CredentialUserRequest is one basic-auth user as written by the API. An
// empty password on an existing user keeps the stored hash.
type CredentialUserRequest struct {
	Username string `json:"username" validate:"required,max=64"`
	Password string `json:"password" validate:"max=72"`
}

// CredentialSetRequest is the body of POST and PUT /api/credential-sets.
type CredentialSetRequest struct {
	Name  string                  `json:"name" validate:"required,max=100"`
	Users []CredentialUserRequest `json:"users" validate:"max=1000,dive"`
}

// CredentialUserResponse never carries the password or its hash.
type CredentialUserResponse struct {
	Username string `json:"username"`
}

// CredentialSetResponse is a credential set as the API shows it.
type CredentialSetResponse struct {
	ID        string                   `json:"id"`
	Name      string                   `json:"name"`
	Users     []CredentialUserResponse `json:"users"`
	CreatedAt time.Time                `json:"createdAt"`
	UpdatedAt time.Time                `json:"updatedAt"`
}

func toSetResponse(r store.CredentialSet) CredentialSetResponse {
	out := CredentialSetResponse{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Users: make([]CredentialUserResponse, len(r.Users))}
	for i, u := range r.Users {
		out.Users[i] = CredentialUserResponse{Username: u.Username}
	}
	return out
}

// ListCredentialSets returns every set, by name.
func (s *Service) ListCredentialSets(ctx context.Context) ([]CredentialSetResponse, error) {
	var rows []store.CredentialSet
	err := s.db.WithContext(ctx).Preload("Users", func(db *gorm.DB) *gorm.DB { return db.Order("username") }).
		Order("name").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list credential sets: %w", err)
	}
	out := make([]CredentialSetResponse, len(rows))
	for i, r := range rows {
		out[i] = toSetResponse(r)
	}
	return out, nil
}

// GetCredentialSet returns one set.
func (s *Service) GetCredentialSet(ctx context.Context, id string) (CredentialSetResponse, error) {
	var row store.CredentialSet
	err := s.db.WithContext(ctx).Preload("Users", func(db *gorm.DB) *gorm.DB { return db.Order("username") }).
		Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return CredentialSetResponse{}, apperr.NotFound("credential set")
	}
	if err != nil {
		return CredentialSetResponse{}, fmt.Errorf("load credential set: %w", err)
	}
	return toSetResponse(row), nil
}

// SaveCredentialSet creates (id "") or replaces a set and its users.
func (s *Service) SaveCredentialSet(ctx context.Context, id string, req CredentialSetRequest) (CredentialSetResponse, error) {
	req.Name = strings.TrimSpace(req.Name)
	if err := validateUsers(req); err != nil {
		return CredentialSetResponse{}, err
	}
	now := s.now()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		old := map[string]string{}
		row := store.CredentialSet{ID: id}
		if id == "" {
			row = store.CredentialSet{ID: store.NewID(), Name: req.Name, CreatedAt: now, UpdatedAt: now}
			if err := tx.Create(&row).Error; err != nil {
				return nameConflict(err, req.Name)
			}
			id = row.ID
		} else {
			var users []store.CredentialUser
			if err := tx.Where("set_id = ?", id).Find(&users).Error; err != nil {
				return fmt.Errorf("load credential users: %w", err)
			}
			for _, u := range users {
				old[u.Username] = u.PasswordHash
			}
			res := tx.Model(&store.CredentialSet{}).Where("id = ?", id).Updates(map[string]any{"name": req.Name, "updated_at": now})
			if res.Error != nil {
				return nameConflict(res.Error, req.Name)
			}
			if res.RowsAffected == 0 {
				return apperr.NotFound("credential set")
			}
			if err := tx.Where("set_id = ?", id).Delete(&store.CredentialUser{}).Error; err != nil {
				return fmt.Errorf("replace credential users: %w", err)
			}
		}
		for i, u := range req.Users {
			hash := old[u.Username]
			if u.Password != "" {
				b, err := bcrypt.GenerateFromPassword([]byte(u.Password), s.cost)
				if err != nil {
					return fmt.Errorf("hash password: %w", err)
				}
				hash = string(b)
			}
			if hash == "" {
				return apperr.Field(fmt.Sprintf("users[%d].password", i), "is required for a new user")
			}
			cu := store.CredentialUser{ID: store.NewID(), SetID: id, Username: u.Username, PasswordHash: hash, CreatedAt: now}
			if err := tx.Create(&cu).Error; err != nil {
				return fmt.Errorf("store credential user: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return CredentialSetResponse{}, err
	}
	s.afterCredentialChange(id)
	return s.GetCredentialSet(ctx, id)
}

// DeleteCredentialSet removes a set; services using it then deny everyone
// until another set is attached.
func (s *Service) DeleteCredentialSet(ctx context.Context, id string) error {
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&store.CredentialSet{})
	if res.Error != nil {
		return fmt.Errorf("delete credential set: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("credential set")
	}
	s.afterCredentialChange(id)
	return nil
}

func (s *Service) afterCredentialChange(id string) {
	s.publish(change.Event{Entity: change.Security, Kind: change.Updated, ID: id})
}

func validateUsers(req CredentialSetRequest) error {
	var c apperr.Collector
	if req.Name == "" {
		c.Add("name", "is required")
	}
	seen := map[string]int{}
	for i, u := range req.Users {
		if strings.ContainsAny(u.Username, ":") || strings.IndexFunc(u.Username, func(r rune) bool { return r < 0x21 || r == 0x7f }) >= 0 {
			c.Add(fmt.Sprintf("users[%d].username", i), "must not contain a colon, spaces or control characters")
		}
		if j, dup := seen[u.Username]; dup {
			c.Add(fmt.Sprintf("users[%d].username", i), "duplicates users[%d]", j)
		}
		seen[u.Username] = i
		if u.Password != "" && len(u.Password) < 8 {
			c.Add(fmt.Sprintf("users[%d].password", i), "must be at least 8 characters")
		}
	}
	return c.Err()
}

func nameConflict(err error, name string) error {
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return apperr.Conflict("name", "a credential set named %q already exists", name)
	}
	return fmt.Errorf("save credential set: %w", err)
}
