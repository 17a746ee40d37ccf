package invitations

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// How an invitation's link reaches the person.
const (
	DeliveryLink  = "link"
	DeliveryEmail = "email"
)

// normalCreate checks what people.Create does not (delivery, life) and
// returns the invitation's life; the person's fields are checked there.
func normalCreate(in *CreateRequest) (time.Duration, error) {
	var c apperr.Collector
	switch in.Delivery {
	case "":
		in.Delivery = DeliveryLink
	case DeliveryLink, DeliveryEmail:
	default:
		c.Add("delivery", `must be "link" or "email"`)
	}
	if in.Delivery == DeliveryEmail && in.Email == "" {
		c.Add("email", "is required to send the invitation by e-mail")
	}
	ttl := DefaultTTL
	if in.ExpiresInHours != 0 {
		if in.ExpiresInHours < 1 || in.ExpiresInHours > int(MaxTTL/time.Hour) {
			c.Add("expiresInHours", "must be between 1 and %d", int(MaxTTL/time.Hour))
		} else {
			ttl = time.Duration(in.ExpiresInHours) * time.Hour
		}
	}
	return ttl, c.Err()
}
