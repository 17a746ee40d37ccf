package managed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"filippo.io/age"
	"filippo.io/age/armor"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// SecretsFile is where the encrypted credentials lived before the database
// held them: <data dir>/dns-credentials.age, imported once at start.
const SecretsFile = "dns-credentials.age"

// MigratedSuffix is appended to SecretsFile once the database holds its
// content: the file is kept for the operator to delete, never read again.
const MigratedSuffix = ".migrated"

// maxSealed bounds the sealed credentials read back (and the old file).
const maxSealed = 8 << 20

// errDecrypt marks stored credentials that cannot be decrypted with the
// configured identity (wrong key, corrupt value). Callers fail closed.
var errDecrypt = errors.New("decrypt credentials")

// vault keeps the credentials as an age-encrypted JSON object in the
// database's dns_credentials row.
type vault struct {
	db       *gorm.DB
	file     string // the old credentials file, imported once
	identity *age.X25519Identity
	// hashKey keys the credentials hash. It comes from the identity alone,
	// which every replica shares, so identical credentials hash the same on
	// every replica.
	hashKey []byte
}

// newVault keeps the credentials in db encrypted to id; dataDir may hold
// the old credentials file.
func newVault(db *gorm.DB, dataDir string, id *age.X25519Identity) *vault {
	key := sha256.Sum256([]byte("gatehouse managed credentials hash v1\x00" + id.String()))
	return &vault{db: db, file: filepath.Join(dataDir, SecretsFile), identity: id, hashKey: key[:]}
}

// load decrypts the credentials as db (the service's, or a transaction)
// sees them. None stored is an empty set.
func (v *vault) load(ctx context.Context, db *gorm.DB) (map[string]string, error) {
	sealed, found, err := store.GetSealedCredentials(ctx, db)
	if err != nil {
		return nil, err
	}
	if !found {
		return map[string]string{}, nil
	}
	return v.open(sealed)
}

func (v *vault) open(sealed string) (map[string]string, error) {
	r, err := age.Decrypt(armor.NewReader(strings.NewReader(sealed)), v.identity)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errDecrypt, err)
	}
	plain, err := io.ReadAll(io.LimitReader(r, maxSealed))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errDecrypt, err)
	}
	creds := map[string]string{}
	if err := json.Unmarshal(plain, &creds); err != nil {
		return nil, fmt.Errorf("%w: not a JSON object", errDecrypt)
	}
	return creds, nil
}

// save encrypts creds to the identity's recipient and stores them through
// tx, the transaction that loaded what they replace.
func (v *vault) save(ctx context.Context, tx *gorm.DB, creds map[string]string) error {
	plain, err := json.Marshal(creds)
	if err != nil {
		return fmt.Errorf("encode credentials: %w", err)
	}
	var buf bytes.Buffer
	a := armor.NewWriter(&buf)
	w, err := age.Encrypt(a, v.identity.Recipient())
	if err != nil {
		return fmt.Errorf("encrypt credentials: %w", err)
	}
	if _, err := w.Write(plain); err != nil {
		return fmt.Errorf("encrypt credentials: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("encrypt credentials: %w", err)
	}
	if err := a.Close(); err != nil {
		return fmt.Errorf("encrypt credentials: %w", err)
	}
	return store.PutSealedCredentials(ctx, tx, buf.String())
}

// hash is the keyed hash of the environment file the credentials render to.
func (v *vault) hash(creds map[string]string) string {
	return secretsHash(v.hashKey, renderExports(creds))
}

// importFile moves the old credentials file into the database when the
// database holds none yet: an install from before the table, or a restored
// archive made then. The encrypted bytes move as they are (armoured), so a
// file the identity cannot open fails closed later exactly as it did. It
// reports whether it imported the file and whether the database already held
// credentials while the file exists.
func (v *vault) importFile(ctx context.Context) (imported, ignored bool, err error) {
	err = v.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Inside the transaction: replicas starting together on one data
		// directory import it once.
		_, found, err := store.GetSealedCredentials(ctx, tx)
		if err != nil {
			return err
		}
		raw, err := readSmall(v.file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", v.file, err)
		}
		if found {
			ignored = true
			return nil
		}
		var buf bytes.Buffer
		a := armor.NewWriter(&buf)
		if _, err := a.Write(raw); err != nil {
			return err
		}
		if err := a.Close(); err != nil {
			return err
		}
		imported = true
		return store.PutSealedCredentials(ctx, tx, buf.String())
	})
	if err != nil {
		return false, false, err
	}
	return imported, ignored, nil
}

// readSmall reads path, refusing more than maxSealed bytes.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path) //nolint:gosec // the data directory's credentials file
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read-only
	b, err := io.ReadAll(io.LimitReader(f, maxSealed+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSealed {
		return nil, fmt.Errorf("larger than %d bytes", maxSealed)
	}
	return b, nil
}
