package mail

import (
	"errors"
	"strconv"
	"strings"

	"github.com/emersion/go-smtp"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// Failure says in fixed words why a Send failed: what the server answered
// (its code, never its text) or what went wrong on the way, without
// addresses or secrets, for the API and the channel's last error.
func Failure(err error) string {
	var se *smtp.SMTPError
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrPlainAuth):
		return ErrPlainAuth.Error()
	case errors.As(err, &se) && strings.HasPrefix(err.Error(), "authenticate"):
		return "the mail server refused the username or password (" + strconv.Itoa(se.Code) + ")"
	case errors.As(err, &se):
		return "the mail server refused the message (" + strconv.Itoa(se.Code) + ")"
	case strings.Contains(err.Error(), "doesn't support STARTTLS"):
		return "the mail server does not offer STARTTLS"
	case strings.Contains(err.Error(), "doesn't support AUTH"):
		return "the mail server does not offer authentication"
	case strings.HasPrefix(err.Error(), "from:"), strings.HasPrefix(err.Error(), "to"):
		return "an address is not a valid e-mail address"
	}
	return "the mail server could not be reached: " + httpx.FetchFailure(err)
}
