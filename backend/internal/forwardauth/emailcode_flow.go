package forwardauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/mail"
	"github.com/gatehouse-proxy/gatehouse/internal/ratelimit"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/validate"
)

// Mailer sends mail to people (notify.Service.SendMail through the chosen
// e-mail channel).
type Mailer interface {
	SendMail(ctx context.Context, m mail.Message) error
}

// EmailCodePath is where the panel serves the e-mail code pages.
const EmailCodePath = "/api/auth/email-code"

// maxMailsInFlight bounds the codes being mailed at once; past it a request
// is answered as usual and its mail dropped (and logged).
const maxMailsInFlight = 32

// codeLimits count sends and wrong codes, per address of a service and
// per client address, shared by the replicas on PostgreSQL.
type codeLimits struct {
	sendAddr, sendIP, failAddr, failIP *ratelimit.Limiter
}

func newCodeLimits(db *gorm.DB, now func() time.Time, opts ...ratelimit.Option) codeLimits {
	return codeLimits{
		sendAddr: ratelimit.Shared(db, "email-code-send-addr", EmailSendsPerAddress, EmailLimitWindow, now, opts...),
		sendIP:   ratelimit.Shared(db, "email-code-send-ip", EmailSendsPerIP, EmailLimitWindow, now, opts...),
		failAddr: ratelimit.Shared(db, "email-code-fail-addr", EmailFailuresPerAddress, EmailLimitWindow, now, opts...),
		failIP:   ratelimit.Shared(db, "email-code-fail-ip", EmailFailuresPerIP, EmailLimitWindow, now, opts...),
	}
}

// codeRequest is what every e-mail code form carries, checked.
type codeRequest struct {
	sp *servicePolicy
	rd string
	ip string
}

// readCodeRequest checks the service and return address of a code page
// or form. A refusal is written and ok is false.
func (s *Service) readCodeRequest(c echo.Context, serviceID, rd string) (codeRequest, bool, error) {
	ctx := c.Request().Context()
	r := codeRequest{ip: c.RealIP()}
	if len(serviceID) > 64 || len(rd) > maxReturnURL {
		return r, false, codeNotice(c, http.StatusBadRequest, "Sign-in is not available", "This sign-in address is not valid.")
	}
	pol, err := s.policy.get(ctx)
	if err != nil {
		return r, false, err
	}
	r.sp = pol.services[serviceID]
	if r.sp == nil || !r.sp.live(s.now()) || r.sp.emailCode == nil {
		return r, false, codeNotice(c, http.StatusBadRequest, "Sign-in is not available",
			"This service does not offer sign-in with an e-mail code.")
	}
	scheme, err := s.schemes.Scheme(ctx, r.sp.entrypoints)
	if err != nil {
		return r, false, err
	}
	var ok bool
	if r.rd, ok = returnURL(rd, r.sp, scheme); !ok {
		return r, false, codeNotice(c, http.StatusBadRequest, "Sign-in is not available",
			"The return address is not one of this service's addresses.")
	}
	return r, true, nil
}

// emailCodeStart is GET /api/auth/email-code?service=<id>&rd=<url>: the
// page that asks for an e-mail address.
func (s *Service) emailCodeStart(c echo.Context) error {
	r, ok, err := s.readCodeRequest(c, c.QueryParam("service"), c.QueryParam("rd"))
	if !ok || err != nil {
		return err
	}
	return codeAnswer(c, http.StatusOK, codePage{
		Title: "Sign in to " + r.sp.name, Service: r.sp.name, ServiceID: r.sp.id, RD: r.rd,
		Message: "Enter your e-mail address. If it may use " + r.sp.name + ", we send you a six-digit code.",
	})
}

func (s *Service) tooMany(c echo.Context, wait time.Duration, msg string) error {
	c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
	return codeNotice(c, http.StatusTooManyRequests, "Too many attempts", msg)
}

