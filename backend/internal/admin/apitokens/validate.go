package apitokens

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// rank orders roles by power, so a token never gets more than its creator.
func rank(r actor.Role) int {
	switch r {
	case actor.RoleAdmin:
		return 2
	case actor.RoleViewer:
		return 1
	}
	return 0
}

// lesser is the weaker of two roles.
func lesser(a, b actor.Role) actor.Role {
	if rank(a) <= rank(b) {
		return a
	}
	return b
}

// normalize trims the name and checks the request's meaning for a creator
// with role creator at now.
func (in *CreateRequest) normalize(creator actor.Role, now time.Time) error {
	in.Name = strings.TrimSpace(in.Name)
	var c apperr.Collector
	if n := utf8.RuneCountInString(in.Name); n < 1 || n > 100 {
		c.Add("name", "must be 1-100 characters")
	}
	switch {
	case !in.Role.Valid():
		c.Add("role", "must be admin or viewer")
	case rank(in.Role) > rank(creator):
		c.Add("role", "cannot exceed your own role")
	}
	if in.ExpiresAt != nil {
		if !in.ExpiresAt.After(now) {
			c.Add("expiresAt", "must be in the future")
		}
		at := in.ExpiresAt.UTC().Truncate(time.Millisecond)
		in.ExpiresAt = &at
	}
	return c.Err()
}
