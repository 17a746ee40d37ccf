package settings

// Global is the global configuration document.
type Global struct {
	AdminDomain            string   `json:"adminDomain"`
	DefaultEntrypoints     []string `json:"defaultEntrypoints"`
	GlobalMiddlewares      []string `json:"globalMiddlewares"`
	DefaultLifetimeSeconds int64    `json:"defaultLifetimeSeconds"`
}

// Defaults is the configuration before anyone saved one.
func Defaults() Global {
	return Global{DefaultEntrypoints: []string{"websecure"}, GlobalMiddlewares: []string{}}
}
