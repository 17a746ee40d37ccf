package forwardauth

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// PeopleProtection admits people of the directory signed in on the portal:
// anyone signed in when both lists are empty, otherwise the named people
// and the members of the named groups (by id).
type PeopleProtection struct {
	Enabled bool     `json:"enabled"`
	People  []string `json:"people" validate:"max=500,dive,max=64"`
	Groups  []string `json:"groups" validate:"max=500,dive,max=64"`
	// SecondFactor asks a person who signed in with a password alone for a
	// second factor before the service opens (step-up).
	SecondFactor bool `json:"secondFactor"`
	// MaxAgeSeconds, when not 0, is how long ago the person may have last
	// proved who they are; older sign-ins are asked to sign in again.
	MaxAgeSeconds int64 `json:"maxAgeSeconds"`
}

// MaxPeopleAgeSeconds bounds a people protection's maximum sign-in age (a year).
const MaxPeopleAgeSeconds = 365 * 24 * 3600

// peopleSettings is the settings JSON of a people security config.
type peopleSettings struct {
	People        []string
	Groups        []string
	SecondFactor  bool
	MaxAgeSeconds int64
}

func decodePeopleSettings(m map[string]any) peopleSettings {
	st := peopleSettings{People: stringList(m["people"]), Groups: stringList(m["groups"])}
	st.SecondFactor, _ = m["secondFactor"].(bool)
	switch v := m["maxAgeSeconds"].(type) {
	case float64:
		st.MaxAgeSeconds = int64(v)
	case int64:
		st.MaxAgeSeconds = v
	}
	return st
}

func stringList(v any) []string {
	out := []string{}
	switch l := v.(type) {
	case []any:
		for _, x := range l {
			if s, ok := x.(string); ok && s != "" {
				out = append(out, s)
			}
		}
	case []string:
		out = append(out, l...)
	}
	return out
}

