package people

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// The directory's side of the upgrade from per-service single sign-on:
// the people and groups that admit, through the portal's "Sign in with …",
// the identities an allow-list admitted.

// SSOAllowList is one per-service allow-list as the previous release kept
// it (forwardauth.SSOAllowList).
type SSOAllowList struct {
	// Issuer is the provider sub: entries belong to ("" unknown).
	Issuer string
	Users  []string
	Groups []string
}

// SubjectPrefix marks an entry naming the provider's subject.
const SubjectPrefix = "sub:"

// UpgradeResult is who a converted allow-list admits now.
type UpgradeResult struct {
	People, Groups []string // ids
	// Made are the usernames and group names this conversion added.
	MadePeople, MadeGroups []string
}

// AdmitSSOAllowListTx finds or makes, inside the caller's transaction, the
// people and groups that admit what list admitted:
//   - sub:<subject>: the person linked to that subject of the provider,
//     else a new person linked to it;
//   - an e-mail address (the provider's verified one): the person with
//     that address, else a new one with it (linked at their first sign-in
//     with a verified address);
//   - another name (the provider's preferred_username or subject): the
//     person linked to a subject of that name, else the unlinked person
//     with that username, else a new one; either way the name is kept
//     (sso_username) so the first provider identity with it links them;
//   - a group: the directory group the provider's groups claim names
//     exactly (provider_name), else the group of that name (whose
//     provider_name becomes the claim's spelling), else a new group.
//
// People made here have no password and no panel role.
func AdmitSSOAllowListTx(tx *gorm.DB, list SSOAllowList, now time.Time) (UpgradeResult, error) {
	out := UpgradeResult{People: []string{}, Groups: []string{}, MadePeople: []string{}, MadeGroups: []string{}}
	add := func(id string) {
		for _, x := range out.People {
			if x == id {
				return
			}
		}
		out.People = append(out.People, id)
	}
	for _, entry := range list.Users {
		entry = strings.TrimSpace(entry)
		var p store.Person
		var err error
		made := false
		switch {
		case strings.HasPrefix(entry, SubjectPrefix):
			p, made, err = personForSubject(tx, list.Issuer, strings.TrimPrefix(entry, SubjectPrefix), now)
		case strings.Contains(entry, "@"):
			p, made, err = personForEmail(tx, entry, now)
		default:
			p, made, err = personForName(tx, list.Issuer, entry, now)
		}
		if err != nil {
			return out, err
		}
		if p.ID == "" {
			continue
		}
		if made {
			out.MadePeople = append(out.MadePeople, p.Username)
		}
		add(p.ID)
	}
	for _, name := range list.Groups {
		g, made, err := groupForClaim(tx, strings.TrimSpace(name), now)
		if err != nil {
			return out, err
		}
		if g.ID == "" {
			continue
		}
		if made {
			out.MadeGroups = append(out.MadeGroups, g.Name)
		}
		out.Groups = append(out.Groups, g.ID)
	}
	return out, nil
}

func take(q *gorm.DB, p *store.Person) (bool, error) {
	err := q.Order("created_at, id").Take(p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return false, nil
	}
	return err == nil, err
}

func personForSubject(tx *gorm.DB, issuer, sub string, now time.Time) (store.Person, bool, error) {
	var p store.Person
	if sub == "" {
		return p, false, nil
	}
	q := tx.Where("sso_subject = ?", sub)
	if issuer != "" {
		q = q.Where("sso_issuer = ?", issuer)
	}
	if ok, err := take(q, &p); ok || err != nil {
		return p, false, err
	}
	p = newPerson(tx, "sso-"+sub, now)
	if issuer != "" {
		p.SSOIssuer, p.SSOSubject, p.SSOLinkedAt = issuer, sub, &now
	} else {
		// Without a provider to bind it to, the subject links like a name.
		p.SSOUsername = sub
	}
	return p, true, createPerson(tx, &p)
}

func personForEmail(tx *gorm.DB, email string, now time.Time) (store.Person, bool, error) {
	var p store.Person
	if ok, err := take(tx.Where("email <> '' AND lower(email) = lower(?)", email), &p); ok || err != nil {
		return p, false, err
	}
	p = newPerson(tx, email, now)
	p.Email = strings.ToLower(email)
	return p, true, createPerson(tx, &p)
}

