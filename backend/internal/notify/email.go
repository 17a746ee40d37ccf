package notify

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/mail"
)

// MailFunc sends one message through an SMTP server (mail.Send).
type MailFunc func(ctx context.Context, srv mail.Server, m mail.Message) error

// ErrNoMailChannel says no e-mail channel is chosen to send mail to people, or
// the chosen one was deleted or disabled.
var ErrNoMailChannel = errors.New("no e-mail channel sends mail to people")

// mailServer is the SMTP server of an e-mail channel.
func mailServer(st ChannelSettings, sec ChannelSecrets, roots *x509.CertPool) mail.Server {
	sec2 := mail.Security(st.Encryption)
	if sec2 == "" {
		sec2 = mail.SecurityNone
	}
	return mail.Server{Host: st.Host, Port: st.Port, Security: sec2, Username: st.Username, Password: sec.Password,
		From: st.From, FromName: "Gatehouse", RootCAs: roots, Timeout: sendTimeout}
}

// checkEmail adds what an e-mail channel needs beyond check: recipients
// when it receives notifications, and TLS before a password leaves for
// another machine.
func checkEmail(st ChannelSettings, events []Kind) error {
	var col apperr.Collector
	if len(events) > 0 && len(st.To) == 0 {
		col.Add("settings.to", "needs at least one address to receive notifications")
	}
	if st.Username != "" && (st.Encryption == "" || st.Encryption == "none") && !loopbackHost(st.Host) {
		col.Add("settings.encryption", "a password is only sent over TLS: choose starttls or tls")
	}
	return col.Err()
}

// sendEmail delivers an event (or a test) through an e-mail channel: to its
// recipients, or to its own sender address when it has none (a channel that
// only sends mail to people).
func (s *Service) sendEmail(ctx context.Context, st ChannelSettings, sec ChannelSecrets, ev Event) error {
	to := st.To
	if len(to) == 0 {
		to = []string{st.From}
	}
	return s.o.Mail(ctx, mailServer(st, sec, s.o.MailRootCAs), mail.Message{To: to, Subject: ev.Subject, Text: message(ev)})
}

// SendMail sends m to people through the e-mail channel the settings
// choose (sign-in codes; later invitations and password resets).
// ErrNoMailChannel when there is none. The error never carries the
// channel's password.
func (s *Service) SendMail(ctx context.Context, m mail.Message) error {
	st, err := s.Settings(ctx)
	if err != nil {
		return err
	}
	if st.MailChannelID == "" {
		return ErrNoMailChannel
	}
	r, err := s.row(ctx, s.db, st.MailChannelID)
	if err != nil {
		if _, ok := apperr.As(err); ok {
			return ErrNoMailChannel
		}
		return err
	}
	if !r.Enabled || ChannelKind(r.Kind) != Email {
		return ErrNoMailChannel
	}
	sec, err := s.secrets(r)
	if err != nil {
		return err
	}
	var cs ChannelSettings
	if err := json.Unmarshal([]byte(r.Settings), &cs); err != nil {
		return fmt.Errorf("decode settings of channel %s: %w", r.ID, err)
	}
	if err := s.o.Mail(ctx, mailServer(cs, sec, s.o.MailRootCAs), m); err != nil {
		s.o.Logger.Warn("mail to people not sent", "channel", r.ID, "err", scrub(err.Error(), "", sec))
		return errors.New("mail not sent: " + mail.Failure(err))
	}
	return nil
}

// MailReady reports whether mail to people can be sent (a channel is
// chosen, exists, is enabled and is an e-mail channel).
func (s *Service) MailReady(ctx context.Context) bool {
	st, err := s.Settings(ctx)
	if err != nil || st.MailChannelID == "" {
		return false
	}
	r, err := s.row(ctx, s.db, st.MailChannelID)
	return err == nil && r.Enabled && ChannelKind(r.Kind) == Email
}
