package admin

import (
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ImportTx writes an administrator an import planned, inside the import's
// transaction tx: row as a new row when create, else replacing every column
// but created_at. signOut ends the administrator's sessions everywhere, as
// disabling one or replacing its password on the panel's pages does. It
// returns the events to publish once tx commits, and the portal sessions
// it ended (for Service.SessionsEnded, once tx commits).
func ImportTx(tx *gorm.DB, row store.Person, create, signOut bool) ([]change.Event, EndedSessions, error) {
	var err error
	if create {
		err = tx.Create(&row).Error
	} else {
		err = tx.Select("*").Omit("created_at").Save(&row).Error
	}
	if err != nil {
		return nil, nil, err
	}
	events := []change.Event{{Entity: change.Security, Kind: change.Updated, ID: row.ID}}
	var ended EndedSessions
	if signOut {
		if ended, err = endSessions(tx, row.ID, ""); err != nil {
			return nil, nil, err
		}
	}
	return events, ended, nil
}
