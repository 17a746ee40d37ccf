package runtime

import (
	"regexp"
	"strings"
)

// hostClaim is what a router rule says about hosts: exact names from
// Host/HostSNI and patterns from HostRegexp/HostSNIRegexp. any is set for
// HostSNI(`*`), which matches every host.
type hostClaim struct {
	hosts    []string
	patterns []*regexp.Regexp
	any      bool
}

// hostMatchers are the matchers whose arguments name hosts, and whether
// their arguments are regular expressions.
var hostMatchers = map[string]bool{
	"Host": false, "HostSNI": false, "HostRegexp": true, "HostSNIRegexp": true,
	// Traefik v2 rule syntax, still accepted with ruleSyntax: v2.
	"HostHeader": false,
}

// parseHosts extracts the hosts a Traefik rule matches on. It understands
// both quoting styles (`x` and "x"), several arguments (v2 syntax), and skips
// negated matchers (!Host(...)), which claim nothing.
func parseHosts(rule string) hostClaim {
	var c hostClaim
	for i := 0; i < len(rule); {
		if q := rule[i]; q == '`' || q == '"' {
			i = closing(rule, i) + 1
			continue
		}
		j := i
		for j < len(rule) && isIdent(rule[j]) {
			j++
		}
		if j == i {
			i++
			continue
		}
		name := rule[i:j]
		negated := i > 0 && prevNonSpace(rule, i) == '!'
		isRegexp, ok := hostMatchers[name]
		k := skipSpace(rule, j)
		if !ok || k >= len(rule) || rule[k] != '(' {
			i = j
			continue
		}
		args, end := parseArgs(rule, k+1)
		i = end
		if negated {
			continue
		}
		for _, a := range args {
			switch {
			case isRegexp:
				if re, err := regexp.Compile("(?i)" + a); err == nil {
					c.patterns = append(c.patterns, re)
				}
			case a == "*" && strings.HasPrefix(name, "HostSNI"):
				c.any = true
			case a != "":
				c.hosts = append(c.hosts, strings.ToLower(strings.TrimSuffix(a, ".")))
			}
		}
	}
	return c
}

// matches reports whether the claim covers host.
func (c hostClaim) matches(host string) bool {
	if c.any {
		return true
	}
	host = strings.ToLower(host)
	for _, h := range c.hosts {
		if h == host {
			return true
		}
	}
	for _, re := range c.patterns {
		if re.MatchString(host) {
			return true
		}
	}
	return false
}

func (c hostClaim) empty() bool { return !c.any && len(c.hosts) == 0 && len(c.patterns) == 0 }

// parseArgs reads quoted arguments from s[i:] up to the closing parenthesis
// and returns them with the index after it.
func parseArgs(s string, i int) ([]string, int) {
	var args []string
	for i < len(s) {
		switch ch := s[i]; ch {
		case ')':
			return args, i + 1
		case '`', '"':
			end := i + 1
			var b strings.Builder
			for end < len(s) && s[end] != ch {
				if ch == '"' && s[end] == '\\' && end+1 < len(s) {
					end++
				}
				b.WriteByte(s[end])
				end++
			}
			args = append(args, b.String())
			i = end + 1
		default:
			i++
		}
	}
	return args, i
}

// closing returns the index of the quote closing the literal opened at s[i].
func closing(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if q == '"' && s[j] == '\\' {
			j++
			continue
		}
		if s[j] == q {
			return j
		}
	}
	return len(s) - 1
}

func isIdent(b byte) bool {
	return b == '_' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	return i
}

func prevNonSpace(s string, i int) byte {
	for i--; i >= 0; i-- {
		if s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
			return s[i]
		}
	}
	return 0
}
