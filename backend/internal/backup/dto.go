package backup

import "time"

// Schedule is when scheduled backups are taken and how many are kept.
type Schedule struct {
	Enabled       bool `json:"enabled"`
	IntervalHours int  `json:"intervalHours"`
	Keep          int  `json:"keep"`
}

// Entry is one backup in the list.
type Entry struct {
	Name          string    `json:"name"`
	Size          int64     `json:"size"`
	CreatedAt     time.Time `json:"createdAt"`
	SchemaVersion uint      `json:"schemaVersion"`
	Trigger       string    `json:"trigger"`
}

func entryOf(name string, size int64, m Manifest) Entry {
	return Entry{Name: name, Size: size, CreatedAt: m.CreatedAt, SchemaVersion: m.SchemaVersion, Trigger: m.Trigger}
}

// LastError is a scheduled backup's failure.
type LastError struct {
	At      time.Time `json:"at"`
	Message string    `json:"message"`
}

// Status is GET /api/backups.
type Status struct {
	Directory string     `json:"directory"`
	Schedule  Schedule   `json:"schedule"`
	Next      *time.Time `json:"next"`
	LastError *LastError `json:"lastError"`
	Backups   []Entry    `json:"backups"`
}
