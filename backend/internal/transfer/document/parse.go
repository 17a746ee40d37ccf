package document

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Limits of a document an import reads.
const (
	MaxSize  = 32 << 20 // bytes
	MaxItems = 20000    // per list
)

// formatField finds the format near the start of a file that may be
// damaged, so a truncated export is reported as one.
var formatField = regexp.MustCompile(`"format"\s*:\s*"` + Format + `"`)

// Is reports whether data looks like a Gatehouse export: a JSON object
// whose "format" is Format (or, when the JSON is damaged, that names it
// near its start, so the import reports the damage rather than an unknown format).
func Is(data []byte) bool {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return false
	}
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err == nil {
		return head.Format == Format
	}
	return formatField.Match(data[:min(len(data), 64<<10)])
}

// Bad is a file that cannot be read: a 400 naming field (the JSON path of
// the offending value, or "file").
func Bad(field, format string, args ...any) *apperr.Error {
	msg := fmt.Sprintf(format, args...)
	return &apperr.Error{Code: apperr.CodeInvalidRequest, Message: field + ": " + msg,
		Fields: []apperr.FieldError{{Field: field, Message: msg}}}
}

// Parse reads an export strictly: unknown fields, a second value, a wrong
// format or a version newer than this build are refused with an error that
// names the offending field (apperr, 400).
func Parse(data []byte) (Document, error) {
	var doc Document
	if len(data) > MaxSize {
		return doc, Bad("file", "is larger than %d MiB", MaxSize>>20)
	}
	var head struct {
		Format  string          `json:"format"`
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return doc, decodeError(err)
	}
	if head.Format != Format {
		return doc, Bad("format", "must be %q (this is not a Gatehouse export)", Format)
	}
	var version int
	if err := json.Unmarshal(head.Version, &version); err != nil || version < 1 {
		if len(head.Version) > 0 && bytes.IndexFunc(head.Version, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
			return doc, Bad("version", "version %s is newer than this panel reads (%d)", head.Version, Version)
		}
		return doc, Bad("version", "must be a whole number from 1")
	}
	if version > Version {
		return doc, Bad("version", "version %d is newer than this panel reads (%d)", version, Version)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return Document{}, decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Document{}, Bad("file", "has more than one JSON value")
	}
	return doc, doc.checkSizes()
}

func (d *Document) checkSizes() error {
	for _, l := range []struct {
		name string
		n    int
	}{
		{"domains", len(d.Domains)}, {"services", len(d.Services)}, {"credentialSets", len(d.CredentialSets)},
		{"machineTokens", len(d.MachineTokens)}, {"notifyChannels", len(d.NotifyChannels)}, {"admins", len(d.Admins)},
		{"groups", len(d.Groups)}, {"oidcClients", len(d.OIDCClients)}, {"alertRules", len(d.Rules())},
	} {
		if l.n > MaxItems {
			return Bad(l.name, "must have at most %d items", MaxItems)
		}
	}
	for i, g := range d.Groups {
		if len(g.Members) > MaxItems {
			return Bad(fmt.Sprintf("groups[%d].members", i), "must have at most %d items", MaxItems)
		}
	}
	return nil
}

// decodeError turns a JSON error into a 400 naming where it happened.
func decodeError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return Bad("file", "is not valid JSON (at byte %d): %v", syn.Offset, syn)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "file"
		}
		return Bad(field, "must be %s, not %s", jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return Bad("file", "is truncated: the JSON ends too early")
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		if name = strings.Trim(name, `"`); name != "" && len(name) <= 100 {
			return Bad(name, "is not a field of this format version")
		}
		return Bad("file", "has a field this format version does not know: %s", trim(msg))
	}
	if strings.Contains(msg, "parsing time") {
		return Bad("file", "holds a time that is not RFC 3339: %v", trim(msg))
	}
	return Bad("file", "cannot be read: %v", trim(msg))
}

func jsonKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"):
		return "a whole number in range"
	case strings.HasPrefix(k, "float"):
		return "a number"
	case k == "string":
		return "a string"
	case k == "bool":
		return "true or false"
	case k == "slice", k == "array":
		return "a list"
	case k == "map", k == "struct", k == "ptr":
		return "an object"
	}
	return fmt.Sprintf("a %s", k)
}

func trim(s string) string {
	s = strings.TrimPrefix(s, "json: ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
