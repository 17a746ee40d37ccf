package document

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Limits of a document an import reads.
const (
	MaxSize  = 32 << 20 // bytes
	MaxItems = 20000    // per list
)

// Is reports whether data looks like a Gatehouse export (a JSON object
// whose "format" is Format), without reading it fully.
func Is(data []byte) bool {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return false
	}
	var head struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &head) == nil && head.Format == Format
}

// Parse reads an export strictly: unknown fields, a second value, a wrong
// format or a version newer than this build are refused with an error that
// names the offending field (apperr, 400).
func Parse(data []byte) (Document, error) {
	var doc Document
	if len(data) > MaxSize {
		return doc, apperr.Field("file", "is larger than %d MiB", MaxSize>>20)
	}
	var head struct {
		Format  string          `json:"format"`
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return doc, decodeError(err)
	}
	if head.Format != Format {
		return doc, apperr.Field("format", "must be %q (this is not a Gatehouse export)", Format)
	}
	var version int
	if err := json.Unmarshal(head.Version, &version); err != nil || version < 1 {
		if len(head.Version) > 0 && bytes.IndexFunc(head.Version, func(r rune) bool { return r < '0' || r > '9' }) < 0 {
			return doc, apperr.Field("version", "version %s is newer than this panel reads (%d)", head.Version, Version)
		}
		return doc, apperr.Field("version", "must be a whole number from 1")
	}
	if version > Version {
		return doc, apperr.Field("version", "version %d is newer than this panel reads (%d)", version, Version)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return Document{}, decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Document{}, apperr.Field("file", "has more than one JSON value")
	}
	return doc, doc.checkSizes()
}

func (d *Document) checkSizes() error {
	var c apperr.Collector
	for name, n := range map[string]int{
		"domains": len(d.Domains), "services": len(d.Services), "credentialSets": len(d.CredentialSets),
		"machineTokens": len(d.MachineTokens), "notifyChannels": len(d.NotifyChannels), "admins": len(d.Admins),
	} {
		if n > MaxItems {
			c.Add(name, "must have at most %d items", MaxItems)
		}
	}
	return c.Err()
}

// decodeError turns a JSON error into a 400 naming where it happened.
func decodeError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return apperr.Field("file", "is not valid JSON (at byte %d): %v", syn.Offset, syn)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "file"
		}
		return apperr.Field(field, "must be %s, not %s", jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return apperr.Field("file", "is truncated: the JSON ends too early")
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return apperr.Field(strings.Trim(name, `"`), "is not a field of this format version")
	}
	if strings.Contains(msg, "parsing time") {
		return apperr.Field("file", "holds a time that is not RFC 3339: %v", trim(msg))
	}
	return apperr.Field("file", "cannot be read: %v", trim(msg))
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
