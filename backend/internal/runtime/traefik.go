package runtime

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// The types below mirror the subset of Traefik's API answers the panel reads
// (pkg/api in Traefik: /api/rawdata, /api/entrypoints, /api/version and, from
// 3.7, /api/certificates). Unknown fields are ignored, so newer Traefik
// versions keep working.

// rawData is GET /api/rawdata: the whole runtime configuration in one answer,
// keyed by qualified name (name@provider). Services carry serverStatus.
type rawData struct {
	Routers     map[string]rawRouter       `json:"routers"`
	Middlewares map[string]json.RawMessage `json:"middlewares"`
	Services    map[string]json.RawMessage `json:"services"`
	TCPRouters  map[string]rawRouter       `json:"tcpRouters"`
	TCPServices map[string]json.RawMessage `json:"tcpServices"`
	// TCPMiddlewares are the TCP middlewares (ipAllowList, inFlightConn).
	TCPMiddlewares map[string]json.RawMessage `json:"tcpMiddlewares"`
	UDPRouters     map[string]rawRouter       `json:"udpRouters"`
	UDPServices    map[string]json.RawMessage `json:"udpServices"`
}

// rawRouter is an HTTP, TCP or UDP router (the fields a kind lacks stay empty).
type rawRouter struct {
	EntryPoints []string        `json:"entryPoints"`
	Middlewares []string        `json:"middlewares"`
	Service     string          `json:"service"`
	Rule        string          `json:"rule"`
	Priority    json.Number     `json:"priority"`
	TLS         json.RawMessage `json:"tls"`
	Errors      []string        `json:"error"`
	Status      string          `json:"status"`
	Using       []string        `json:"using"`
}

// rawTLS is the part of a router's tls section the panel reads.
type rawTLS struct {
	CertResolver string `json:"certResolver"`
}

// rawInfo is the status part shared by services and middlewares.
type rawInfo struct {
	Errors       []string          `json:"error"`
	Status       string            `json:"status"`
	UsedBy       []string          `json:"usedBy"`
	ServerStatus map[string]string `json:"serverStatus"`
	LoadBalancer *struct {
		Servers []struct {
			URL     string `json:"url"`
			Address string `json:"address"`
		} `json:"servers"`
	} `json:"loadBalancer"`
}

// infoKeys are the runtime fields of a service or middleware; any other key
// names its configuration section, which is its type.
var infoKeys = map[string]bool{"error": true, "status": true, "usedBy": true, "serverStatus": true}

// typeOf returns a service's or middleware's type the way Traefik's API
// reports it: the lower-cased name of its configuration section, or the
// plugin's name for plugin middlewares.
func typeOf(raw json.RawMessage) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return ""
	}
	for k, v := range fields {
		if infoKeys[k] {
			continue
		}
		if k == "plugin" {
			var plugins map[string]json.RawMessage
			if json.Unmarshal(v, &plugins) == nil && len(plugins) == 1 {
				for name := range plugins {
					return name
				}
			}
		}
		return strings.ToLower(k)
	}
	return ""
}

// rawEntrypoint is one item of GET /api/entrypoints.
type rawEntrypoint struct {
	Name      string `json:"name"`
	Address   string `json:"address"`
	AsDefault bool   `json:"asDefault"`
	HTTP      *struct {
		TLS *struct {
			CertResolver string `json:"certResolver"`
		} `json:"tls"`
	} `json:"http"`
}

// rawVersion is GET /api/version.
type rawVersion struct {
	Version  string `json:"Version"`
	Codename string `json:"Codename"`
}

// rawCertificate is one item of GET /api/certificates (Traefik 3.7+).
type rawCertificate struct {
	Name         string    `json:"name"`
	SANs         []string  `json:"sans"`
	NotAfter     time.Time `json:"notAfter"`
	NotBefore    time.Time `json:"notBefore"`
	SerialNumber string    `json:"serialNumber"`
	CommonName   string    `json:"commonName"`
	IssuerOrg    string    `json:"issuerOrg"`
	IssuerCN     string    `json:"issuerCN"`
	Organization string    `json:"organization"`
	KeyType      string    `json:"keyType"`
	KeySize      int       `json:"keySize"`
	Status       string    `json:"status"`
}

// provider returns the provider part of a qualified name ("x@file" -> "file").
func provider(qualified string) string {
	if _, p, ok := strings.Cut(qualified, "@"); ok {
		return p
	}
	return ""
}

// bareName returns the name without its provider ("x@file" -> "x").
func bareName(qualified string) string {
	n, _, _ := strings.Cut(qualified, "@")
	return n
}

// qualify resolves a reference made from a router of provider p: Traefik
// looks unqualified names up in the referring router's provider.
func qualify(name, p string) string {
	if strings.Contains(name, "@") || p == "" {
		return name
	}
	return name + "@" + p
}

// priority reads a router priority; Traefik's internal routers use values
// near MaxInt64, which some encoders print as floats.
func priority(n json.Number) int64 {
	if n == "" {
		return 0
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return 0
	}
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(f)
}

// version is a parsed Traefik version ("3.6.12", "v3.7.0-rc.1").
type version struct{ major, minor int }

func parseVersion(s string) (version, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.SplitN(s, ".", 3)
	if len(parts) < 2 {
		return version{}, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(strings.TrimFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err1 != nil || err2 != nil {
		return version{}, false
	}
	return version{major, minor}, true
}

func (v version) atLeast(major, minor int) bool {
	return v.major > major || (v.major == major && v.minor >= minor)
}
