package npm

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/access/rules"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// Limits of a Gatehouse credential set (access.CredentialSetRequest).
const (
	maxSetName  = 100
	maxUsername = 64
	maxSetUsers = 1000
)

// credentialSets makes one credential set per access list that has
// basic-auth users. NPM keeps those passwords as they were typed (its
// access-list.js writes the htpasswd file from them), so they are hashed
// here with bcrypt, as the panel stores them; a bcrypt hash is kept as it
// is; anything else (empty, or a hash of another kind from a modified NPM)
// cannot be checked, and the user is left out with a note saying so.
func (c *converter) credentialSets() {
	taken := map[string]bool{}
	for _, id := range c.src.listOrder {
		l := c.src.accessLists[id]
		if len(l.users) == 0 {
			continue
		}
		source := fmt.Sprintf("access list #%d%s", l.id, quoted(l.name))
		name := setName(l, taken)
		c.setNames[l.id] = name
		set := document.CredentialSet{Name: name, Users: []document.CredentialUser{}}
		seen := map[string]bool{}
		for _, u := range l.users {
			usource := fmt.Sprintf("%s user %q", source, u.username)
			if why := badUsername(u.username); why != "" {
				c.skip(usource, "not imported: the user name %s; add the user to credential set %q under another name", why, name)
				continue
			}
			if seen[u.username] {
				c.skip(usource, "not imported: the list has this user name twice; the first one is kept")
				continue
			}
			if len(set.Users) == maxSetUsers {
				c.skip(usource, "not imported: a credential set holds at most %d users", maxSetUsers)
				continue
			}
			hash, why := c.passwordHash(u.password)
			if why != "" {
				c.skip(usource, "left out of credential set %q: %s, so Gatehouse cannot check it; add the user there with a new password in Gatehouse", name, why)
				continue
			}
			seen[u.username] = true
			set.Users = append(set.Users, document.CredentialUser{Username: u.username, PasswordHash: hash})
		}
		if len(set.Users) == 0 {
			c.skip(source, "credential set %q has no usable user: the services it protects refuse everyone until you add users to it in Gatehouse", name)
		}
		c.doc.CredentialSets = append(c.doc.CredentialSets, set)
	}
}

// setName is the list's name, made valid and unique.
func setName(l *accessList, taken map[string]bool) string {
	base := strings.Join(strings.Fields(l.name), " ")
	if !utf8.ValidString(base) {
		base = strings.ToValidUTF8(base, "?")
	}
	if r := []rune(base); len(r) > maxSetName-12 {
		base = string(r[:maxSetName-12])
	}
	if base == "" {
		base = fmt.Sprintf("access list %d", l.id)
	}
	name := base
	if taken[name] {
		name = fmt.Sprintf("%s (#%d)", base, l.id)
	}
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s (#%d-%d)", base, l.id, i)
	}
	taken[name] = true
	return name
}

// badUsername says what is wrong with a user name under the panel's rules
// (access.validateUsers), or "".
func badUsername(u string) string {
	switch {
	case u == "":
		return "is empty"
	case len(u) > maxUsername:
		return fmt.Sprintf("is longer than %d characters", maxUsername)
	case !utf8.ValidString(u):
		return "is not valid UTF-8 text"
	case strings.ContainsRune(u, ':') || strings.IndexFunc(u, func(r rune) bool { return r < 0x21 || r == 0x7f }) >= 0:
		return "contains a colon, a space or a control character"
	}
	return ""
}

// passwordHash returns the bcrypt hash of an NPM access-list password, or
// why there is none.
func (c *converter) passwordHash(pw string) (hash, why string) {
	switch {
	case pw == "":
		return "", "NPM has no password stored for it"
	case isBcrypt(pw):
		return pw, ""
	case strings.HasPrefix(pw, "$apr1$"), strings.HasPrefix(pw, "{SHA}"),
		strings.HasPrefix(pw, "$1$"), strings.HasPrefix(pw, "$5$"), strings.HasPrefix(pw, "$6$"):
		return "", "its password is stored as a hash of a kind other than bcrypt"
	case len(pw) > 72:
		return "", "its password is longer than 72 bytes, more than bcrypt can hold"
	}
	b, err := bcrypt.GenerateFromPassword([]byte(pw), c.cost)
	if err != nil {
		return "", "its password could not be hashed (" + err.Error() + ")"
	}
	return string(b), ""
}

func isBcrypt(s string) bool {
	if len(s) != 60 || !strings.HasPrefix(s, "$2a$") && !strings.HasPrefix(s, "$2b$") && !strings.HasPrefix(s, "$2y$") {
		return false
	}
	_, err := bcrypt.Cost([]byte(s))
	return err == nil
}

// protect carries a host's access list over: its users as a basic-auth
// protection naming the list's credential set, its IP rules as the
// service's access rules (ipRules). When the IP rules cannot be carried
// over exactly, the service comes over switched off rather than open to
// more clients than before.
func (c *converter) protect(source string, listID int64, sv *document.Service) {
	l := c.src.accessLists[listID]
	if l == nil {
		c.skip(source, "its access list #%d no longer exists in NPM; the service is imported without it", listID)
		return
	}
	lsource := fmt.Sprintf("access list #%d%s", l.id, quoted(l.name))
	withUsers := len(l.users) > 0
	if withUsers {
		sv.Protections = append(sv.Protections, document.Protection{Type: store.SecurityBasicAuth, Enabled: true,
			CredentialSet: c.setNames[l.id]})
		if !l.passAuth {
			c.skip(source, "%s removed the Authorization header before the upstream; through Gatehouse the upstream receives it", lsource)
		}
	}
	// A list without rules is left as it was: NPM's interface always writes
	// a rule, and a list with users and no rule means "password only".
	if len(l.clients) == 0 {
		return
	}
	acc, why := ipRules(l, withUsers)
	switch {
	case why != "":
		sv.Enabled = false
		c.skip(source, "the IP rules of %s (%s) are not imported: %s. The service comes over switched off rather than open to more clients than before: add them under the service's access rules, then switch it on",
			lsource, clientRules(l.clients), why)
	case len(acc.Rules) == 0 && rules.Action(acc.DefaultAction) == rules.EffectiveDefault("", withUsers):
		// "allow all" first: the rules decide as the protections alone do.
	default:
		sv.Access = acc
		c.skip(source, "the IP rules of %s (%s) are translated into the service's access rules, which decide as NPM did: %s",
			lsource, clientRules(l.clients), describeAccess(acc))
	}
}

func clientRules(clients []listClient) string {
	parts := make([]string, 0, len(clients))
	for i, cl := range clients {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(clients)-10))
			break
		}
		parts = append(parts, clip(strings.TrimSpace(cl.directive), 10)+" "+clip(cl.address, 50))
	}
	return strings.Join(parts, ", ")
}
