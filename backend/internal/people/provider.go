package people

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// The OpenID provider's side of the directory: a person's link to the
// provider (shown, and removed by an administrator), and the group
// memberships the provider's groups claim gives at each portal sign-in.

// LinkedIdentity is a person's link to the OpenID provider: who the
// provider says they are. A person has at most one (Gatehouse trusts one
// provider).
type LinkedIdentity struct {
	Issuer  string `json:"issuer"`
	Subject string `json:"subject"`
	// LinkedAt is when the link was made; nil for links older than the
	// portal's provider sign-in.
	LinkedAt *time.Time `json:"linkedAt"`
}

func linkedIdentities(r store.Person) []LinkedIdentity {
	if r.SSOSubject == "" {
		return []LinkedIdentity{}
	}
	li := LinkedIdentity{Issuer: r.SSOIssuer, Subject: r.SSOSubject}
	if r.SSOLinkedAt != nil {
		at := r.SSOLinkedAt.UTC()
		li.LinkedAt = &at
	}
	return []LinkedIdentity{li}
}

// Unlink removes a person's link to the OpenID provider (404 when there is
// none). Their next sign-in with the provider links them again only by a
// verified e-mail address, or makes a new person when that is allowed.
func (s *Service) Unlink(ctx context.Context, id string) (Person, error) {
	if _, err := findPerson(s.db.WithContext(ctx), id); err != nil {
		return Person{}, err
	}
	ok, err := s.accounts.UnlinkExternal(ctx, id)
	if err != nil {
		return Person{}, err
	}
	if !ok {
		return Person{}, apperr.NotFound("linked identity")
	}
	return s.Get(ctx, id)
}

// ProviderGroups is what a portal sign-in changed in a person's groups.
type ProviderGroups struct {
	Added, Removed []string // group names
}

// Changed reports whether any membership changed.
func (g ProviderGroups) Changed() bool { return len(g.Added) > 0 || len(g.Removed) > 0 }

// SyncProviderGroupsTx makes a person's memberships from the provider
// follow claimed (the groups claim of this sign-in), inside the sign-in's
// transaction: a group the claim names (by its provider name exactly when
// it has one, else by its name whatever the case) gains the person; a
// membership the provider gave earlier and the claim no longer names is
// taken back. Groups the claim names that the directory lacks are ignored,
// never created: the directory's groups are the administrators' to make.
// Memberships an administrator gave are never touched, and a claimed group
// the person is already in stays as the administrator made it.
func SyncProviderGroupsTx(tx *gorm.DB, personID string, claimed []string, now time.Time) (ProviderGroups, error) {
	out := ProviderGroups{Added: []string{}, Removed: []string{}}
	var groups []store.Group
	if err := tx.Select("id", "name", "provider_name").Find(&groups).Error; err != nil {
		return out, fmt.Errorf("load groups: %w", err)
	}
	want := map[string]bool{}
	for _, g := range groups {
		for _, c := range claimed {
			if g.ProviderName != "" && c == g.ProviderName || g.ProviderName == "" && strings.EqualFold(c, g.Name) {
				want[g.ID] = true
			}
		}
	}
	var have []store.GroupMember
	if err := tx.Where("person_id = ?", personID).Find(&have).Error; err != nil {
		return out, fmt.Errorf("load memberships: %w", err)
	}
	name := func(id string) string {
		i := slices.IndexFunc(groups, func(g store.Group) bool { return g.ID == id })
		if i < 0 {
			return id
		}
		return groups[i].Name
	}
	in := map[string]bool{}
	for _, m := range have {
		in[m.GroupID] = true
		if m.FromProvider && !want[m.GroupID] {
			if err := tx.Where("group_id = ? AND person_id = ?", m.GroupID, personID).Delete(&store.GroupMember{}).Error; err != nil {
				return out, fmt.Errorf("remove membership: %w", err)
			}
			out.Removed = append(out.Removed, name(m.GroupID))
		}
	}
	for _, g := range groups {
		if !want[g.ID] || in[g.ID] {
			continue
		}
		if err := tx.Create(&store.GroupMember{GroupID: g.ID, PersonID: personID, CreatedAt: now, FromProvider: true}).Error; err != nil {
			return out, fmt.Errorf("add membership: %w", err)
		}
		out.Added = append(out.Added, g.Name)
	}
	slices.Sort(out.Added)
	slices.Sort(out.Removed)
	return out, nil
}

// PersonChanged announces that a person's row or memberships changed
// outside this service's own writes (a portal sign-in through the
// provider), so forward-auth rebuilds its view of the directory.
func (s *Service) PersonChanged(id string) { s.changed(id, change.Updated) }
