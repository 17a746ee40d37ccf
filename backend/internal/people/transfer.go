package people

import (
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// CheckGroup checks a group's name and description as the API does, for
// an import's plan; it returns them trimmed.
func CheckGroup(name, description string) (string, string, error) {
	var c apperr.Collector
	name, description = normalGroup(&c, name, description)
	return name, description, c.Err()
}

// CheckPerson checks what an import sets on a person beyond what the
// administrators' import always checked: the e-mail and the display name.
func CheckPerson(email, displayName string) (string, string, error) {
	var c apperr.Collector
	email = normalEmail(&c, email)
	displayName = normalDisplayName(&c, displayName)
	return email, displayName, c.Err()
}

// ImportGroupTx writes a group an import planned, inside the import's
// transaction tx: row as a new row when create, else replacing its name and
// description; memberIDs become its members. It returns the events to
// publish once tx commits.
func ImportGroupTx(tx *gorm.DB, row store.Group, create bool, memberIDs []string, now time.Time) ([]change.Event, error) {
	var err error
	if create {
		err = tx.Create(&row).Error
	} else {
		err = tx.Select("name", "description", "updated_at").Updates(&row).Error
	}
	if err != nil {
		return nil, fmt.Errorf("write group %q: %w", row.Name, err)
	}
	if err := tx.Where("group_id = ?", row.ID).Delete(&store.GroupMember{}).Error; err != nil {
		return nil, fmt.Errorf("clear members of %q: %w", row.Name, err)
	}
	for _, id := range memberIDs {
		if err := tx.Create(&store.GroupMember{GroupID: row.ID, PersonID: id, CreatedAt: now}).Error; err != nil {
			return nil, fmt.Errorf("add a member to %q: %w", row.Name, err)
		}
	}
	return []change.Event{{Entity: change.Security, Kind: change.Updated, ID: row.ID}}, nil
}
