package provider

// AppInfo is what the portal shows of a client.
type AppInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	LogoURL string `json:"logoUrl"`
}

// RequestInfo is an app's pending sign-in, for the consent and refusal
// pages.
type RequestInfo struct {
	App    AppInfo  `json:"app"`
	Scopes []string `json:"scopes"`
	// Refused: the person signed in is not in a group the app admits.
	Refused bool `json:"refused"`
	// SecondFactorMissing: the app asks for a second factor and the person
	// has none yet (they add one on their account page).
	SecondFactorMissing bool `json:"secondFactorMissing"`
}

// ConsentInput answers the consent page.
type ConsentInput struct {
	Approve bool `json:"approve"`
}

// Next says where the browser goes.
type Next struct {
	Redirect string `json:"redirect"`
}

// DeviceInfo is a device authorization waiting for the person's answer.
type DeviceInfo struct {
	App    AppInfo  `json:"app"`
	Scopes []string `json:"scopes"`
	// SecondFactorMissing: the app asks for a second factor and the person
	// has none yet.
	SecondFactorMissing bool `json:"secondFactorMissing"`
	// SignInAgain, when not "", is the portal address where the person
	// signs in again (with their second factor, or more recently), then
	// comes back to this page; until then the device cannot be allowed.
	SignInAgain string `json:"signInAgain"`
}

// DeviceInput answers a device authorization.
type DeviceInput struct {
	UserCode string `json:"userCode" validate:"required,max=32"`
	Approve  bool   `json:"approve"`
}

// DeviceResult says how the device authorization was answered.
type DeviceResult struct {
	Approved bool `json:"approved"`
}
