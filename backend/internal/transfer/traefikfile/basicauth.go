package traefikfile

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// basicAuth turns the users list into a credential set. Only bcrypt hashes
// can be verified by Gatehouse; users with other hashes are left out (they
// lose access, nobody gains it), and a middleware with none usable keeps
// the router out.
func (e *effects) basicAuth(name string, v any, at string) error {
	if e.creds != nil {
		return fmt.Errorf("it chains two basic-auth middlewares; a Gatehouse service has one credential set")
	}
	m, err := asObj(v, at)
	if err != nil {
		return err
	}
	var users []string
	for _, k := range sortedKeys(m) {
		kat := path(at, k)
		switch strings.ToLower(k) {
		case "users":
			if users, err = asStringList(m[k], kat); err != nil {
				return err
			}
		case "usersfile":
			return fmt.Errorf("its basic-auth middleware %q reads users from a file (usersFile), which is not part of this import: add the users to a Gatehouse credential set and protect the service with it", name)
		default:
			e.notes = append(e.notes, fmt.Sprintf("%s of basic-auth middleware %q is not imported", k, name))
		}
	}
	set := document.CredentialSet{Name: name, Users: []document.CredentialUser{}}
	var unusable []string
	for i, u := range users {
		user, hash, ok := strings.Cut(u, ":")
		if !ok || user == "" {
			return fmt.Errorf("%s.users[%d] is not user:hash", at, i)
		}
		if len(user) > 64 || strings.IndexFunc(user, func(r rune) bool { return r < 0x21 || r == 0x7f }) >= 0 {
			unusable = append(unusable, fmt.Sprintf("%q (a name Gatehouse does not take: at most 64 characters, no spaces)", user))
			continue
		}
		if !isBcrypt(hash) {
			unusable = append(unusable, fmt.Sprintf("%s (%s)", user, hashKind(hash)))
			continue
		}
		if !slices.ContainsFunc(set.Users, func(c document.CredentialUser) bool { return c.Username == user }) {
			set.Users = append(set.Users, document.CredentialUser{Username: user, PasswordHash: hash})
		}
	}
	advice := "Gatehouse verifies bcrypt hashes only: set these passwords in the credential set " + fmt.Sprintf("%q", name) +
		" after the import, or re-hash them with `htpasswd -nbB user password` in the file and import again"
	if len(set.Users) == 0 {
		return fmt.Errorf("its basic-auth middleware %q has no user Gatehouse can verify (%s); importing without it would open the service: %s",
			name, strings.Join(unusable, ", "), advice)
	}
	if len(unusable) > 0 {
		e.notes = append(e.notes, fmt.Sprintf("users %s of basic-auth middleware %q are left out: %s", strings.Join(unusable, ", "), name, advice))
	}
	e.creds = &set
	return nil
}

func isBcrypt(hash string) bool {
	if !strings.HasPrefix(hash, "$2a$") && !strings.HasPrefix(hash, "$2b$") && !strings.HasPrefix(hash, "$2y$") {
		return false
	}
	_, err := bcrypt.Cost([]byte(hash))
	return err == nil
}

// hashKind names an htpasswd hash format for the message.
func hashKind(h string) string {
	switch {
	case strings.HasPrefix(h, "$apr1$"):
		return "apr1-MD5"
	case strings.HasPrefix(h, "$1$"):
		return "MD5-crypt"
	case strings.HasPrefix(h, "{SHA}"):
		return "SHA-1"
	case strings.HasPrefix(h, "$5$"), strings.HasPrefix(h, "$6$"):
		return "SHA-crypt"
	case strings.HasPrefix(h, "$2"):
		return "malformed bcrypt"
	case len(h) == 13:
		return "DES-crypt"
	}
	return "plain text or unknown"
}
