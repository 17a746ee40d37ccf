package system

// Info is GET /api/system/info: how this panel runs.
type Info struct {
	Version       string   `json:"version"`
	StartedAt     string   `json:"startedAt"`
	UptimeSeconds int64    `json:"uptimeSeconds"`
	DataDir       string   `json:"dataDir"`
	Managed       bool     `json:"managed"`
	Database      Database `json:"database"`
	URLs          URLs     `json:"urls"`
}

// Database is the engine and how much room the panel's data takes.
type Database struct {
	Engine string `json:"engine"` // sqlite or postgres
	// SizeBytes is the database's size (SQLite: the file and its
	// write-ahead log; PostgreSQL: pg_database_size), -1 when unknown.
	SizeBytes int64 `json:"sizeBytes"`
}

// URLs are the addresses the panel uses, as they are in effect: set, or
// derived from other settings. "" is not set and not derived.
type URLs struct {
	// Public is where browsers reach the panel (PANEL_PUBLIC_URL, else
	// the admin domain).
	Public string `json:"public"`
	// Internal is where Traefik reaches the panel (PANEL_INTERNAL_URL,
	// else the listen address).
	Internal string `json:"internal"`
	// InternalSet says PANEL_INTERNAL_URL is set rather than derived.
	InternalSet bool `json:"internalSet"`
	// ForwardAuth is the address the forward-auth middlewares call.
	ForwardAuth string `json:"forwardAuth"`
	// Portal is the visitors' portal; "" until one is configured.
	Portal string `json:"portal"`
}
