// Package traefikfile reads a Traefik dynamic configuration file, YAML or
// TOML as Traefik's file provider reads it, into a Gatehouse document:
// every HTTP router whose rule, service and middlewares Gatehouse can
// express becomes a service, and everything else is listed as skipped with
// the reason.
package traefikfile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// MaxSize bounds the file: a configuration of thousands of routers takes a
// few hundred KiB.
const MaxSize = 8 << 20

// Reader reads Traefik dynamic configuration files.
type Reader struct{}

// New returns the reader.
func New() Reader { return Reader{} }

// Name is the format's name in the API and CLI.
func (Reader) Name() string { return "traefik" }

// Title names the format for people.
func (Reader) Title() string { return "a Traefik dynamic configuration file" }

// Detect reports whether data is a YAML or TOML file with an http.routers
// section.
func (Reader) Detect(data []byte) bool {
	if len(data) > MaxSize || !utf8.Valid(data) || bytes.Contains(data, []byte("{{")) {
		return false
	}
	root, err := decodeTree(data, looksTOML(data))
	if err != nil {
		return false
	}
	for _, sec := range []string{"http", "tcp", "udp"} {
		h, ok, err := field(root, sec)
		if !ok || err != nil {
			continue
		}
		hm, isObj := h.(obj)
		if !isObj {
			continue
		}
		r, ok, err := field(hm, "routers")
		if _, isObj = r.(obj); ok && err == nil && isObj {
			return true
		}
	}
	return false
}

// Read turns the file into a document and the list of what did not come
// over. A file that is not a Traefik dynamic configuration is an error.
func (Reader) Read(data []byte) (document.Document, []document.Skipped, error) {
	doc := document.Document{Format: document.Format, Version: document.Version,
		Domains: []document.Domain{}, Services: []document.Service{}, CredentialSets: []document.CredentialSet{}}
	if len(data) > MaxSize {
		return doc, nil, fmt.Errorf("the file is larger than %d MiB", MaxSize>>20)
	}
	if !utf8.Valid(data) {
		return doc, nil, errors.New("the file is not UTF-8 text (Traefik's YAML and TOML files are)")
	}
	if bytes.Contains(data, []byte("{{")) {
		return doc, nil, errors.New("the file uses Go template syntax ({{ }}), which Traefik's file provider renders before reading; " +
			"import the rendered configuration instead (Traefik logs it with providers.file.debugLogGeneratedTemplate)")
	}
	root, err := decodeTree(data, looksTOML(data))
	if err != nil {
		return doc, nil, err
	}
	f := &file{}
	skipped, err := f.sections(root)
	if err != nil {
		return doc, nil, err
	}
	services, sets, more := f.convert()
	doc.Services = append(doc.Services, services...)
	doc.CredentialSets = append(doc.CredentialSets, sets...)
	skipped = append(skipped, more...)
	taken := map[string]bool{}
	for _, s := range doc.Services {
		taken[strings.ToLower(s.Name)] = true
	}
	for _, sec := range f.stream {
		svcs, more := sec.convert(taken)
		doc.Services = append(doc.Services, svcs...)
		skipped = append(skipped, more...)
	}
	return doc, skipped, nil
}

// file holds the http section's parts, and the tcp and udp sections.
type file struct {
	routers, services, middlewares, transports obj
	stream                                     []*streamSection
}

// sections reads the top level: http, tcp and udp are imported, tls is
// listed as skipped. Keys Traefik does not know are ignored, as Traefik
// ignores them.
func (f *file) sections(root obj) ([]document.Skipped, error) {
	var skipped []document.Skipped
	found := false
	for _, proto := range []string{"tcp", "udp"} {
		v, ok, err := field(root, proto)
		if err != nil {
			return nil, fmt.Errorf("top level: %w", err)
		}
		if !ok {
			continue
		}
		found = true
		sec, err := readStream(proto, v)
		if err != nil {
			return nil, err
		}
		f.stream = append(f.stream, sec)
	}
	for _, s := range []struct{ key, reason string }{
		{"tls", "certificates, TLS options and stores are not imported: Gatehouse obtains certificates through each domain's resolver; " +
			"keep stored certificates and TLS options in a file Traefik reads alongside"},
	} {
		v, ok, err := field(root, s.key)
		if err != nil {
			return nil, fmt.Errorf("top level: %w", err)
		}
		if ok {
			found = true
			skipped = append(skipped, document.Skipped{Source: s.key + " section" + sectionCounts(v), Reason: s.reason})
		}
	}
	h, ok, err := field(root, "http")
	if err != nil {
		return nil, fmt.Errorf("top level: %w", err)
	}
	if !ok {
		if !found {
			return nil, errors.New("no http, tcp, udp or tls section: this is not a Traefik dynamic configuration file")
		}
		return skipped, nil
	}
	hm, err := asObj(h, "http")
	if err != nil {
		return nil, err
	}
	for _, p := range []struct {
		key string
		dst *obj
	}{{"routers", &f.routers}, {"services", &f.services}, {"middlewares", &f.middlewares}, {"serversTransports", &f.transports}} {
		v, ok, err := field(hm, p.key)
		if err != nil {
			return nil, fmt.Errorf("http: %w", err)
		}
		*p.dst = obj{}
		if ok {
			if *p.dst, err = asObj(v, path("http", p.key)); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range []string{"models"} {
		if _, ok, _ := field(hm, k); ok {
			skipped = append(skipped, document.Skipped{Source: "http." + k,
				Reason: "router defaults by entrypoint (models) are not imported; each imported service lists its own settings"})
		}
	}
	return skipped, nil
}

// sectionCounts says how much a skipped section held: " (2 routers, 1 services)".
func sectionCounts(v any) string {
	m, ok := v.(obj)
	if !ok {
		return ""
	}
	out := ""
	for _, k := range sortedKeys(m) {
		if sub, ok := m[k].(obj); ok {
			if out != "" {
				out += ", "
			}
			out += fmt.Sprintf("%d %s", len(sub), k)
		}
	}
	if out == "" {
		return ""
	}
	return " (" + out + ")"
}

var _ document.Reader = Reader{}