// emailCodeSend is POST /api/auth/email-code/send (service, rd, email). Its
// answer is the same whether the address may use the service or not: the
// same status and page, and the same work before answering (the code is
// made, stored and mailed afterwards, off the request).
func (s *Service) emailCodeSend(c echo.Context) error {
	r, ok, err := s.readCodeRequest(c, c.FormValue("service"), c.FormValue("rd"))
	if !ok || err != nil {
		return err
	}
	email, valid := normalizeVisitorEmail(c.FormValue("email"))
	if !valid {
		return codeAnswer(c, http.StatusUnprocessableEntity, codePage{
			Title: "Sign in to " + r.sp.name, Service: r.sp.name, ServiceID: r.sp.id, RD: r.rd,
			Error:   "Enter one e-mail address, such as ann@example.com.",
			Message: "Enter your e-mail address. If it may use " + r.sp.name + ", we send you a six-digit code.",
		})
	}
	keys := [...]string{"addr:" + r.sp.id + ":" + email, "ip:" + r.ip}
	if blocked, wait := s.codes.sendAddr.Blocked(keys[0]); blocked {
		return s.tooMany(c, wait, "Too many codes were asked for this address. Wait a few minutes and try again.")
	}
	if blocked, wait := s.codes.sendIP.Blocked(keys[1]); blocked {
		return s.tooMany(c, wait, "Too many codes were asked from your network. Wait a few minutes and try again.")
	}
	s.codes.sendAddr.Fail(keys[0])
	s.codes.sendIP.Fail(keys[1])
	s.mailCode(r.sp.id, email)
	return codeAnswer(c, http.StatusOK, codePage{
		Title: "Check your e-mail", Service: r.sp.name, ServiceID: r.sp.id, RD: r.rd, Email: email, AskCode: true,
		Message: "If " + email + " may use " + r.sp.name + ", a six-digit code is on its way to it. " +
			"It works once, for " + humanDuration(EmailCodeTTL) + ".",
	})
}

// mailCode makes, stores and mails a code to email when the service allows
// it, off the request: nothing about the address shows in the answer or
// its timing.
func (s *Service) mailCode(serviceID, email string) {
	select {
	case s.mailSlots <- struct{}{}:
	default:
		s.log.Warn("e-mail code not sent: too many mails in flight", "service", serviceID)
		return
	}
	go func() {
		defer func() { <-s.mailSlots }()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.sendCode(ctx, serviceID, email); err != nil {
			s.log.Warn("e-mail code not sent", "service", serviceID, "err", err)
		}
	}()
}

func (s *Service) sendCode(ctx context.Context, serviceID, email string) error {
	pol, err := s.policy.get(ctx)
	if err != nil {
		return err
	}
	sp := pol.services[serviceID]
	if sp == nil || !sp.live(s.now()) || sp.emailCode == nil || !sp.emailCode.allow.allows(email) {
		return nil // not allowed: no code, no mail
	}
	if s.mailer == nil {
		return errors.New("no mailer configured")
	}
	code, err := s.issueCode(ctx, serviceID, email)
	if err != nil {
		return err
	}
	return s.mailer.SendMail(ctx, mail.Message{
		To:      []string{email},
		Subject: "Your code for " + shortName(sp.name) + ": " + code,
		Text: "Your code to open " + sp.name + " is:\n\n    " + code + "\n\n" +
			"It works once, for " + humanDuration(EmailCodeTTL) + ". If you did not ask for it, ignore this e-mail.\n",
	})
}

// shortName is a service name fit for a subject line: one line, at most
// 80 characters.
func shortName(name string) string {
	r := []rune(headerSafe(name))
	if len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return string(r)
}

