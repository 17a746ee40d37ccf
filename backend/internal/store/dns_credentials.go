package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// DNSCredentials is managed mode's one row of DNS provider credentials,
// sealed by the managed package (age, ASCII-armoured); the store never sees
// their values.
type DNSCredentials struct {
	ID        int `gorm:"primaryKey;autoIncrement:false"`
	Sealed    string
	UpdatedAt time.Time
}

// TableName pins the table name.
func (DNSCredentials) TableName() string { return "dns_credentials" }

// GetSealedCredentials returns the sealed credentials; found is false while
// none were ever stored.
func GetSealedCredentials(ctx context.Context, db *gorm.DB) (sealed string, found bool, err error) {
	var row DNSCredentials
	err = db.WithContext(ctx).Where("id = ?", 1).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read DNS credentials: %w", err)
	}
	return row.Sealed, true, nil
}

// PutSealedCredentials stores sealed in place of the credentials (insert or
// replace). Callers read, change and write inside one transaction, which
// serialises writers on both engines.
func PutSealedCredentials(ctx context.Context, db *gorm.DB, sealed string) error {
	row := DNSCredentials{ID: 1, Sealed: sealed, UpdatedAt: Now()}
	err := db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "id"}},
		DoUpdates: clause.AssignmentColumns([]string{"sealed", "updated_at"}),
	}).Create(&row).Error
	if err != nil {
		return fmt.Errorf("write DNS credentials: %w", err)
	}
	return nil
}
