package people

import (
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// SetSignInTx is how invitations and password resets change a person,
// inside the caller's transaction: hash, when set, becomes the password;
// enable lets a person created disabled by an invitation sign in; every
// session ends (a reset must lock out whoever knew the old password): pass
// the portal sessions it returns to the accounts' SessionsEnded once tx
// commits. It reports false when the person is gone.
func SetSignInTx(tx *gorm.DB, id, hash string, enable bool, now time.Time) (bool, admin.EndedSessions, error) {
	set := map[string]any{"updated_at": now}
	if hash != "" {
		set["password_hash"] = hash
	}
	if enable {
		set["disabled_at"] = nil
	}
	res := tx.Model(&store.Person{}).Where("id = ?", id).Updates(set)
	if res.Error != nil {
		return false, nil, fmt.Errorf("update person %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return false, nil, nil
	}
	ended, err := admin.EndSessionsTx(tx, id)
	return true, ended, err
}
