package clients

import (
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ImportRow is the row an import writes for in (checked with Check, its
// group and service ids resolved): cur is the client of the same name (its
// id, secret and creation kept) or a new row with its id and CreatedAt
// set. hash replaces the secret's hash when the file carried one; a public
// client keeps none.
func ImportRow(in Input, cur store.OIDCClient, hash string, now time.Time) store.OIDCClient {
	row := cur
	in.apply(&row, now)
	if hash != "" && !row.Public {
		row.SecretHash = hash
	}
	return row
}

// ImportTx writes a client an import planned, inside the import's
// transaction tx, as a new row when create, else replacing every column
// but created_at. It returns the events to publish once tx commits.
func ImportTx(tx *gorm.DB, row store.OIDCClient, create bool) ([]change.Event, error) {
	var err error
	if create {
		err = tx.Create(&row).Error
	} else {
		err = tx.Select("*").Omit("created_at").Save(&row).Error
	}
	if err != nil {
		return nil, err
	}
	kind := change.Updated
	if create {
		kind = change.Created
	}
	return []change.Event{event(kind, row.ID)}, nil
}
