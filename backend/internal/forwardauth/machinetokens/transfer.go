package machinetokens

import (
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// ImportTx writes a machine token an import planned, inside the import's
// transaction tx: row (its id and hash set) as a new row when create, else
// replacing every column but created_at, and serviceIDs as the services it
// opens. It returns the events to publish once tx commits.
func ImportTx(tx *gorm.DB, row store.MachineToken, serviceIDs []string, create bool) ([]change.Event, error) {
	var err error
	if create {
		err = tx.Create(&row).Error
	} else {
		err = tx.Select("*").Omit("created_at").Save(&row).Error
	}
	if err != nil {
		return nil, err
	}
	if err := tx.Where("token_id = ?", row.ID).Delete(&store.MachineTokenService{}).Error; err != nil {
		return nil, err
	}
	for _, id := range serviceIDs {
		if err := tx.Create(&store.MachineTokenService{TokenID: row.ID, ServiceID: id}).Error; err != nil {
			return nil, err
		}
	}
	return []change.Event{{Entity: change.Access, Kind: change.Updated, ID: row.ID}}, nil
}

// DeleteTx deletes a machine token inside the caller's transaction tx and
// returns the events to publish once tx commits.
func DeleteTx(tx *gorm.DB, id string) ([]change.Event, error) {
	if err := tx.Where("id = ?", id).Delete(&store.MachineToken{}).Error; err != nil {
		return nil, err
	}
	return []change.Event{{Entity: change.Access, Kind: change.Deleted, ID: id}}, nil
}
