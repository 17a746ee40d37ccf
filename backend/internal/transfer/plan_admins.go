package transfer

import (
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

func (p *planner) planAdmins() {
	byName := map[string]store.Person{}
	// An e-mail address names one person: who holds each, here or in the file.
	emailOf := map[string]string{}
	p.personID = map[string]string{}
	for _, a := range p.st.adminRows {
		byName[a.Username] = a
		p.personID[a.Username] = a.ID
		if a.Email != "" {
			emailOf[strings.ToLower(a.Email)] = a.Username
		}
	}
	dup := dupes(p.doc.Admins, func(a document.Admin) string { return strings.TrimSpace(a.Username) })
	for _, a := range p.doc.Admins {
		name := strings.TrimSpace(a.Username)
		hash := ""
		if p.sec != nil {
			hash = p.sec.AdminPasswords[a.Username]
		}
		cur, exists := byName[name]
		email, displayName, err := people.CheckPerson(a.Email, a.DisplayName)
		holder, held := emailOf[strings.ToLower(email)]
		switch {
		case err != nil:
		case name == "" || len(name) > 100:
			err = apperr.Field("username", "must be between 1 and 100 characters")
		case dup[name]:
			err = apperr.Field("username", "is listed twice")
		case a.Role != "admin" && a.Role != "viewer" && a.Role != store.PanelRoleNone:
			err = apperr.Field("role", "must be admin, viewer or none")
		case email != "" && held && holder != name:
			err = apperr.Conflict("email", "%q has this e-mail address", holder)
		case hash != "" && !bcryptHash(hash):
			err = apperr.Field("passwordHash", "is not a bcrypt hash")
		case !exists && a.Role != store.PanelRoleNone && hash == "" && a.SSOIssuer == "" && email == "":
			err = fmt.Errorf("no password hash (export with administrators' passwords) and no single sign-on link: this administrator could not sign in")
		case exists && name == p.actor && (a.Role != "admin" || a.Disabled):
			err = fmt.Errorf("this is the administrator running the import: an import cannot demote or disable it")
		}
		if err != nil {
			p.add(refused(KindAdmin, name, err), nil)
			continue
		}
		row := cur
		if !exists {
			row = store.Person{ID: newID(), Username: name, CreatedAt: p.now}
		}
		if email != "" {
			emailOf[strings.ToLower(email)] = name
		}
		p.personID[name] = row.ID
		row.PanelRole, row.Email, row.DisplayName, row.SSOIssuer, row.SSOSubject = a.Role, email, displayName, a.SSOIssuer, a.SSOSubject
		if hash != "" {
			row.PasswordHash = hash
		}
		switch {
		case a.Disabled && row.DisabledAt == nil:
			now := p.now
			row.DisabledAt = &now
		case !a.Disabled:
			row.DisabledAt = nil
		}
		want := document.Admin{Username: name, Role: a.Role, Email: email, DisplayName: displayName, SSOIssuer: a.SSOIssuer, SSOSubject: a.SSOSubject, Disabled: a.Disabled}
		var fields []string
		var before any
		if exists {
			have := document.Admin{Username: cur.Username, Role: cur.PanelRole, Email: cur.Email, DisplayName: cur.DisplayName, SSOIssuer: cur.SSOIssuer,
				SSOSubject: cur.SSOSubject, Disabled: cur.DisabledAt != nil}
			fields = diff(have, want)
			before = have
		}
		newPassword := hash != "" && hash != cur.PasswordHash
		if exists && newPassword {
			fields = append(fields, "password")
		}
		act := action(exists, fields)
		it := Item{Kind: KindAdmin, Name: name, Action: act, Fields: fields}.state(row.ID, before, want)
		if hash != "" {
			it = it.withSealed("password")
		}
		p.add(it, func(tx *gorm.DB) error {
			row.UpdatedAt = p.now
			// A disabled administrator, or one whose password the file
			// replaced, is signed out everywhere, as on the panel's pages.
			signOut := exists && (row.DisabledAt != nil || newPassword || row.PanelRole == store.PanelRoleNone)
			events, ended, err := admin.ImportTx(tx, row, act == ActionCreate, signOut)
			if err != nil {
				return fmt.Errorf("administrator %q: %w", name, err)
			}
			p.events = append(p.events, events...)
			p.ended = append(p.ended, ended...)
			return nil
		})
	}
}
