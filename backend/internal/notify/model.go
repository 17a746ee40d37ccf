package notify

import "time"

// channelRow is a notify_channels row.
type channelRow struct {
	ID            string
	Name          string
	Kind          string
	Settings      string // JSON Settings
	Secrets       string // sealed JSON Secrets
	Events        string // JSON []Kind
	Enabled       bool
	LastAttemptAt *time.Time
	LastOK        bool `gorm:"column:last_ok"`
	LastError     string
	LastEvent     string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

func (channelRow) TableName() string { return "notify_channels" }

// settingsKey is the app_config key of the notification settings.
const settingsKey = "notify"
