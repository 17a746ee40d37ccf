package people

import (
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// Bounds of what a person and a group hold.
const (
	MaxEmail       = 254 // RFC 5321's path limit
	MaxDisplayName = 100
	MaxGroupName   = 64
	MaxDescription = 500
	MaxQuery       = 100
	MaxGroups      = 100 // groups set on a person in one request
	DefaultLimit   = 50
	MaxLimit       = 200
)

var groupNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$`)

// PanelRoles lists the panel roles, the most powerful first.
var PanelRoles = []string{string(actor.RoleAdmin), string(actor.RoleViewer), store.PanelRoleNone}

func validPanelRole(r string) bool {
	return r == store.PanelRoleNone || actor.Role(r).Valid()
}

// checkUsername adds the username's problem to c.
func checkUsername(c *apperr.Collector, name string) {
	if !admin.ValidUsername(name) {
		c.Add("username", "must be 1-64 letters, digits or . _ @ -")
	}
}

// normalEmail returns the address trimmed, or adds its problem to c. An
// empty address is allowed (none).
func normalEmail(c *apperr.Collector, email string) string {
	email = strings.TrimSpace(email)
	if email == "" {
		return ""
	}
	if len(email) > MaxEmail {
		c.Add("email", "must be at most %d characters", MaxEmail)
		return email
	}
	a, err := mail.ParseAddress(email)
	local, domain, ok := strings.Cut(email, "@")
	if err != nil || a.Address != email || !ok || local == "" || !strings.Contains(domain, ".") ||
		strings.ContainsAny(email, " <>\"") {
		c.Add("email", "must be an e-mail address such as name@example.com")
	}
	return email
}

// normalDisplayName returns the name trimmed, or adds its problem to c.
func normalDisplayName(c *apperr.Collector, name string) string {
	name = strings.TrimSpace(name)
	if !printable(name) {
		c.Add("displayName", "must be printable text")
	} else if utf8.RuneCountInString(name) > MaxDisplayName {
		c.Add("displayName", "must be at most %d characters", MaxDisplayName)
	}
	return name
}

func checkPanelRole(c *apperr.Collector, role string) {
	if !validPanelRole(role) {
		c.Add("panelRole", "must be admin, viewer or none")
	}
}

func checkGroupIDs(c *apperr.Collector, ids []string) {
	if len(ids) > MaxGroups {
		c.Add("groups", "must hold at most %d groups", MaxGroups)
		return
	}
	for i, id := range ids {
		if id == "" || len(id) > 64 {
			c.Add("groups["+strconv.Itoa(i)+"]", "is not a group id")
		}
	}
}

// normalGroup checks a group's name and description.
func normalGroup(c *apperr.Collector, name, description string) (string, string) {
	name = strings.TrimSpace(name)
	if !groupNameRE.MatchString(name) {
		c.Add("name", "must be 1-64 letters, digits, spaces or . _ -, starting with a letter or digit")
	}
	description = strings.TrimSpace(description)
	if !printable(strings.ReplaceAll(description, "\n", " ")) {
		c.Add("description", "must be printable text")
	} else if utf8.RuneCountInString(description) > MaxDescription {
		c.Add("description", "must be at most %d characters", MaxDescription)
	}
	return name, description
}

func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// normalQuery bounds the list's query before it reaches a query.
func normalQuery(q ListQuery) (ListQuery, error) {
	var c apperr.Collector
	q.Q = strings.TrimSpace(q.Q)
	if utf8.RuneCountInString(q.Q) > MaxQuery || !printable(q.Q) {
		c.Add("q", "must be at most %d printable characters", MaxQuery)
	}
	if q.PanelRole != "" && !validPanelRole(q.PanelRole) {
		c.Add("panelRole", "must be admin, viewer or none")
	}
	if len(q.GroupID) > 64 {
		c.Add("groupId", "is not a group id")
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		c.Add("limit", "must be between 1 and %d", MaxLimit)
	}
	if q.Offset < 0 || q.Offset > 1_000_000 {
		c.Add("offset", "must be between 0 and 1000000")
	}
	return q, c.Err()
}

// searchCondition matches the people whose username, e-mail address or
// display name starts with q, whatever its case. Each field is compared as
// a range of its lower-case index (migration 0028), which both engines
// read without scanning the table; the LIKE keeps the answer exact where
// a collation orders strings that do not share the prefix inside the
// range. An empty upper bound (q made only of the last code point) leaves
// the range open.
func searchCondition(q string) (string, []any) {
	lo := strings.ToLower(q)
	hi := prefixEnd(lo)
	like := likePrefix(lo)
	var cond strings.Builder
	var args []any
	for i, col := range []string{"lower(username)", "lower(email)", "lower(display_name)"} {
		if i > 0 {
			cond.WriteString(" OR ")
		}
		cond.WriteString("(" + col + " >= ?")
		args = append(args, lo)
		if hi != "" {
			cond.WriteString(" AND " + col + " < ?")
			args = append(args, hi)
		}
		cond.WriteString(" AND " + col + ` LIKE ? ESCAPE '\')`)
		args = append(args, like)
	}
	return cond.String(), args
}

// prefixEnd is the smallest string greater than every string starting
// with p (its last code point incremented), or "" when there is none.
func prefixEnd(p string) string {
	r := []rune(p)
	for i := len(r) - 1; i >= 0; i-- {
		if r[i] < utf8.MaxRune && (r[i] < 0xD7FF || r[i] >= 0xDFFF) {
			r[i]++
			return string(r[:i+1])
		}
	}
	return ""
}

// likePrefix matches what starts with s, its LIKE wildcards taken literally.
func likePrefix(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s) + "%"
}

// CheckUsername adds the username's problem to c (self-registration
// checks what a visitor types with the same rule).
func CheckUsername(c *apperr.Collector, name string) { checkUsername(c, name) }

// NormalEmail returns the address trimmed, or adds its problem to c.
func NormalEmail(c *apperr.Collector, email string) string { return normalEmail(c, email) }
