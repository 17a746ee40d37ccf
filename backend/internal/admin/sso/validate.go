package sso

import (
	"strconv"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// normalize trims the rules and checks what struct tags cannot: the claim
// and role names, and that turning local passwords off leaves a way in.
func (r Request) normalize(providerConfigured bool) (doc, error) {
	d := doc{Enabled: r.Enabled, CreateAdmins: r.CreateAdmins, LocalPasswords: r.LocalPasswords, Rules: []Rule{}}
	var c apperr.Collector
	adminRule := false
	for i, rule := range r.Rules {
		rule.Claim = strings.TrimSpace(rule.Claim)
		rule.Value = strings.TrimSpace(rule.Value)
		switch rule.Claim {
		case ClaimEmail, ClaimUsername, ClaimGroup:
		default:
			c.Add(field(i, "claim"), "must be email, username or group")
		}
		if rule.Value == "" {
			c.Add(field(i, "value"), "is required")
		}
		switch rule.Role {
		case actor.RoleAdmin:
			adminRule = true
		case actor.RoleViewer:
		default:
			c.Add(field(i, "role"), "must be admin or viewer")
		}
		d.Rules = append(d.Rules, rule)
	}
	if d.Enabled && !providerConfigured {
		c.Add("enabled", "set up and switch on the OpenID provider (single sign-on settings) first")
	}
	if !d.LocalPasswords && (!d.Enabled || !adminRule || !providerConfigured) {
		c.Add("localPasswords", "can only be turned off while SSO sign-in is enabled with at least one rule giving the admin role, so an administrator can still sign in")
	}
	return d, c.Err()
}

func field(i int, name string) string {
	return "rules[" + strconv.Itoa(i) + "]." + name
}

// roleFor is the role of the first rule the identity matches.
func roleFor(rules []Rule, username, email string, groups []string) (actor.Role, bool) {
	for _, r := range rules {
		switch r.Claim {
		case ClaimEmail:
			if email != "" && strings.EqualFold(email, r.Value) {
				return r.Role, true
			}
		case ClaimUsername:
			if username != "" && strings.EqualFold(username, r.Value) {
				return r.Role, true
			}
		case ClaimGroup:
			for _, g := range groups {
				if g == r.Value {
					return r.Role, true
				}
			}
		}
	}
	return "", false
}
