package rules

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The readings of a path. Upstreams disagree on how to read a request
// path, and a rule must see each way one of them reads it. A reading is
// the raw path put through, in this order:
//
//  1. percent-decoding zero to four times (malformed escapes kept as they
//     are; IIS's %uXXXX decoded too);
//  2. optionally, Unicode folding: overlong UTF-8 encodings of ASCII bytes
//     decoded (%c0%ae is '.'), NFKC (full-width '．' '／' '＼' and the
//     like become ASCII) and the look-alikes NFKC leaves alone but Windows'
//     best-fit code pages map ('∕' U+2215, '⁄' U+2044, '∖' U+2216, '¥',
//     '₩' and others, see lookalikes);
//  3. optionally, everything from the first NUL byte cut off (C strings);
//  4. optionally, '\' read as '/' (Windows, IIS);
//  5. optionally, ";parameters" removed from each segment (Tomcat, Jetty);
//  6. optionally, each segment trimmed as Windows and Java do: an NTFS
//     stream (::$DATA, :$DATA, :name:$DATA) cut off, leading and trailing
//     spaces and control bytes, and trailing dots;
//  7. dot segments and duplicate slashes resolved.
//
// Every combination of the optional steps is a reading. The set is
// computed only for a path with a byte that can change it (see plain), and
// its size is bounded by readingBudget.

// readingBudget bounds the bytes of strings built for the readings of one
// path. Past it the path is Overflow: fail closed without reading further.
// A 16 KiB path of escapes and UTF-8 needs about half of it.
const readingBudget = 64 << 10

// maxDecodes is how many times a path is percent-decoded at most.
const maxDecodes = 4

type readingSet struct {
	list     []string // cleaned readings, the first one Clean
	left     int
	overflow bool
}

func newReadingSet(clean string, n int) *readingSet {
	return &readingSet{list: []string{clean}, left: readingBudget - n}
}

// spend takes n bytes from the budget and reports whether they were there.
func (rs *readingSet) spend(n int) bool {
	rs.left -= n
	if rs.left < 0 {
		rs.overflow = true
	}
	return !rs.overflow
}

// strset is a small set of strings that keeps their order: a list while
// short, with a map beside it once it grows.
type strset struct {
	list []string
	m    map[string]struct{}
}

// add reports whether s was new.
func (ss *strset) add(s string) bool {
	if ss.m != nil {
		if _, ok := ss.m[s]; ok {
			return false
		}
		ss.m[s] = struct{}{}
	} else {
		for _, x := range ss.list {
			if x == s {
				return false
			}
		}
		if len(ss.list) >= 8 {
			ss.m = make(map[string]struct{}, 32)
			for _, x := range ss.list {
				ss.m[x] = struct{}{}
			}
			ss.m[s] = struct{}{}
		}
	}
	ss.list = append(ss.list, s)
	return true
}

// expand computes every reading of raw into rs.list. lookalike reports
// that Unicode folding made a byte that changes the path's structure.
func (rs *readingSet) expand(raw string) (lookalike bool) {
	set := strset{list: make([]string, 1, 8)}
	set.list[0] = raw
	// Every string a step builds is paid for, new or not; a step with
	// nothing to do returns its input after a scan and costs nothing.
	add := func(s string) {
		if rs.spend(len(s)) {
			set.add(s)
		}
	}
	for cur, i := raw, 0; i < maxDecodes && !rs.overflow && strings.IndexByte(cur, '%') >= 0; i++ {
		next := decodeLenient(cur)
		if next == cur {
			break
		}
		add(next)
		cur = next
	}
	n := len(set.list)
	for i := 0; i < n && !rs.overflow; i++ {
		s := set.list[i]
		if isASCII(s) || !rs.spend(len(s)) { // NFKC is the costly step: pay for its input
			continue
		}
		if f, structural := foldUnicode(s); f != s {
			lookalike = lookalike || structural
			add(f)
		}
	}
	for _, step := range [...]func(string) string{cutNUL, backslashes, stripParams, trimSegments} {
		n := len(set.list)
		for i := 0; i < n && !rs.overflow; i++ {
			if v := step(set.list[i]); v != set.list[i] {
				add(v)
			}
		}
	}
	out := strset{list: rs.list}
	for _, s := range set.list {
		c := cleanPath(s)
		if !rs.spend(len(c)) {
			break
		}
		out.add(c)
	}
	rs.list = out.list
	return lookalike
}

