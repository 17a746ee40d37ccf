package managed

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// SecretsHashHeader carries the keyed hash of the credentials file.
const SecretsHashHeader = "X-Gatehouse-Secrets-Hash" //nolint:gosec // a header name, not a credential

// secretsHashLinePrefix starts the comment line repeating the hash in the file.
const secretsHashLinePrefix = "# gatehouse-secrets-hash: " //nolint:gosec // a comment prefix, not a credential

const (
	maxCredentials = 64
	maxNameLen     = 128
	maxValueLen    = 16 << 10 // a Google service-account JSON is ~2.5 KiB
)

var envNameRE = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

// reservedNames would change how the shell, Traefik or its ACME client
// (lego) behave rather than configure a DNS provider: the shell's own
// variables, and everything that changes how Traefik connects. Lower-case
// spellings (http_proxy) never pass envNameRE.
var reservedNames = map[string]string{
	"PATH": "the shell", "HOME": "the shell", "IFS": "the shell", "ENV": "the shell", "BASH_ENV": "the shell",
	"SHELL": "the shell", "PWD": "the shell", "OLDPWD": "the shell", "PS1": "the shell", "PS2": "the shell",
	"PS4": "the shell", "USER": "the shell", "LOGNAME": "the shell", "HOSTNAME": "the shell", "SHLVL": "the shell",
	"_": "the shell",
	// Go's net/http sends every outgoing request (ACME, DNS APIs, the
	// HTTP provider, health checks) through these proxies; REQUEST_METHOD
	// makes it ignore HTTP_PROXY.
	"HTTP_PROXY": "proxies", "HTTPS_PROXY": "proxies", "NO_PROXY": "proxies", "ALL_PROXY": "proxies",
	"FTP_PROXY": "proxies", "REQUEST_METHOD": "proxies",
	// The certificate authorities every TLS connection trusts, and a file
	// that would receive every TLS session key.
	"SSL_CERT_FILE": "trusted certificate authorities", "SSL_CERT_DIR": "trusted certificate authorities",
	"AWS_CA_BUNDLE": "trusted certificate authorities", "SSLKEYLOGFILE": "TLS",
	// Go's resolver (with cgo) reads these.
	"RES_OPTIONS": "DNS resolution", "LOCALDOMAIN": "DNS resolution", "HOSTALIASES": "DNS resolution",
}

// reservedRE refuses by prefix: the dynamic loader (LD_), Traefik's own
// static configuration (TRAEFIK_), the wrapper (GATEHOUSE_), TLS libraries
// (SSL_), lego's own switches (LEGO_CA_CERTIFICATES, LEGO_CA_SERVER_NAME,
// LEGO_DISABLE_CNAME_SUPPORT, LEGO_DEBUG_DNS_API_HTTP_CLIENT which logs the
// DNS API's requests...) and Go's runtime variables: GO and letters or
// digits, no underscore (GODEBUG, which also switches TLS and X.509
// behaviour, GOMAXPROCS, GOGC, GOMEMLIMIT, GOFIPS140...). A provider's
// variables carry its own prefix and stay allowed: GODADDY_API_KEY,
// GOOGLE_APPLICATION_CREDENTIALS, NAMECHEAP_HTTP_PROXY, INFOBLOX_SSL_VERIFY.
// No lego DNS provider reads a LEGO_ credential; the one provider switch
// with that prefix, LEGO_AZURE_BYPASS_DEPRECATION, re-enables the
// deprecated azure provider, whose replacement is azuredns.
// The OpenAPI document states the same pattern (the panel's form reads it).
var reservedRE = regexp.MustCompile(`^(LD_|TRAEFIK_|GATEHOUSE_|SSL_|LEGO_|GO[A-Z0-9]*$)`)

// checkNameShape is the syntax of an environment variable name.
func checkNameShape(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("must not be empty")
	case len(name) > maxNameLen:
		return fmt.Errorf("must be at most %d characters", maxNameLen)
	case !envNameRE.MatchString(name):
		return fmt.Errorf("must be an environment variable name: A-Z, 0-9 and _, not starting with a digit")
	}
	return nil
}

// CheckName validates a credential name as an environment variable name
// that configures a DNS provider and nothing else.
func CheckName(name string) error {
	if err := checkNameShape(name); err != nil {
		return err
	}
	if what, ok := reservedNames[name]; ok {
		return fmt.Errorf("%s is reserved: it changes %s, not a DNS provider", name, what)
	}
	if m := reservedRE.FindStringSubmatch(name); m != nil {
		if !strings.HasSuffix(m[1], "_") {
			return fmt.Errorf("%s is reserved: it changes the Go runtime Traefik runs on, not a DNS provider", name)
		}
		return fmt.Errorf("names starting with %s are reserved", m[1])
	}
	return nil
}

// CheckValue validates a credential value. Anything but NUL survives
// single-quoting; NUL cannot live in an environment variable.
func CheckValue(v string) error {
	switch {
	case v == "":
		return fmt.Errorf("must not be empty (remove the credential instead)")
	case len(v) > maxValueLen:
		return fmt.Errorf("must be at most %d bytes", maxValueLen)
	case strings.IndexByte(v, 0) >= 0:
		return fmt.Errorf("must not contain NUL bytes")
	}
	return nil
}

// shellQuote wraps s in single quotes. Inside them the shell interprets
// nothing, so the only character to handle is the quote itself, which
// becomes '\” (close, escaped quote, reopen).
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// renderExports is the body of the environment file: one export line per
// credential, sorted by name. A name CheckName refuses is left out: one
// stored before it was reserved never reaches Traefik's environment.
func renderExports(creds map[string]string) []byte {
	names := make([]string, 0, len(creds))
	for n := range creds {
		if CheckName(n) == nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, n := range names {
		b.WriteString("export " + n + "=" + shellQuote(creds[n]) + "\n")
	}
	return b.Bytes()
}

// envDocument is the file served to the wrapper: a header line with the hash,
// then the exports.
func envDocument(exports []byte, hash string) []byte {
	var b bytes.Buffer
	b.WriteString(secretsHashLinePrefix + hash + "\n")
	b.Write(exports)
	return b.Bytes()
}

// secretsHash is a keyed hash of the exports: it changes when any value
// changes, but says nothing about the values to someone without the key.
func secretsHash(key, exports []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(exports)
	return hex.EncodeToString(m.Sum(nil))
}
