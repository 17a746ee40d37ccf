package notify

import (
	"time"

	"gorm.io/gorm"
)

// StoredChannel is a channel as the configuration transfer reads and writes
// it: every column of notify_channels but the last delivery's, which an
// import leaves as it is.
type StoredChannel struct {
	ID        string
	Name      string
	Kind      string
	Settings  string // JSON Settings
	Secrets   string // sealed JSON ChannelSecrets
	Events    string // JSON []Kind
	Enabled   bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// TableName is the channels' table.
func (StoredChannel) TableName() string { return "notify_channels" }

// ImportChannelTx writes a channel an import planned, inside the import's
// transaction tx: a new row when create, else every column but created_at
// (and the last delivery's) replaced. Channels publish no change event.
func ImportChannelTx(tx *gorm.DB, ch StoredChannel, create bool) error {
	if create {
		return tx.Create(&ch).Error
	}
	return tx.Select("*").Omit("created_at").Save(&ch).Error
}

// DeleteChannelTx deletes a channel inside the caller's transaction tx.
func DeleteChannelTx(tx *gorm.DB, id string) error {
	return tx.Where("id = ?", id).Delete(&StoredChannel{}).Error
}