// decodeLenient percent-decodes s once as the most lenient upstream does:
// valid %XX and IIS's %uXXXX escapes decoded, anything else kept.
func decodeLenient(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c != '%':
			b.WriteByte(c)
		case i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		case i+5 < len(s) && (s[i+1] == 'u' || s[i+1] == 'U') && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]):
			r := rune(unhex(s[i+2]))<<12 | rune(unhex(s[i+3]))<<8 | rune(unhex(s[i+4]))<<4 | rune(unhex(s[i+5]))
			b.WriteRune(r)
			i += 5
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// lookalikes maps characters NFKC leaves alone to the ASCII byte some
// upstream reads them as (Windows best-fit code pages, mostly).
var lookalikes = map[rune]rune{
	'\u2215': '/', '\u2044': '/', '\u29f8': '/', '\u2571': '/',
	'\u2216': '\\', '\u29f5': '\\', '\u29f9': '\\', '\u2572': '\\', '\u00a5': '\\', '\u20a9': '\\',
	'\u3002': '.', '\u2236': ':', '\ua789': ':',
}

// lookalike maps one rune through lookalikes; ASCII costs no lookup.
func lookalike(r rune) rune {
	if r < 0xa5 {
		return r
	}
	if m, ok := lookalikes[r]; ok {
		return m
	}
	return r
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// foldUnicode decodes overlong UTF-8 encodings of ASCII bytes, applies
// NFKC and maps lookalikes. structural reports that it made a byte that
// separates, names or escapes segments (/ \ . : ; % or a control byte).
func foldUnicode(s string) (string, bool) {
	if isASCII(s) {
		return s, false
	}
	f := strings.Map(lookalike, norm.NFKC.String(decodeOverlong(s)))
	return f, countStructural(f) > countStructural(s)
}

func countStructural(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || strings.IndexByte(`/\.:;%`, c) >= 0 {
			n++
		}
	}
	return n
}

// decodeOverlong replaces the overlong two-, three- and four-byte UTF-8
// encodings of an ASCII byte with that byte, as lax decoders read them:
// old IIS ignored the continuation bytes' top bits too, so %c1%1c was '\'
// and %c0%2e '.' (CVE-2000-0884).
func decodeOverlong(s string) string {
	var b []byte
	last := 0
	for i := 0; i < len(s); i++ {
		c, n := overlongAt(s, i)
		if n == 0 {
			continue
		}
		if b == nil {
			b = make([]byte, 0, len(s))
		}
		b = append(append(b, s[last:i]...), c)
		i += n - 1
		last = i + 1
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// overlongAt returns the ASCII byte a lax decoder reads from an overlong
// sequence at s[i] and the sequence's length, or n == 0.
func overlongAt(s string, i int) (c byte, n int) {
	switch {
	case (s[i] == 0xc0 || s[i] == 0xc1) && i+1 < len(s):
		return (s[i]&1)<<6 | s[i+1]&0x3f, 2
	case s[i] == 0xe0 && i+2 < len(s) && s[i+1]&0x3e == 0:
		return (s[i+1]&1)<<6 | s[i+2]&0x3f, 3
	case s[i] == 0xf0 && i+3 < len(s) && s[i+1]&0x3f == 0 && s[i+2]&0x3e == 0:
		return (s[i+2]&1)<<6 | s[i+3]&0x3f, 4
	}
	return 0, 0
}

// cutNUL cuts s at its first NUL byte, as C string handling does.
func cutNUL(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// backslashes reads '\' as '/'.
func backslashes(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	return strings.ReplaceAll(s, `\`, "/")
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

// trimSegments trims every segment as Windows and Java read it: an NTFS
// stream cut off (a segment with ":$" from its first ':' on: a::$DATA,
// a:$DATA and a:$I30:$INDEX_ALLOCATION are a; a:b alone is left, as
// Matrix IDs and Google-style a:action paths have it), leading and
// trailing spaces and control bytes (Java's String.trim, Windows), then
// trailing dots (Windows) unless the segment is "." or "..".
func trimSegments(s string) string {
	if !needsTrim(s) {
		return s
	}
	segs := strings.Split(s, "/")
	changed := false
	for i, seg := range segs {
		t := seg
		if strings.Contains(t, ":$") {
			t, _, _ = strings.Cut(t, ":")
		}
		t = strings.TrimFunc(t, func(r rune) bool { return r <= ' ' })
		if t != "." && t != ".." {
			t = strings.TrimRight(t, ". \x00\t\n\v\f\r")
		}
		if t != seg {
			segs[i], changed = t, true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(segs, "/")
}

// needsTrim reports a path with a segment trimSegments would change.
func needsTrim(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' && i+1 < len(s) && s[i+1] == '$' || c <= ' ' || c == '.' && (i+1 == len(s) || s[i+1] == '/') {
			return true
		}
	}
	return false
}