// emailCodeVerify is POST /api/auth/email-code/verify (service, rd, email,
// code): a right code sends the browser back to the service with a
// one-time exchange token, which opens the session on the service's host.
func (s *Service) emailCodeVerify(c echo.Context) error {
	r, ok, err := s.readCodeRequest(c, c.FormValue("service"), c.FormValue("rd"))
	if !ok || err != nil {
		return err
	}
	email, valid := normalizeVisitorEmail(c.FormValue("email"))
	if !valid {
		return codeNotice(c, http.StatusBadRequest, "Sign-in is not available", "Start again from the service's address.")
	}
	h := c.Request().Header
	if h.Get(echo.HeaderOrigin) == "" && h.Get("Sec-Fetch-Site") == "" {
		// The form is the only way in: a browser posting it sends one of
		// them, and the CSRF guard has checked their value.
		return codeNotice(c, http.StatusForbidden, "Open the sign-in page again", "Use the form on the sign-in page.")
	}
	keys := [...]string{"addr:" + r.sp.id + ":" + email, "ip:" + r.ip}
	if blocked, wait := s.codes.failAddr.Blocked(keys[0]); blocked {
		return s.tooMany(c, wait, "Too many wrong codes for this address. Wait a few minutes and ask for a new code.")
	}
	if blocked, wait := s.codes.failIP.Blocked(keys[1]); blocked {
		return s.tooMany(c, wait, "Too many wrong codes from your network. Wait a few minutes and try again.")
	}
	code := strings.ReplaceAll(strings.TrimSpace(c.FormValue("code")), " ", "")
	if len(code) > 16 {
		code = ""
	}
	err = s.useCode(c.Request().Context(), r.sp.id, email, code)
	if errors.Is(err, errWrongCode) || (err == nil && !r.sp.emailCode.allow.allows(email)) {
		s.codes.failAddr.Fail(keys[0])
		s.codes.failIP.Fail(keys[1])
		s.failures.Fail(c.Request().Context(), r.sp.id, r.sp.name)
		return codeAnswer(c, http.StatusUnauthorized, codePage{
			Title: "Check your e-mail", Service: r.sp.name, ServiceID: r.sp.id, RD: r.rd, Email: email, AskCode: true,
			Error:   "That code is not right, or it has expired.",
			Message: "Type the six digits of the latest e-mail, or ask for a new code.",
		})
	}
	if err != nil {
		return err
	}
	s.codes.failAddr.Reset(keys[0])
	u, _ := url.Parse(r.rd) // checked by returnURL
	exch, err := s.sso.addExchange(c.Request().Context(), &exchange{serviceID: r.sp.id, kind: store.SessionEmailCode,
		host: strings.ToLower(validate.StripPort(u.Host)), id: identity{user: email, email: email, emailVerified: true}})
	if err != nil {
		return err
	}
	q := u.Query()
	q.Set(ExchangeParam, exch)
	u.RawQuery = q.Encode()
	s.log.Info("e-mail code sign-in", "service", r.sp.id)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusSeeOther, u.String())
}

// emailCodeRedirect sends a browser without a session to the panel's
// e-mail code page.
func emailCodeRedirect(c echo.Context, f fwdRequest, sp *servicePolicy, panelURL string) error {
	original := f.proto + "://" + f.host + withoutParams(f.uri)
	loc := panelURL + EmailCodePath + "?service=" + url.QueryEscape(sp.id) + "&rd=" + url.QueryEscape(original)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(redirectStatus(f.method), loc)
}

// openEmailSession ends an e-mail code sign-in on the service's host: the
// address must still be allowed, and the session lasts the protection's
// chosen length (never past the service's expiry).
func (s *Service) openEmailSession(c echo.Context, f fwdRequest, sp *servicePolicy, e *exchange, now time.Time, clean string) error {
	if sp.emailCode == nil || !sp.emailCode.allow.allows(e.id.email) {
		return refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, page{
			Title: "Access denied", Message: e.id.email + " is not allowed to use " + sp.name + "."})
	}
	row := store.Session{
		ServiceID: sp.id, Kind: store.SessionEmailCode, Subject: e.id.email, Email: e.id.email,
		ExpiresAt: capExpiry(now.Add(time.Duration(sp.emailCode.sessionSeconds)*time.Second), sp.expiresAt),
	}
	return s.openSession(c, f, &row, now, clean)
}
