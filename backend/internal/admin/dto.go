package admin

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// User is an administrator as the API shows it.
type User struct {
	ID       string     `json:"id"`
	Username string     `json:"username"`
	Role     actor.Role `json:"role"`
}

func toUser(u store.Person) User {
	return User{ID: u.ID, Username: u.Username, Role: actor.Role(u.PanelRole)}
}

// Client describes who opens a session: the address the request came from
// and its User-Agent, both shown in the administrator's session list.
type Client struct {
	Address   string
	UserAgent string
	// Remember asks for a portal session that lasts the portal's
	// remember-me length (?remember=1 on the sign-in's last step).
	Remember bool
}

// maxUserAgent bounds the stored User-Agent; real ones are far shorter.
const maxUserAgent = 512

// Session is one of an administrator's signed-in sessions.
type Session struct {
	ID      string `json:"id"`
	Current bool   `json:"current"`
	// Portal: a session on the sign-in portal, not on the panel.
	Portal     bool      `json:"portal"`
	UserAgent  string    `json:"userAgent"`
	Address    string    `json:"address"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
}

// credentialsRequest bounds both fields before they reach a limiter's key,
// a query or bcrypt (which reads 72 bytes): a stranger's megabyte username
// is refused here, naming the field.
type credentialsRequest struct {
	Username string `json:"username" validate:"required,max=256"`
	Password string `json:"password" validate:"required,max=1024"`
}

type passwordRequest struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

type userResponse struct {
	User User `json:"user"`
}

type sessionsResponse struct {
	Items []Session `json:"items"`
}
