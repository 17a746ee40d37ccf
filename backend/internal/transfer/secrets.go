package transfer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"filippo.io/age"
	"filippo.io/age/armor"

	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// MinPassphrase is the shortest passphrase an export with secrets accepts.
const MinPassphrase = 12

// maxSealed bounds the decrypted secrets.
const maxSealed = 16 << 20

// seal encrypts sec to passphrase (age scrypt recipient, ASCII armor).
func seal(sec document.Secrets, passphrase string, workFactor int) (string, error) {
	plain, err := json.Marshal(sec)
	if err != nil {
		return "", fmt.Errorf("encode secrets: %w", err)
	}
	r, err := age.NewScryptRecipient(passphrase)
	if err != nil {
		return "", fmt.Errorf("passphrase: %w", err)
	}
	if workFactor > 0 {
		r.SetWorkFactor(workFactor)
	}
	var buf bytes.Buffer
	aw := armor.NewWriter(&buf)
	w, err := age.Encrypt(aw, r)
	if err != nil {
		return "", fmt.Errorf("seal secrets: %w", err)
	}
	if _, err := w.Write(plain); err != nil {
		return "", fmt.Errorf("seal secrets: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("seal secrets: %w", err)
	}
	if err := aw.Close(); err != nil {
		return "", fmt.Errorf("seal secrets: %w", err)
	}
	return buf.String(), nil
}

// open decrypts a document's sealed secrets; a missing or wrong passphrase
// is a 400 naming "passphrase".
func open(sealed, passphrase string) (document.Secrets, error) {
	var sec document.Secrets
	if passphrase == "" {
		return sec, document.Bad("passphrase", "the file holds encrypted secrets: give the passphrase it was exported with")
	}
	id, err := age.NewScryptIdentity(passphrase)
	if err != nil {
		return sec, document.Bad("passphrase", "%v", err)
	}
	r, err := age.Decrypt(armor.NewReader(strings.NewReader(sealed)), id)
	if err != nil {
		var wrong *age.NoIdentityMatchError
		if errors.As(err, &wrong) || strings.Contains(err.Error(), "incorrect passphrase") {
			return sec, document.Bad("passphrase", "wrong passphrase: the secrets could not be decrypted")
		}
		return sec, document.Bad("sealed", "the encrypted secrets cannot be read: %v", err)
	}
	plain, err := io.ReadAll(io.LimitReader(r, maxSealed+1))
	if err != nil {
		return sec, document.Bad("sealed", "the encrypted secrets cannot be read: %v", err)
	}
	if len(plain) > maxSealed {
		return sec, document.Bad("sealed", "the encrypted secrets are larger than %d bytes", maxSealed)
	}
	dec := json.NewDecoder(bytes.NewReader(plain))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sec); err != nil {
		return sec, document.Bad("sealed", "the encrypted secrets are not valid: %v", err)
	}
	return sec, nil
}
