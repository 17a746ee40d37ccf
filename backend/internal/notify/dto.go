package notify

import "time"

// Channel is a channel as the API shows it: secrets only by name.
type Channel struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Kind         ChannelKind     `json:"kind"`
	Enabled      bool            `json:"enabled"`
	Events       []Kind          `json:"events"`
	Settings     ChannelSettings `json:"settings"`
	SecretsSet   []string        `json:"secretsSet"` // names of the secrets that are stored
	LastDelivery *LastDelivery   `json:"lastDelivery"`
	CreatedAt    time.Time       `json:"createdAt"`
	UpdatedAt    time.Time       `json:"updatedAt"`
}

// LastDelivery is the outcome of a channel's latest delivery.
type LastDelivery struct {
	At    time.Time `json:"at"`
	OK    bool      `json:"ok"`
	Event Kind      `json:"event"`
	Error string    `json:"error,omitempty"` // without secrets
}

// ChannelRequest creates or replaces a channel. Empty secrets keep the
// stored ones.
type ChannelRequest struct {
	Name     string          `json:"name"`
	Kind     ChannelKind     `json:"kind"`
	Enabled  *bool           `json:"enabled"`
	Events   []Kind          `json:"events"`
	Settings ChannelSettings `json:"settings"`
	Secrets  ChannelSecrets  `json:"secrets"`
}

// TestResult answers POST /api/notifications/channels/{id}/test.
type TestResult struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// Settings are the global notification settings.
type Settings struct {
	// CertWarningDays: a certificate with fewer days left is "expiring".
	CertWarningDays int `json:"certWarningDays"`
	// DebounceSeconds: a state must last this long before it is sent.
	DebounceSeconds int `json:"debounceSeconds"`
	// MailChannelID is the e-mail channel that sends mail to people
	// (sign-in codes); "" sends none.
	MailChannelID string `json:"mailChannelId"`
}

// DefaultSettings apply until an administrator saves others.
var DefaultSettings = Settings{CertWarningDays: 14, DebounceSeconds: 60}
