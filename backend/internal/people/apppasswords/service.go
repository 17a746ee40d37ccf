// Package apppasswords keeps people's app passwords: named, revocable
// passwords for clients that can only do basic auth (CalDAV, WebDAV,
// mail-style apps). A request that presents one carries the person's
// identity and groups, unlike a machine token.
//
// The secret is 256 random bits made by the panel, stored as its SHA-256
// (bearer.Hash), so checking one is a hash and a lookup, never bcrypt.
// Positive answers are cached by that hash; every change that can revoke
// one (an app password revoked, a person disabled, changed or deleted, any
// event of another replica) drops the cache from the change bus, so a
// revoked or disabled person's password stops working from the next
// request on.
package apppasswords

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Limits.
const (
	MaxName      = 64
	MaxPerPerson = 50
	// maxSecret bounds what a client may present before it is hashed.
	maxSecret   = 256
	maxUsername = 64
	// touchEvery is how often a cached password's last use is written.
	touchEvery = 5 * time.Minute
)

// EntityID prefixes the change event's ID of an app password.
const EntityID = "app-password:"

// AppPassword is one app password as the API shows it (never its secret).
type AppPassword struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
}

// Created is an app password with its secret, shown once.
type Created struct {
	AppPassword
	Secret string `json:"secret"`
}

// Service stores and checks app passwords.
type Service struct {
	db  *gorm.DB
	bus *change.Bus
	now func() time.Time

	mu    sync.RWMutex
	gen   uint64
	cache map[string]*entry // by secret hash
}

type entry struct {
	id, personID, username string
	touched                time.Time
}

// Deps are the Service's collaborators.
type Deps struct {
	DB  *gorm.DB
	Bus *change.Bus
	Now func() time.Time
}

// NewService returns the service and subscribes its cache to the bus.
func NewService(d Deps) *Service {
	if d.Now == nil {
		d.Now = store.Now
	}
	s := &Service{db: d.DB, bus: d.Bus, now: d.Now, cache: map[string]*entry{}}
	if d.Bus != nil {
		d.Bus.Subscribe(s.onChange)
	}
	return s
}

// onChange drops every cached answer on any change that may revoke one:
// people and their credentials publish Security events.
func (s *Service) onChange(e change.Event) {
	if e.Entity != change.Security && e.Entity != change.All {
		return
	}
	s.mu.Lock()
	s.gen++
	clear(s.cache)
	s.mu.Unlock()
}

// CheckAppPassword returns the person whose app password secret is, when
// username is theirs and they are enabled; ok is false otherwise.
func (s *Service) CheckAppPassword(ctx context.Context, username, secret string) (string, bool, error) {
	if username == "" || secret == "" || len(username) > maxUsername || len(secret) > maxSecret {
		return "", false, nil
	}
	h := bearer.Hash(secret)
	s.mu.RLock()
	e, gen := s.cache[h], s.gen
	s.mu.RUnlock()
	if e != nil {
		if !strings.EqualFold(e.username, username) {
			return "", false, nil
		}
		if now := s.now(); now.Sub(e.touched) >= touchEvery {
			s.touch(ctx, e, now)
		}
		return e.personID, true, nil
	}
	var row struct {
		ID, PersonID, Username string
	}
	err := s.db.WithContext(ctx).Table("app_passwords a").Select("a.id, a.person_id, p.username").
		Joins("JOIN people p ON p.id = a.person_id").
		Where("a.secret_hash = ? AND p.disabled_at IS NULL", h).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("check app password: %w", err)
	}
	if !strings.EqualFold(row.Username, username) {
		return "", false, nil
	}
	e = &entry{id: row.ID, personID: row.PersonID, username: row.Username}
	s.touch(ctx, e, s.now())
	s.mu.Lock()
	// A change published while the row was read may have revoked it: cache
	// only what was read in the current generation.
	if s.gen == gen {
		s.cache[h] = e
	}
	s.mu.Unlock()
	return row.PersonID, true, nil
}

// touch records the password's last use; a failure only loses that.
func (s *Service) touch(ctx context.Context, e *entry, now time.Time) {
	s.mu.Lock()
	e.touched = now
	s.mu.Unlock()
	_ = s.db.WithContext(ctx).Model(&store.AppPassword{}).Where("id = ?", e.id).Update("last_used_at", now).Error
}

// List returns a person's app passwords, newest first.
func (s *Service) List(ctx context.Context, personID string) ([]AppPassword, error) {
	var rows []store.AppPassword
	if err := s.db.WithContext(ctx).Where("person_id = ?", personID).Order("created_at DESC, id DESC").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list app passwords: %w", err)
	}
	out := make([]AppPassword, 0, len(rows))
	for _, r := range rows {
		out = append(out, view(r))
	}
	return out, nil
}

func view(r store.AppPassword) AppPassword {
	return AppPassword{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt, LastUsedAt: r.LastUsedAt}
}

// Create makes an app password for a person and returns its secret, once.
func (s *Service) Create(ctx context.Context, personID, name string) (Created, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxName || !printable(name) {
		return Created{}, apperr.Field("name", "must be 1 to %d printable characters", MaxName)
	}
	secret, err := bearer.New()
	if err != nil {
		return Created{}, err
	}
	row := store.AppPassword{ID: store.NewID(), PersonID: personID, Name: name, SecretHash: bearer.Hash(secret), CreatedAt: s.now()}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&store.Person{}).Where("id = ?", personID).Count(&n).Error; err != nil {
			return err
		}
		if n == 0 {
			return apperr.NotFound("person")
		}
		if err := tx.Model(&store.AppPassword{}).Where("person_id = ?", personID).Count(&n).Error; err != nil {
			return err
		}
		if n >= MaxPerPerson {
			return apperr.Field("name", "a person may have at most %d app passwords: revoke one first", MaxPerPerson)
		}
		if err := tx.Model(&store.AppPassword{}).Where("person_id = ? AND lower(name) = lower(?)", personID, name).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return apperr.Conflict("name", "an app password named %q already exists", name)
		}
		return tx.Create(&row).Error
	})
	if err != nil {
		if _, ok := apperr.As(err); ok {
			return Created{}, err
		}
		return Created{}, fmt.Errorf("create app password: %w", err)
	}
	s.publish(row.ID, change.Created)
	return Created{AppPassword: view(row), Secret: secret}, nil
}

// Revoke deletes one of a person's app passwords.
func (s *Service) Revoke(ctx context.Context, personID, id string) error {
	res := s.db.WithContext(ctx).Where("id = ? AND person_id = ?", id, personID).Delete(&store.AppPassword{})
	if res.Error != nil {
		return fmt.Errorf("revoke app password: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return apperr.NotFound("app password")
	}
	s.publish(id, change.Deleted)
	return nil
}

func (s *Service) publish(id string, kind change.Kind) {
	if s.bus != nil {
		s.bus.Publish(change.Event{Entity: change.Security, Kind: kind, ID: EntityID + id})
	} else {
		s.onChange(change.Event{Entity: change.All})
	}
}

func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