func personForName(tx *gorm.DB, issuer, name string, now time.Time) (store.Person, bool, error) {
	var p store.Person
	if name == "" {
		return p, false, nil
	}
	q := tx.Where("lower(sso_subject) = lower(?)", name)
	if issuer != "" {
		q = q.Where("sso_issuer = ?", issuer)
	}
	if ok, err := take(q, &p); ok || err != nil {
		return p, false, err
	}
	if ok, err := take(tx.Where("sso_subject = '' AND (lower(sso_username) = lower(?) OR lower(username) = lower(?))", name, name), &p); err != nil {
		return p, false, err
	} else if ok {
		if p.SSOUsername == "" {
			err = tx.Model(&p).Update("sso_username", name).Error
		}
		return p, false, err
	}
	p = newPerson(tx, name, now)
	p.SSOUsername = name
	return p, true, createPerson(tx, &p)
}

// newPerson is a person without password or panel role whose username is
// derived from want (a free one: -2, -3, … when taken).
func newPerson(tx *gorm.DB, want string, now time.Time) store.Person {
	base := usernameFrom(want)
	name := base
	for i := 2; i < 1000; i++ {
		var n int64
		if tx.Model(&store.Person{}).Where("lower(username) = lower(?)", name).Count(&n).Error != nil || n == 0 {
			break
		}
		suffix := "-" + strconv.Itoa(i)
		name = base[:min(len(base), 64-len(suffix))] + suffix
	}
	return store.Person{ID: store.NewID(), Username: name, PanelRole: store.PanelRoleNone, CreatedAt: now, UpdatedAt: now}
}

func createPerson(tx *gorm.DB, p *store.Person) error {
	if err := tx.Create(p).Error; err != nil {
		return fmt.Errorf("create person %q: %w", p.Username, err)
	}
	return nil
}

// usernameFrom keeps the characters a username may hold, others become -.
func usernameFrom(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && admin.ValidUsername(string(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-.")
	if len(name) > 64 {
		name = name[:64]
	}
	if name == "" || !admin.ValidUsername(name) {
		sum := sha256.Sum256([]byte(s))
		return "sso-" + hex.EncodeToString(sum[:6])
	}
	return name
}

// groupForClaim finds or makes the group a groups-claim value names.
func groupForClaim(tx *gorm.DB, claim string, now time.Time) (store.Group, bool, error) {
	var g store.Group
	if claim == "" {
		return g, false, nil
	}
	err := tx.Where("provider_name = ?", claim).Take(&g).Error
	if err == nil || !errors.Is(err, gorm.ErrRecordNotFound) {
		return g, false, err
	}
	err = tx.Where("provider_name = '' AND lower(name) = lower(?)", claim).Take(&g).Error
	if err == nil {
		// The allow-list compared the claim exactly: so does the group now.
		return g, false, tx.Model(&g).Update("provider_name", claim).Error
	}
	if !errors.Is(err, gorm.ErrRecordNotFound) {
		return g, false, err
	}
	base := groupNameFrom(claim)
	name := base
	for i := 2; i < 1000; i++ {
		var n int64
		if err := tx.Model(&store.Group{}).Where("lower(name) = lower(?)", name).Count(&n).Error; err != nil {
			return g, false, fmt.Errorf("check group name: %w", err)
		}
		if n == 0 {
			break
		}
		suffix := "-" + strconv.Itoa(i)
		name = base[:min(len(base), MaxGroupName-len(suffix))] + suffix
	}
	g = store.Group{ID: store.NewID(), Name: name, ProviderName: claim,
		Description: "Members of the provider's group " + claim + " (from per-service single sign-on)", CreatedAt: now, UpdatedAt: now}
	if len(g.Description) > 200 {
		g.Description = g.Description[:200]
	}
	if err := tx.Create(&g).Error; err != nil {
		return g, false, fmt.Errorf("create group %q: %w", name, err)
	}
	return g, true, nil
}

// groupNameFrom keeps the characters a group name may hold.
func groupNameFrom(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(" ._-", r)):
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.TrimLeft(strings.TrimSpace(b.String()), " ._-")
	if len(name) > MaxGroupName {
		name = name[:MaxGroupName]
	}
	if name == "" || !groupNameRE.MatchString(name) {
		sum := sha256.Sum256([]byte(s))
		return "sso-group-" + hex.EncodeToString(sum[:4])
	}
	return name
}
