package accessrule

import (
	"path"
	"strings"
)

// Path is a request path as rules read it.
type Path struct {
	// Clean is what an RFC 3986 upstream sees: percent-decoded once, dot
	// segments and duplicate slashes resolved, a trailing slash kept.
	Clean string
	// Ambiguous is set when an upstream could read the raw path differently
	// from Clean: dot segments, duplicate slashes, backslashes, ';'
	// parameters, encoded separators, double encoding or bad escapes.
	// Allow rules never match an ambiguous path.
	Ambiguous bool
	// variants are the other plausible readings (with Clean), for deny and
	// authenticate rules; nil when the path has only one reading.
	variants []string
}

// readings returns every plausible reading of the path.
func (p *Path) readings() []string {
	if p.variants == nil {
		return []string{p.Clean}
	}
	return p.variants
}

// ParsePath reads the path of a request URI (path and query, as Traefik's
// X-Forwarded-Uri carries it). The common case, a plain path, costs no
// allocation.
func ParsePath(uri string) Path {
	raw := uri
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw = raw[:i]
	}
	if raw == "" || raw[0] != '/' {
		raw = "/" + raw
		p := parseComplex(raw)
		p.Ambiguous = true
		return p
	}
	if plain(raw) {
		return Path{Clean: raw}
	}
	return parseComplex(raw)
}

// plain reports a path with one reading: no escapes, backslashes or
// parameters, no empty, "." or ".." segment.
func plain(raw string) bool {
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case '%', '\\', ';':
			return false
		case '/':
			rest := raw[i+1:]
			if strings.HasPrefix(rest, "/") || rest == "." || rest == ".." ||
				strings.HasPrefix(rest, "./") || strings.HasPrefix(rest, "../") {
				return false
			}
		}
	}
	return true
}

func parseComplex(raw string) Path {
	dec, ok, structural := decodeOnce(raw)
	p := Path{}
	if !ok {
		dec = raw
	}
	p.Clean = cleanPath(dec)
	p.Ambiguous = !ok || structural || strings.ContainsAny(raw, `\;`) || !plain(dec)
	full := dec
	for i := 0; i < 3 && strings.IndexByte(full, '%') >= 0; i++ {
		next, ok, _ := decodeOnce(full)
		if !ok || next == full {
			break
		}
		full = next
	}
	full = stripParams(strings.ReplaceAll(full, `\`, "/"))
	p.variants = appendUnique([]string{p.Clean}, cleanPath(full), cleanPath(stripParams(raw)), cleanPath(raw))
	return p
}

func appendUnique(list []string, more ...string) []string {
	for _, m := range more {
		seen := false
		for _, l := range list {
			if l == m {
				seen = true
				break
			}
		}
		if !seen {
			list = append(list, m)
		}
	}
	return list
}

// decodeOnce percent-decodes s. ok is false on a malformed escape;
// structural is set when an escape decoded to a byte that changes the
// path's structure or cannot be part of it: / \ ; % ? # or a control byte.
func decodeOnce(s string) (out string, ok, structural bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, true, false
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return s, false, false
		}
		d := unhex(s[i+1])<<4 | unhex(s[i+2])
		if d < 0x20 || d == 0x7f || strings.IndexByte(`/\;%?#`, d) >= 0 {
			structural = true
		}
		b.WriteByte(d)
		i += 2
	}
	return b.String(), true, structural
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

// stripParams removes ";params" from every segment, as servlet containers do.
func stripParams(s string) string {
	if strings.IndexByte(s, ';') < 0 {
		return s
	}
	segs := strings.Split(s, "/")
	for i, seg := range segs {
		segs[i], _, _ = strings.Cut(seg, ";")
	}
	return strings.Join(segs, "/")
}

// cleanPath resolves dot segments and duplicate slashes, keeping a trailing
// slash (which upstreams may treat as a different resource).
func cleanPath(s string) string {
	c := path.Clean("/" + s)
	if c != "/" && (strings.HasSuffix(s, "/") || strings.HasSuffix(s, "/.") || strings.HasSuffix(s, "/..")) {
		c += "/"
	}
	return c
}
