package transfer

import (
	"fmt"
	"sort"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

func (p *planner) planCredentialSets() {
	byName := map[string]store.CredentialSet{}
	for _, cs := range p.st.sets {
		byName[cs.Name] = cs
	}
	dup := dupes(p.doc.CredentialSets, func(c document.CredentialSet) string { return strings.TrimSpace(c.Name) })
	taken := func(id string) bool { _, ok := p.st.setByID[id]; return ok }
	for _, cs := range p.doc.CredentialSets {
		name := strings.TrimSpace(cs.Name)
		var c apperr.Collector
		if n := len([]rune(name)); n < 1 || n > 100 {
			c.Add("name", "must be between 1 and 100 characters")
		}
		if dup[name] {
			c.Add("name", "the file lists this credential set more than once")
		}
		users := append([]document.CredentialUser(nil), cs.Users...)
		sort.Slice(users, func(i, j int) bool { return users[i].Username < users[j].Username })
		seen := map[string]bool{}
		for i, u := range cs.Users {
			f := fmt.Sprintf("users[%d]", i)
			if u.Username == "" || strings.ContainsAny(u.Username, ":") ||
				strings.IndexFunc(u.Username, func(r rune) bool { return r < 0x21 || r == 0x7f }) >= 0 {
				c.Add(f+".username", "must be non-empty, without a colon, spaces or control characters")
			}
			if seen[u.Username] {
				c.Add(f+".username", "is listed twice")
			}
			seen[u.Username] = true
			if !bcryptHash(u.PasswordHash) {
				c.Add(f+".passwordHash", "is not a bcrypt hash ($2a$, $2b$ or $2y$): set a new password for %q after the import", u.Username)
			}
		}
		if err := c.Err(); err != nil {
			p.setBad[name] = reason(err)
			p.add(refused(KindCredentialSet, name, err), nil)
			continue
		}
		want := document.CredentialSet{Name: name, Users: users}
		cur, exists := byName[name]
		var fields []string
		var before any
		id := cur.ID
		if exists {
			have := document.CredentialSet{Name: cur.Name, Users: []document.CredentialUser{}}
			for _, u := range cur.Users {
				have.Users = append(have.Users, document.CredentialUser{Username: u.Username, PasswordHash: u.PasswordHash})
			}
			fields = diff(have, want, "id")
			before = have
		} else {
			id = p.newID(cs.ID, taken)
		}
		p.setID[name] = id
		act := action(exists, fields)
		p.add(Item{Kind: KindCredentialSet, Name: name, Action: act, Fields: fields}.state(id, before, want), func(tx *gorm.DB) error {
			row := store.CredentialSet{ID: id, Name: name, CreatedAt: p.now, UpdatedAt: p.now}
			if act == ActionCreate {
				if err := tx.Omit("Users").Create(&row).Error; err != nil {
					return fmt.Errorf("credential set %q: %w", name, err)
				}
			} else if err := tx.Model(&store.CredentialSet{}).Where("id = ?", id).Update("updated_at", p.now).Error; err != nil {
				return fmt.Errorf("credential set %q: %w", name, err)
			}
			if err := tx.Where("set_id = ?", id).Delete(&store.CredentialUser{}).Error; err != nil {
				return fmt.Errorf("credential set %q: %w", name, err)
			}
			for _, u := range users {
				if err := tx.Create(&store.CredentialUser{ID: newID(), SetID: id, Username: u.Username,
					PasswordHash: u.PasswordHash, CreatedAt: p.now}).Error; err != nil {
					return fmt.Errorf("credential set %q: %w", name, err)
				}
			}
			p.events = append(p.events, change.Event{Entity: change.Security, Kind: change.Updated, ID: id})
			return nil
		})
	}
}
