package managed

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"filippo.io/age"
)

// File names inside the data directory.
const (
	IdentityFile = "age.key"
	SecretsFile  = "dns-credentials.age"
)

// errDecrypt marks a credentials file that cannot be decrypted with the
// configured identity (wrong key, corrupt file). Callers fail closed.
var errDecrypt = errors.New("decrypt credentials")

// vault keeps the credentials as an age-encrypted JSON object in one file.
type vault struct {
	path     string
	identity *age.X25519Identity
	hashKey  []byte // keys the credentials hash; derived from the identity
}

// openVault loads the identity from identityText (PANEL_AGE_IDENTITY[_FILE])
// or from <dataDir>/age.key, generating that file (mode 0600) on first start.
func openVault(dataDir, identityText string, log *slog.Logger, now func() time.Time) (*vault, error) {
	var id *age.X25519Identity
	var err error
	if identityText != "" {
		id, err = parseIdentity(identityText)
		if err != nil {
			return nil, fmt.Errorf("PANEL_AGE_IDENTITY: %w", err)
		}
	} else {
		id, err = loadOrCreateIdentity(filepath.Join(dataDir, IdentityFile), log, now)
		if err != nil {
			return nil, err
		}
	}
	key := sha256.Sum256([]byte("gatehouse managed credentials hash v1\x00" + id.String()))
	return &vault{path: filepath.Join(dataDir, SecretsFile), identity: id, hashKey: key[:]}, nil
}

// parseIdentity takes the first AGE-SECRET-KEY-1 line, ignoring comments
// (age-keygen writes "# created:" and "# public key:" lines).
func parseIdentity(text string) (*age.X25519Identity, error) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, err := age.ParseX25519Identity(line)
		if err != nil {
			return nil, fmt.Errorf("not an age X25519 identity (AGE-SECRET-KEY-1...)")
		}
		return id, nil
	}
	return nil, fmt.Errorf("no AGE-SECRET-KEY-1 line found")
}

func loadOrCreateIdentity(path string, log *slog.Logger, now func() time.Time) (*age.X25519Identity, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			log.Warn("age identity file was readable by others; restricting it to mode 0600", "path", path)
			if err := os.Chmod(path, 0o600); err != nil {
				return nil, fmt.Errorf("restrict %s: %w", path, err)
			}
		}
		id, err := parseIdentity(string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return id, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read age identity: %w", err)
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return nil, fmt.Errorf("generate age identity: %w", err)
	}
	content := fmt.Sprintf("# created: %s\n# public key: %s\n%s\n",
		now().UTC().Format(time.RFC3339), id.Recipient(), id)
	if err := writeFileAtomic(path, []byte(content)); err != nil {
		return nil, fmt.Errorf("write age identity: %w", err)
	}
	log.Info("generated the age identity that encrypts DNS credentials; back it up with the data directory", "path", path)
	return id, nil
}

// load decrypts the credentials. A missing file is an empty set.
func (v *vault) load() (map[string]string, error) {
	f, err := os.Open(v.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open credentials: %w", err)
	}
	defer f.Close()
	r, err := age.Decrypt(f, v.identity)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errDecrypt, v.path, err)
	}
	plain, err := io.ReadAll(io.LimitReader(r, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errDecrypt, v.path, err)
	}
	creds := map[string]string{}
	if err := json.Unmarshal(plain, &creds); err != nil {
		return nil, fmt.Errorf("%w: %s: not a JSON object", errDecrypt, v.path)
	}
	return creds, nil
}

// save encrypts creds to the identity's recipient and replaces the file atomically.
func (v *vault) save(creds map[string]string) error {
	plain, err := json.Marshal(creds)
	if err != nil {
		return fmt.Errorf("encode credentials: %w", err)
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, v.identity.Recipient())
	if err != nil {
		return fmt.Errorf("encrypt credentials: %w", err)
	}
	if _, err := w.Write(plain); err != nil {
		return fmt.Errorf("encrypt credentials: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("encrypt credentials: %w", err)
	}
	if err := writeFileAtomic(v.path, buf.Bytes()); err != nil {
		return fmt.Errorf("write credentials: %w", err)
	}
	return nil
}

// hash is the keyed hash of the environment file the credentials render to.
func (v *vault) hash(creds map[string]string) string {
	return secretsHash(v.hashKey, renderExports(creds))
}

// writeFileAtomic writes data with mode 0600 to a temporary file in the same
// directory, syncs it, renames it over path and syncs the directory, so a
// crash leaves either the old or the new file, never a torn one.
func writeFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
