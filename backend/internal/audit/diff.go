package audit

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
)

// Redacted replaces a secret value in the log.
const Redacted = "[redacted]"

// secretKey matches JSON keys whose values are secrets. Matching is on the
// key, case-insensitive, anywhere in it ("clientSecret", "proxyHash",
// "recoveryCodes", "apiKey").
var secretKey = regexp.MustCompile(`(?i)password|passwd|secret|token|key|hash|credential|recovery|cookie|otp|seed|private|signature`)

// harmlessKey matches keys that name or time a secret without being one
// ("tokenId", "credentialSetId", "secretUpdatedAt", "tokenCount").
var harmlessKey = regexp.MustCompile(`(Id|ID|Ids|IDs|At|Count|Name|Names|Type|Status)$`)

// harmlessInSecret are the keys inside a secret-named object or list whose
// values stay readable (a credential set's usernames, a token's name).
var harmlessInSecret = map[string]bool{
	"id": true, "name": true, "username": true, "type": true, "kind": true, "label": true,
	"status": true, "scope": true, "services": true, "methods": true, "pathPrefix": true,
}

// Redact returns a copy of a decoded JSON value with secret values replaced
// by Redacted. Booleans, numbers and nulls stay (a flag like "hasPassword"
// or "clientSecretSet" says nothing secret); strings under secret keys go;
// objects and lists under secret keys are walked with only harmless keys'
// strings kept.
func Redact(v any) any { return redact(v, false) }

func redact(v any, inSecret bool) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			secret := inSecret && !harmlessInSecret[k] || isSecretKey(k)
			out[k] = redact(x, secret)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = redact(x, inSecret)
		}
		return out
	case string:
		if inSecret && t != "" {
			return Redacted
		}
		return t
	default:
		return t
	}
}

func isSecretKey(k string) bool { return secretKey.MatchString(k) && !harmlessKey.MatchString(k) }

// Diff lists the changed leaves between two decoded JSON values (nil when
// the resource did not exist), in path order. Lists whose elements are all
// objects with an "id" are matched by id, so inserting one element does not
// show every later element as changed. Both sides are redacted first; a
// secret that changed shows as a change from Redacted to Redacted.
func Diff(before, after any) []Change {
	var out []Change
	diff("", redactPair(before, after), &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

type pair struct{ before, after, rawBefore, rawAfter any }

func redactPair(before, after any) pair {
	return pair{Redact(before), Redact(after), before, after}
}

func diff(path string, p pair, out *[]Change) {
	bm, bIsMap := p.before.(map[string]any)
	am, aIsMap := p.after.(map[string]any)
	if bIsMap || aIsMap {
		if p.before != nil && !bIsMap || p.after != nil && !aIsMap {
			leafChange(path, p, out)
			return
		}
		rbm, _ := p.rawBefore.(map[string]any)
		ram, _ := p.rawAfter.(map[string]any)
		keys := map[string]bool{}
		for k := range bm {
			keys[k] = true
		}
		for k := range am {
			keys[k] = true
		}
		for k := range keys {
			diff(join(path, k), pair{bm[k], am[k], rbm[k], ram[k]}, out)
		}
		return
	}
	bl, bIsList := p.before.([]any)
	al, aIsList := p.after.([]any)
	if bIsList || aIsList {
		if p.before != nil && !bIsList || p.after != nil && !aIsList {
			leafChange(path, p, out)
			return
		}
		rbl, _ := p.rawBefore.([]any)
		ral, _ := p.rawAfter.([]any)
		if byID(bl) && byID(al) {
			diffByID(path, bl, al, rbl, ral, out)
			return
		}
		for i := 0; i < max(len(bl), len(al)); i++ {
			diff(fmt.Sprintf("%s[%d]", path, i), pair{at(bl, i), at(al, i), at(rbl, i), at(ral, i)}, out)
		}
		return
	}
	leafChange(path, p, out)
}

// leafChange records a change of a scalar (or of a value's kind). A
// redacted value that changed underneath still shows as changed.
func leafChange(path string, p pair, out *[]Change) {
	if reflect.DeepEqual(p.before, p.after) && reflect.DeepEqual(p.rawBefore, p.rawAfter) {
		return
	}
	*out = append(*out, Change{Path: path, Before: shorten(p.before), After: shorten(p.after)})
}

func diffByID(path string, bl, al, rbl, ral []any, out *[]Change) {
	index := func(l []any) map[string]int {
		m := make(map[string]int, len(l))
		for i, x := range l {
			m[fmt.Sprint(x.(map[string]any)["id"])] = i
		}
		return m
	}
	bi, ai := index(bl), index(al)
	ids := map[string]bool{}
	for id := range bi {
		ids[id] = true
	}
	for id := range ai {
		ids[id] = true
	}
	for id := range ids {
		var p pair
		if i, ok := bi[id]; ok {
			p.before, p.rawBefore = bl[i], at(rbl, i)
		}
		if i, ok := ai[id]; ok {
			p.after, p.rawAfter = al[i], at(ral, i)
		}
		diff(fmt.Sprintf("%s[id=%s]", path, id), p, out)
	}
}

func byID(l []any) bool {
	if len(l) == 0 {
		return true
	}
	for _, x := range l {
		m, ok := x.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m["id"].(string); !ok {
			return false
		}
	}
	return true
}

func at(l []any, i int) any {
	if i < len(l) {
		return l[i]
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func shorten(v any) any {
	switch t := v.(type) {
	case string:
		return truncate(t, maxValueLen)
	case map[string]any, []any:
		b, _ := json.Marshal(t) //nolint:errchkjson // decoded JSON always encodes
		if len(b) > maxValueLen {
			return truncate(string(b), maxValueLen)
		}
	}
	return v
}

// decodeJSON decodes b, or returns nil when it is empty or not JSON.
func decodeJSON(b []byte) any {
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil
	}
	return v
}
