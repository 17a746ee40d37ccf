package traefikfile

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Traefik's file provider (traefik/paerser's file.DecodeContent) decodes a
// file into untyped maps with yaml.v3 or BurntSushi/toml, then fills its
// configuration structs matching keys to field names case-insensitively
// (strings.EqualFold), while map keys such as router names stay exactly as
// written. Every scalar passes through its text form, so "true" and true,
// "8080" and 8080 are the same. This file reads the untyped tree the same way.

const maxDepth = 100

// obj is a decoded mapping.
type obj = map[string]any

// decodeTree parses YAML (or JSON, which YAML reads) or TOML into plain maps,
// slices and scalars.
func decodeTree(data []byte, isTOML bool) (obj, error) {
	if d := nesting(data); d > maxDepth {
		return nil, fmt.Errorf("the file nests deeper than %d levels", maxDepth)
	}
	if !isTOML {
		return decodeYAML(data)
	}
	raw := map[string]any{}
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, fmt.Errorf("not valid TOML: %v", oneLine(err))
	}
	v, err := normalize(raw, 0)
	if err != nil {
		return nil, err
	}
	m, _ := v.(obj)
	return m, nil
}

// oneLine keeps a parser's message on one line, first line only.
func oneLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// nesting is an upper bound of the file's bracket nesting (flow mappings and
// sequences, inline tables and arrays), checked before parsing so a hostile
// file cannot drive a parser into deep recursion.
func nesting(data []byte) int {
	depth, most := 0, 0
	for _, c := range data {
		switch c {
		case '[', '{':
			depth++
			most = max(most, depth)
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return most
}

// normalize turns the decoders' types into obj, []any and scalars (string,
// bool, int64, uint64, float64).
func normalize(v any, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("the file nests deeper than %d levels", maxDepth)
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(obj, len(x))
		for k, e := range x {
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case map[any]any:
		out := make(obj, len(x))
		for k, e := range x {
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[fmt.Sprint(k)] = n
		}
		return out, nil
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, err := normalize(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case int:
		return int64(x), nil
	case time.Time:
		return x.Format(time.RFC3339Nano), nil
	}
	return v, nil
}

// errAmbiguous reports two keys that differ only in case: Traefik would
// fill the same field from both.
var errAmbiguous = errors.New("keys differ only in case")

// field finds name in m the way paerser does (case-insensitively). ok is
// false when the key is absent or null.
func field(m obj, name string) (v any, ok bool, err error) {
	found := ""
	for k, e := range m {
		if !strings.EqualFold(k, name) {
			continue
		}
		if found != "" {
			a, b := found, k
			if a > b {
				a, b = b, a
			}
			return nil, false, fmt.Errorf("%q and %q: %w", a, b, errAmbiguous)
		}
		found, v = k, e
	}
	return v, found != "" && v != nil, nil
}

// path names a place in the file for messages: http.routers.web.rule.
func path(parts ...string) string { return strings.Join(parts, ".") }

// sortedKeys lists a mapping's keys in order, for stable output.
func sortedKeys(m obj) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// asObj expects a mapping.
func asObj(v any, at string) (obj, error) {
	m, ok := v.(obj)
	if !ok {
		return nil, fmt.Errorf("%s: must be a mapping, not %s", at, kindName(v))
	}
	return m, nil
}

// asString renders a scalar as paerser does.
func asString(v any, at string) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case float64:
		return strings.TrimSuffix(strconv.FormatFloat(x, 'f', 6, 64), ".000000"), nil
	}
	return "", fmt.Errorf("%s: must be a single value, not %s", at, kindName(v))
}

func asBool(v any, at string) (bool, error) {
	s, err := asString(v, at)
	if err != nil {
		return false, err
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, fmt.Errorf("%s: %q is not true or false", at, s)
	}
	return b, nil
}

func asInt(v any, at string) (int64, error) {
	s, err := asString(v, at)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a whole number within range", at, s)
	}
	return n, nil
}

// asSeconds reads a duration as Traefik's types.Duration does: a bare
// number is seconds, otherwise a Go duration ("10s", "1m30s").
func asSeconds(v any, at string) (time.Duration, error) {
	s, err := asString(v, at)
	if err != nil {
		return 0, err
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 || n > 1<<31 {
			return 0, fmt.Errorf("%s: %q is out of range", at, s)
		}
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a duration", at, s)
	}
	return d, nil
}

// asStringList expects a list of scalars; paerser refuses a single string
// where a list belongs.
func asStringList(v any, at string) ([]string, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: must be a list, not %s", at, kindName(v))
	}
	out := make([]string, 0, len(l))
	for i, e := range l {
		s, err := asString(e, fmt.Sprintf("%s[%d]", at, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func kindName(v any) string {
	switch v.(type) {
	case obj:
		return "a mapping"
	case []any:
		return "a list"
	case nil:
		return "nothing"
	}
	return "a single value"
}

// looksTOML guesses the syntax from the first meaningful line: a [table]
// header or a key = value pair is TOML; anything else is read as YAML.
func looksTOML(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		l := bytes.TrimSpace(line)
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		if l[0] == '[' {
			return bytes.HasSuffix(l, []byte("]")) && !bytes.ContainsAny(l, ",:")
		}
		eq := bytes.IndexByte(l, '=')
		colon := bytes.IndexByte(l, ':')
		return eq > 0 && (colon < 0 || eq < colon)
	}
	return false
}
