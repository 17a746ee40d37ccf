package rules

import (
	"path"
	"strings"
)

// Path is a request path as rules read it.
type Path struct {
	// Clean is what an RFC 3986 upstream sees: percent-decoded once, dot
	// segments and duplicate slashes resolved, a trailing slash kept.
	Clean string
	// Ambiguous is set when an upstream could read the raw path with other
	// segments than Clean: dot segments, duplicate slashes, backslashes,
	// ';' parameters, encoded separators, double or bad encoding, a NUL,
	// overlong UTF-8 or a Unicode look-alike of a separator. Allow rules
	// never match an ambiguous path.
	Ambiguous bool
	// Overflow is set when the readings of a hostile path would cost more
	// than readingBudget bytes to compute: such a path is matched by every
	// deny and authenticate path condition and by no allow rule.
	Overflow bool
	// variants are every plausible reading, Clean first; nil when Clean is
	// the only one.
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
// X-Forwarded-Uri carries it). The common case, a path with no byte that
// could be read another way, costs no allocation.
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

// trigger marks the bytes that can make some upstream read a path another
// way: escapes, backslashes, parameters, NTFS stream names, whitespace and
// control bytes (trimmed or truncated by some), and every non-ASCII byte
// (look-alikes, overlong UTF-8). '.' and '/' depend on their neighbours.
var trigger = func() (t [256]bool) {
	for _, c := range []byte("%\\;: \x7f") {
		t[c] = true
	}
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

// plain reports a path with one reading: no trigger byte, no empty segment
// and no segment ending in '.' (dot segments, and the trailing dots Windows
// strips).
func plain(raw string) bool {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case trigger[c]:
			return false
		case c == '/' && i+1 < len(raw) && raw[i+1] == '/':
			return false
		case c == '.' && (i+1 == len(raw) || raw[i+1] == '/'):
			return false
		}
	}
	return true
}

// structurallyPlain reports a decoded path whose segments every upstream
// reads alike: no escape left, no backslash or parameter, no dot segment or
// duplicate slash.
func structurallyPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '%', '\\', ';':
			return false
		case '/':
			rest := s[i+1:]
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
	p.Ambiguous = !ok || structural || strings.ContainsAny(raw, `\;`) || !structurallyPlain(dec)
	rs := newReadingSet(p.Clean, len(raw))
	lookalike := rs.expand(raw)
	p.Ambiguous = p.Ambiguous || lookalike || rs.overflow
	p.Overflow = rs.overflow
	if len(rs.list) > 1 {
		p.variants = rs.list
	}
	return p
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

// cleanPath resolves dot segments and duplicate slashes, keeping a trailing
// slash (which upstreams may treat as a different resource).
func cleanPath(s string) string {
	if s == "" || s[0] != '/' {
		s = "/" + s
	}
	c := path.Clean(s)
	if c != "/" && (strings.HasSuffix(s, "/") || strings.HasSuffix(s, "/.") || strings.HasSuffix(s, "/..")) {
		c += "/"
	}
	return c
}
