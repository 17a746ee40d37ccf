package forwardauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// What a shared link may ask its visitor for before it is used.
const (
	LinkSecretNone     = "none"
	LinkSecretPIN      = "pin"
	LinkSecretPassword = "password"
)

// Limits of wrong PINs and passwords given to shared links. A link answers
// 429 after LinkPINWindowFailures wrong answers within LinkPINWindow, an
// address after LinkPINAddressFailures on any links, and a link locks for
// good after LinkPINMaxFailures wrong answers in all: a four-digit PIN then
// falls to a guess one time in a thousand.
const (
	LinkPINWindowFailures  = 5
	LinkPINAddressFailures = 20
	LinkPINWindow          = 15 * time.Minute
	LinkPINMaxFailures     = 10
)

// Bounds of what an administrator may set.
const (
	minPINDigits, maxPINDigits   = 4, 12
	minPasswordLen, maxSecretLen = 8, 128
)

// linkSecret checks the PIN or password asked for on creation and returns
// its kind and bcrypt hash ("" and "" when neither is set).
func linkSecret(req CreateLinkRequest, cost int) (kind, hash string, err error) {
	switch {
	case req.PIN != "" && req.Password != "":
		return "", "", apperr.Field("password", "set a PIN or a password, not both")
	case req.PIN != "":
		if n := len(req.PIN); n < minPINDigits || n > maxPINDigits || strings.Trim(req.PIN, "0123456789") != "" {
			return "", "", apperr.Field("pin", "must be %d to %d digits", minPINDigits, maxPINDigits)
		}
		kind = LinkSecretPIN
	case req.Password != "":
		if n := len(req.Password); n < minPasswordLen || n > maxSecretLen {
			return "", "", apperr.Field("password", "must be %d to %d characters", minPasswordLen, maxSecretLen)
		}
		kind = LinkSecretPassword
	default:
		return "", "", nil
	}
	b, err := bcrypt.GenerateFromPassword([]byte(req.PIN+req.Password), cost)
	if err != nil {
		return "", "", fmt.Errorf("hash link secret: %w", err)
	}
	return kind, string(b), nil
}

func linkSecretKind(l store.SharedLink) string {
	if l.PinKind == "" {
		return LinkSecretNone
	}
	return l.PinKind
}

// pinLocked reports whether a link has had as many wrong answers as it takes.
func pinLocked(l store.SharedLink) bool {
	return l.PinKind != "" && l.PinFailures >= LinkPINMaxFailures
}

// usePINLink answers a request for an active link that asks for a PIN or
// password. The form of its page is a GET to the link's own address with
// the answer in PinParam: forward-auth never sees a request body, and a
// link-preview robot that fetches the address has no answer to give. A
// right answer from the link's own page uses the link (one use, as
// without a PIN); a wrong one never does. Each answer is checked against
// the limits first and counted against the link before it is compared, so
// however many arrive at once, no more than LinkPINMaxFailures are ever
// compared.
func (s *Service) usePINLink(c echo.Context, f fwdRequest, sp *servicePolicy, l store.SharedLink, now time.Time) error {
	ctx := c.Request().Context()
	if pinLocked(l) {
		return refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, lockedPage(l))
	}
	answer := f.pin
	if answer == "" || len(answer) > maxSecretLen || f.method != http.MethodGet || !sameOriginNavigation(f) {
		return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, pinPage(f, sp, l, now, ""))
	}
	linkKey, addrKey := "link:"+l.ID, "ip:"+f.ipKey()
	blockedLink, waitLink := s.pinByLink.Blocked(linkKey)
	blockedAddr, waitAddr := s.pinByAddr.Blocked(addrKey)
	if blockedLink || blockedAddr {
		wait := max(waitLink, waitAddr)
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		return refuse(c, f.browser, http.StatusTooManyRequests, apperr.CodeRateLimited, page{
			Title: "Too many tries",
			Message: "There were too many wrong attempts. Wait " + humanDuration(wait) +
				" and try again, or ask the person who shared the link.",
		})
	}
	left, err := s.reservePINAttempt(ctx, l.ID)
	if err != nil {
		return err
	}
	if left < 0 {
		l.PinFailures = LinkPINMaxFailures
		return refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, lockedPage(l))
	}
	if bcrypt.CompareHashAndPassword([]byte(l.PinHash), []byte(answer)) != nil {
		s.pinByLink.Fail(linkKey)
		s.pinByAddr.Fail(addrKey)
		s.failures.Fail(ctx, sp.id, sp.name) // many wrong PINs on one service are worth a notification
		if left == 0 {
			l.PinFailures = LinkPINMaxFailures
			return refuse(c, f.browser, http.StatusForbidden, apperr.CodeForbidden, lockedPage(l))
		}
		return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated,
			pinPage(f, sp, l, now, wrongAnswer(l, left)))
	}
	row, tok, err := s.consumeLink(ctx, sp, f.linkToken, now, true)
	if errors.Is(err, errLinkUnavailable) {
		return refuse(c, f.browser, http.StatusUnauthorized, apperr.CodeUnauthenticated, page{Title: "This link was already used",
			Message: "Shared links work once, and this one has been used. Ask the person who shared it for a new one."})
	}
	if err != nil {
		return err
	}
	s.pinByLink.Reset(linkKey)
	setCookie(c, f, tok, row.ExpiresAt, now)
	return c.Redirect(redirectStatus(f.method), f.proto+"://"+f.host+withoutParams(f.uri))
}

