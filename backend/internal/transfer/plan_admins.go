package transfer

import (
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

func (p *planner) planAdmins() {
	byName := map[string]store.Person{}
	for _, a := range p.st.adminRows {
		byName[a.Username] = a
	}
	for _, a := range p.doc.Admins {
		name := strings.TrimSpace(a.Username)
		hash := ""
		if p.sec != nil {
			hash = p.sec.AdminPasswords[a.Username]
		}
		cur, exists := byName[name]
		var err error
		switch {
		case name == "" || len(name) > 100:
			err = apperr.Field("username", "must be between 1 and 100 characters")
		case a.Role != "admin" && a.Role != "viewer":
			err = apperr.Field("role", "must be admin or viewer")
		case hash != "" && !bcryptHash(hash):
			err = apperr.Field("passwordHash", "is not a bcrypt hash")
		case !exists && hash == "" && a.SSOIssuer == "" && a.Email == "":
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
		row.PanelRole, row.Email, row.SSOIssuer, row.SSOSubject = a.Role, a.Email, a.SSOIssuer, a.SSOSubject
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
		want := document.Admin{Username: name, Role: a.Role, Email: a.Email, SSOIssuer: a.SSOIssuer, SSOSubject: a.SSOSubject, Disabled: a.Disabled}
		var fields []string
		var before any
		if exists {
			have := document.Admin{Username: cur.Username, Role: cur.PanelRole, Email: cur.Email, SSOIssuer: cur.SSOIssuer,
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
			signOut := exists && (row.DisabledAt != nil || newPassword)
			events, err := admin.ImportTx(tx, row, act == ActionCreate, signOut)
			if err != nil {
				return fmt.Errorf("administrator %q: %w", name, err)
			}
			p.events = append(p.events, events...)
			return nil
		})
	}
}
