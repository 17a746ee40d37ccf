package containers

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// The labels that declare a service (documented in docs/containers.md).
const (
	LabelPrefix       = "gatehouse."
	LabelEnable       = "gatehouse.enable"
	LabelName         = "gatehouse.name"
	LabelHostname     = "gatehouse.hostname"
	LabelPort         = "gatehouse.port"
	LabelNetwork      = "gatehouse.network"
	LabelScheme       = "gatehouse.scheme"
	LabelEntrypoints  = "gatehouse.entrypoints"
	LabelProtection   = "gatehouse.protection"
	LabelAccessPreset = "gatehouse.access.preset"
)

// Bounds on what a label may hold, checked before any other use.
const (
	maxLabelValue = 1024
	maxHostnames  = 16
	maxNameLen    = 100
)

// Protections a label may ask for.
const (
	ProtectionNone   = "none"
	ProtectionPeople = "people"
)

var knownLabels = []string{LabelEnable, LabelName, LabelHostname, LabelPort, LabelNetwork, LabelScheme, LabelEntrypoints,
	LabelProtection, LabelAccessPreset}

// Spec is the service a container's gatehouse.* labels declare.
type Spec struct {
	Name      string
	Hostnames []string
	Port      int // 0: the container's only exposed port
	Network   string
	Scheme    string
	// Entrypoints are Traefik's entrypoints the service answers on
	// (none: the panel's default entrypoints).
	Entrypoints  []string
	Protection   string // none or people
	AccessPreset string // an access preset's id, or ""
	// Digest identifies the labels' values: unchanged labels are not
	// applied again.
	Digest string
}

// LabelError is one label the panel refused, and why.
type LabelError struct {
	Label   string `json:"label"`
	Message string `json:"message"`
}

// Declared reports whether labels ask for a service (gatehouse.enable=true).
func Declared(labels map[string]string) bool {
	v, ok := labels[LabelEnable]
	if !ok {
		return false
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	return err == nil && b
}

// ParseLabels reads the gatehouse.* labels of a container named name.
// presets are the access presets' ids. Every problem is reported, label by
// label; a container with any is not turned into a service.
func ParseLabels(name string, labels map[string]string, presets []string) (Spec, []LabelError) {
	var errs []LabelError
	bad := func(label, format string, args ...any) {
		errs = append(errs, LabelError{Label: label, Message: fmt.Sprintf(format, args...)})
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		if strings.HasPrefix(k, LabelPrefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	get := func(k string) string { return strings.TrimSpace(labels[k]) }
	for _, k := range keys {
		switch {
		case len(k) > 128:
			bad(k[:128], "is not a label the panel knows")
		case !slices.Contains(knownLabels, k):
			bad(k, "is not a label the panel knows (see docs/containers.md)")
		case len(labels[k]) > maxLabelValue:
			bad(k, "is longer than %d bytes", maxLabelValue)
		case !utf8.ValidString(labels[k]):
			bad(k, "is not valid UTF-8")
		}
	}
	if len(errs) > 0 {
		return Spec{}, errs
	}
	if v, ok := labels[LabelEnable]; ok {
		if _, err := strconv.ParseBool(strings.TrimSpace(v)); err != nil {
			bad(LabelEnable, "must be true or false")
		}
	}
	s := Spec{Name: get(LabelName), Network: get(LabelNetwork), Scheme: strings.ToLower(get(LabelScheme)),
		Protection: strings.ToLower(get(LabelProtection)), AccessPreset: get(LabelAccessPreset)}
	if s.Name == "" {
		s.Name = name
	}
	if utf8.RuneCountInString(s.Name) > maxNameLen {
		bad(LabelName, "is longer than %d characters", maxNameLen)
	}
	hosts := get(LabelHostname)
	if hosts == "" {
		bad(LabelHostname, "is required: the host name (or several, separated by commas) the service answers on")
	}
	for h := range strings.SplitSeq(hosts, ",") {
		h = validate.NormalizeHostname(strings.TrimSpace(h))
		if h == "" {
			continue
		}
		if len(s.Hostnames) == maxHostnames {
			bad(LabelHostname, "names more than %d hosts", maxHostnames)
			break
		}
		if err := validate.Hostname(h, false); err != nil {
			bad(LabelHostname, "%q: %v", h, err)
			continue
		}
		if !slices.Contains(s.Hostnames, h) {
			s.Hostnames = append(s.Hostnames, h)
		}
	}
	if v := get(LabelPort); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 1 || p > 65535 {
			bad(LabelPort, "must be a port between 1 and 65535")
		}
		s.Port = p
	}
	for ep := range strings.SplitSeq(get(LabelEntrypoints), ",") {
		ep = strings.TrimSpace(ep)
		if ep == "" {
			continue
		}
		if !validate.Entrypoint(ep) || len(s.Entrypoints) == maxHostnames {
			bad(LabelEntrypoints, "%q is not an entrypoint name (or there are more than %d)", truncate(ep, 64), maxHostnames)
			break
		}
		if !slices.Contains(s.Entrypoints, ep) {
			s.Entrypoints = append(s.Entrypoints, ep)
		}
	}
	if s.Network != "" && !validNetworkName(s.Network) {
		bad(LabelNetwork, "is not a network name (letters, digits, and . _ -, at most 128)")
	}
	switch s.Scheme {
	case "":
		s.Scheme = "http"
	case "http", "https", "h2c":
	default:
		bad(LabelScheme, "must be http, https or h2c")
	}
	switch s.Protection {
	case "":
		s.Protection = ProtectionNone
	case ProtectionNone, ProtectionPeople:
	default:
		bad(LabelProtection, "must be none or people (people signed in on the portal)")
	}
	if s.AccessPreset != "" && !slices.Contains(presets, s.AccessPreset) {
		bad(LabelAccessPreset, "is not an access preset (one of: %s)", strings.Join(presets, ", "))
	}
	if len(errs) > 0 {
		return Spec{}, errs
	}
	s.Digest = digest(labels, keys)
	return s, nil
}

func validNetworkName(n string) bool {
	if n == "" || len(n) > 128 {
		return false
	}
	for _, r := range n {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			return false
		}
	}
	return true
}

func digest(labels map[string]string, keys []string) string {
	h := sha256.New()
	for _, k := range keys {
		_, _ = fmt.Fprintf(h, "%s=%s\x00", k, labels[k]) // a hash never fails to write
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