// checkPeopleSettings checks a people protection against the directory
// inside tx: every person and group must exist. Field names are relative to
// the section (people[1], groups[0], maxAgeSeconds).
func checkPeopleSettings(tx *gorm.DB, people, groups []string, secondFactor bool, maxAge int64) (map[string]any, error) {
	people, groups = cleanList(people), cleanList(groups)
	var c apperr.Collector
	if maxAge < 0 || maxAge > MaxPeopleAgeSeconds {
		c.Add("maxAgeSeconds", "must be between 0 (no limit) and %d", MaxPeopleAgeSeconds)
	}
	for _, x := range []struct {
		field string
		ids   []string
		model any
	}{{"people", people, &store.Person{}}, {"groups", groups, &store.Group{}}} {
		if len(x.ids) == 0 {
			continue
		}
		var found []string
		if err := tx.Model(x.model).Where("id IN ?", x.ids).Pluck("id", &found).Error; err != nil {
			return nil, fmt.Errorf("check %s: %w", x.field, err)
		}
		for i, id := range x.ids {
			if !slices.Contains(found, id) {
				c.Add(fmt.Sprintf("%s[%d]", x.field, i), "no such %s in the directory", strings.TrimSuffix(x.field, "s"))
			}
		}
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return map[string]any{"people": people, "groups": groups, "secondFactor": secondFactor, "maxAgeSeconds": maxAge}, nil
}

// peoplePolicy is who may use a service with a people protection.
type peoplePolicy struct {
	people, groups map[string]bool // ids; both empty: anyone signed in
	secondFactor   bool
	maxAge         time.Duration // 0: no limit
	// names of the allowed groups and people, for the refusal page
	forWhom string
}

// allows reports whether a person may use the service (enabled, listed or
// in a listed group).
func (p *peoplePolicy) allows(pe *personEntry) bool {
	if pe == nil || !pe.enabled {
		return false
	}
	if len(p.people) == 0 && len(p.groups) == 0 {
		return true
	}
	if p.people[pe.id] {
		return true
	}
	for _, g := range pe.groupIDs {
		if p.groups[g] {
			return true
		}
	}
	return false
}

// fresh reports whether a sign-in is strong and recent enough.
func (p *peoplePolicy) fresh(secondFactor bool, at, now time.Time) bool {
	if p.secondFactor && !secondFactor {
		return false
	}
	return p.maxAge == 0 || (!at.IsZero() && now.Sub(at) <= p.maxAge)
}

// personEntry is one person of the directory as verify sees them. Header
// values are built once per snapshot, so answering allocates nothing.
type personEntry struct {
	id, username, email, name  string
	enabled                    bool
	groupIDs                   []string
	groupNames                 []string // sorted
	hUser, hEmail, hName, hGrp []string
}

// identity is the person as access rules see them.
func (pe *personEntry) identity(secondFactor bool) *rules.Identity {
	return &rules.Identity{PersonID: pe.id, Username: pe.username, Groups: pe.groupNames, SecondFactor: secondFactor}
}

// loadDirectory reads the people and groups a people protection needs.
// Every write to them publishes a change.Security event, which rebuilds the
// snapshot on every replica: verify never queries the directory.
func loadDirectory(db *gorm.DB) (map[string]*personEntry, map[string]string, error) {
	var people []store.Person
	if err := db.Select("id", "username", "email", "display_name", "disabled_at").Find(&people).Error; err != nil {
		return nil, nil, fmt.Errorf("load people: %w", err)
	}
	var groups []store.Group
	if err := db.Select("id", "name").Find(&groups).Error; err != nil {
		return nil, nil, fmt.Errorf("load groups: %w", err)
	}
	var members []store.GroupMember
	if err := db.Find(&members).Error; err != nil {
		return nil, nil, fmt.Errorf("load group members: %w", err)
	}
	groupName := make(map[string]string, len(groups))
	for _, g := range groups {
		groupName[g.ID] = g.Name
	}
	out := make(map[string]*personEntry, len(people))
	for _, p := range people {
		out[p.ID] = &personEntry{id: p.ID, username: p.Username, email: p.Email, name: p.DisplayName, enabled: p.DisabledAt == nil}
	}
	for _, m := range members {
		if pe := out[m.PersonID]; pe != nil {
			if n, ok := groupName[m.GroupID]; ok {
				pe.groupIDs = append(pe.groupIDs, m.GroupID)
				pe.groupNames = append(pe.groupNames, n)
			}
		}
	}
	for _, pe := range out {
		slices.Sort(pe.groupNames)
		if pe.groupNames == nil {
			pe.groupNames = []string{}
		}
		h := []string{headerSafe(pe.username), headerSafe(pe.email), headerSafe(pe.name), headerSafe(strings.Join(pe.groupNames, ","))}
		pe.hUser, pe.hEmail, pe.hName, pe.hGrp = h[0:1:1], h[1:2:2], h[2:3:3], h[3:4:4]
	}
	return out, groupName, nil
}

// newPeoplePolicy compiles a people protection's settings.
func newPeoplePolicy(st peopleSettings, people map[string]*personEntry, groupName map[string]string) *peoplePolicy {
	pp := &peoplePolicy{people: map[string]bool{}, groups: map[string]bool{}, secondFactor: st.SecondFactor,
		maxAge: time.Duration(st.MaxAgeSeconds) * time.Second}
	var names []string
	for _, id := range st.Groups {
		pp.groups[id] = true
		if n, ok := groupName[id]; ok {
			names = append(names, "the group "+n)
		}
	}
	for _, id := range st.People {
		pp.people[id] = true
		if pe := people[id]; pe != nil {
			names = append(names, pe.username)
		}
	}
	pp.forWhom = strings.Join(names, ", ")
	if pp.forWhom == "" {
		pp.forWhom = "no one at the moment"
	}
	return pp
}

// EndPortalSessions ends every service session opened from the given
// portal sessions (sign out, sign out everywhere), on every replica.
func (s *Service) EndPortalSessions(ctx context.Context, portalSessionIDs ...string) error {
	ids := make([]string, 0, len(portalSessionIDs))
	for _, id := range portalSessionIDs {
		if id != "" && len(id) <= 128 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return s.endSessionsWhere(ctx, "portal_session_id IN ?", ids)
}

// EndPersonSessions ends the people sessions of a person, on every
// replica (the directory's "end sessions", a disabled or deleted person):
// every one, or only id when it is not empty (404 when that session is not
// the person's).
func (s *Service) EndPersonSessions(ctx context.Context, personID, id string) error {
	if personID == "" {
		return nil
	}
	if id == "" {
		return s.endSessionsWhere(ctx, "person_id = ?", personID)
	}
	var n int64
	if err := s.db.WithContext(ctx).Model(&store.Session{}).
		Where("kind = ? AND person_id = ? AND id = ?", store.SessionPeople, personID, id).Count(&n).Error; err != nil {
		return fmt.Errorf("find session: %w", err)
	}
	if n == 0 {
		return apperr.NotFound("session")
	}
	return s.endSessionsWhere(ctx, "id = ?", id)
}

// PersonSessions returns a person's live people sessions on every service,
// newest first.
func (s *Service) PersonSessions(ctx context.Context, personID string) ([]SessionResponse, error) {
	if personID == "" {
		return []SessionResponse{}, nil
	}
	return s.listSessions(ctx, func(q *gorm.DB) *gorm.DB {
		return q.Where("sessions.kind = ? AND sessions.person_id = ?", store.SessionPeople, personID)
	})
}

// endSessionsWhere deletes the people sessions matching the condition and
// announces each one, so every replica forgets it.
func (s *Service) endSessionsWhere(ctx context.Context, cond string, arg any) error {
	var ids []string
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		q := tx.Model(&store.Session{}).Where("kind = ?", store.SessionPeople).Where(cond, arg)
		if err := q.Pluck("id", &ids).Error; err != nil {
			return fmt.Errorf("find people sessions: %w", err)
		}
		if len(ids) == 0 {
			return nil
		}
		return tx.Where("id IN ?", ids).Delete(&store.Session{}).Error
	})
	if err != nil {
		return fmt.Errorf("end people sessions: %w", err)
	}
	for _, id := range ids {
		s.publish(change.Event{Entity: change.Session, Kind: change.Deleted, ID: change.SessionByID + id})
	}
	return nil
}
