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

// reservedNames would change how the shell or Traefik behave rather than
// configure a DNS provider (TRAEFIK_* is Traefik's own static configuration).
var (
	reservedNames = map[string]bool{
		"PATH": true, "HOME": true, "IFS": true, "ENV": true, "BASH_ENV": true, "SHELL": true,
		"PWD": true, "OLDPWD": true, "PS1": true, "PS2": true, "PS4": true, "USER": true,
		"LOGNAME": true, "HOSTNAME": true, "SHLVL": true, "_": true,
	}
	reservedPrefixes = []string{"LD_", "TRAEFIK_", "GATEHOUSE_"}
)

// CheckName validates a credential name as an environment variable name.
func CheckName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("must not be empty")
	case len(name) > maxNameLen:
		return fmt.Errorf("must be at most %d characters", maxNameLen)
	case !envNameRE.MatchString(name):
		return fmt.Errorf("must be an environment variable name: A-Z, 0-9 and _, not starting with a digit")
	case reservedNames[name]:
		return fmt.Errorf("%s is reserved", name)
	}
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(name, p) {
			return fmt.Errorf("names starting with %s are reserved", p)
		}
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
// credential, sorted by name. Names must have passed CheckName.
func renderExports(creds map[string]string) []byte {
	names := make([]string, 0, len(creds))
	for n := range creds {
		names = append(names, n)
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
