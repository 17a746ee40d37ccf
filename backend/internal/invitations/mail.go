package invitations

import (
	"fmt"
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/mail"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

func greeting(displayName, username string) string {
	if displayName != "" {
		return "Hello " + displayName + ","
	}
	return "Hello " + username + ","
}

func inviteMail(p people.Person, link string, expires time.Time) mail.Message {
	text := fmt.Sprintf("%s\n\nYou have been invited to sign in with the username %q.\n\n"+
		"Open this link to choose a password or set up a passkey:\n\n%s\n\n"+
		"The link works once, until %s (UTC). If you were not expecting this, you can ignore this e-mail.\n",
		greeting(p.DisplayName, p.Username), p.Username, link, expires.UTC().Format("2 January 2006 15:04"))
	return mail.Message{To: []string{p.Email}, Subject: "You are invited", Text: text}
}

func resetMail(p store.Person, link string) mail.Message {
	text := fmt.Sprintf("%s\n\nSomeone asked to reset the password of the account %q.\n\n"+
		"Open this link to choose a new password:\n\n%s\n\n"+
		"The link works once, for %d minutes. Choosing a new password signs you out everywhere.\n"+
		"If you did not ask for this, ignore this e-mail: your password stays the same.\n",
		greeting(p.DisplayName, p.Username), p.Username, link, int(ResetTTL/time.Minute))
	return mail.Message{To: []string{p.Email}, Subject: "Reset your password", Text: text}
}

func registrationMail(p people.Person, link string, expires time.Time) mail.Message {
	text := fmt.Sprintf("Hello,\n\nSomeone asked to create the account %q with this e-mail address.\n\n"+
		"Open this link to choose a password or set up a passkey and finish:\n\n%s\n\n"+
		"The link works once, until %s (UTC). If you did not ask for this, ignore this e-mail: no account is created.\n",
		p.Username, link, expires.UTC().Format("2 January 2006 15:04"))
	return mail.Message{To: []string{p.Email}, Subject: "Finish creating your account", Text: text}
}
