package managed

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"filippo.io/age"
)

// SecretsFile is the encrypted credentials file inside the data directory.
const SecretsFile = "dns-credentials.age"

// errDecrypt marks a credentials file that cannot be decrypted with the
// configured identity (wrong key, corrupt file). Callers fail closed.
var errDecrypt = errors.New("decrypt credentials")

// vault keeps the credentials as an age-encrypted JSON object in one file.
type vault struct {
	path     string
	identity *age.X25519Identity
	hashKey  []byte // keys the credentials hash; derived from the identity
}

// newVault keeps the credentials of dataDir encrypted to id.
func newVault(dataDir string, id *age.X25519Identity) *vault {
	key := sha256.Sum256([]byte("gatehouse managed credentials hash v1\x00" + id.String()))
	return &vault{path: filepath.Join(dataDir, SecretsFile), identity: id, hashKey: key[:]}
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
	defer func() { _ = f.Close() }() // opened read-only
	r, err := age.Decrypt(f, v.identity)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", errDecrypt, v.path, err)
	}
	plain, err := io.ReadAll(io.LimitReader(r, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", errDecrypt, v.path, err)
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
	d, err := os.Open(dir) //nolint:gosec // the data directory, opened to sync the rename
	if err != nil {
		return err
	}
	if err := d.Sync(); err != nil {
		_ = d.Close()
		return err
	}
	return d.Close()
}