// reservePINAttempt counts one wrong answer against the link before the
// answer is compared (a right one gives it back when it uses the link) and
// returns how many are left after it; -1 when none was left to take.
func (s *Service) reservePINAttempt(ctx context.Context, linkID string) (int, error) {
	left := -1
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&store.SharedLink{}).Where("id = ? AND pin_failures < ?", linkID, LinkPINMaxFailures).
			Update("pin_failures", gorm.Expr("pin_failures + 1"))
		if res.Error != nil {
			return fmt.Errorf("count link attempt: %w", res.Error)
		}
		if res.RowsAffected != 1 {
			return nil
		}
		var l store.SharedLink
		if err := tx.Select("pin_failures").Where("id = ?", linkID).Take(&l).Error; err != nil {
			return fmt.Errorf("load link attempts: %w", err)
		}
		left = LinkPINMaxFailures - l.PinFailures
		return nil
	})
	return left, err
}

func wrongAnswer(l store.SharedLink, left int) string {
	what := "PIN"
	if l.PinKind == LinkSecretPassword {
		what = "password"
	}
	tries := "tries"
	if left == 1 {
		tries = "try"
	}
	return "That " + what + " is not right. " + strconv.Itoa(left) + " more " + tries +
		" before the link locks for good."
}

// pinPage asks for the link's PIN or password.
func pinPage(f fwdRequest, sp *servicePolicy, l store.SharedLink, now time.Time, problem string) page {
	stay := capExpiry(now.Add(time.Duration(l.SessionSeconds)*time.Second), sp.expiresAt).Sub(now)
	what, input := "PIN", pageInput{Name: PinParam, Label: "PIN", Type: "text", InputMode: "numeric",
		Pattern: "[0-9]*", AutoComplete: "one-time-code", MaxLength: maxPINDigits}
	if l.PinKind == LinkSecretPassword {
		what, input = "password", pageInput{Name: PinParam, Label: "Password", Type: "password",
			AutoComplete: "current-password", MaxLength: maxSecretLen}
	}
	path, hidden := pinFormTarget(f.uri)
	return page{
		Title: "Open " + sp.name,
		Message: "Someone shared " + sp.name + " with you and protected the link with a " + what +
			". Type the " + what + " they gave you. The link works once: you then stay signed in for " +
			humanDuration(stay) + " in this browser.",
		Problem: problem, FormAction: path, FormMethod: http.MethodGet, Hidden: hidden, Input: &input,
		Button: "Open " + sp.name,
	}
}

// lockedPage says a link locked itself after too many wrong answers.
func lockedPage(l store.SharedLink) page {
	what := "PIN"
	if l.PinKind == LinkSecretPassword {
		what = "password"
	}
	return page{Title: "This link is locked",
		Message: "The wrong " + what + " was typed too many times, so this link no longer opens. " +
			"Ask the person who shared it for a new one."}
}

// pinFormTarget splits uri into the path a GET form submits to and the
// query parameters it must carry as hidden fields (a GET form replaces the
// action's query), without an earlier answer.
func pinFormTarget(uri string) (string, []pageField) {
	path, q, _ := strings.Cut(uri, "?")
	var hidden []pageField
	for _, part := range strings.Split(q, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		k, err1 := url.QueryUnescape(k)
		v, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil || k == PinParam || len(hidden) >= 32 {
			continue
		}
		hidden = append(hidden, pageField{Name: k, Value: v})
	}
	return path, hidden
}

// sameOriginNavigation reports whether a GET carrying an answer was sent by
// the link's own page: browsers mark such a navigation Sec-Fetch-Site
// same-origin, and the page's Referrer-Policy (same-origin) gives older
// ones a Referer of the same origin. Another site cannot then sign a
// visitor in as a link whose PIN it knows (login CSRF).
func sameOriginNavigation(f fwdRequest) bool {
	if site := first(f.header["Sec-Fetch-Site"]); site != "" {
		return site == "same-origin"
	}
	if sameOrigin(f) {
		return true
	}
	ref := first(f.header["Referer"])
	origin := withoutDefaultPort(f.proto + "://" + f.host)
	u, err := url.Parse(ref)
	return err == nil && ref != "" && strings.EqualFold(withoutDefaultPort(u.Scheme+"://"+u.Host), origin)
}
