package access

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// VerifyPath is the forward-auth endpoint Traefik calls.
const VerifyPath = "/api/auth/verify"

// FastVerify puts a lean Echo instance serving only VerifyPath in front of
// next. Traefik calls verify on every proxied request, so it skips the
// general API middleware (request ids, access log, CSRF, body limit, admin
// guard), none of which applies to a header-only GET from the proxy. Errors
// keep the API's envelope; internal ones are logged and answered 500, and a
// panic is answered 500 too: verify never fails open.
func (s *Service) FastVerify(next http.Handler) http.Handler {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.verifyError
	e.GET(VerifyPath, s.verify)
	e.HEAD(VerifyPath, s.verify)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != VerifyPath {
			next.ServeHTTP(w, r)
			return
		}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("forward-auth verify panicked", "panic", v)
				w.WriteHeader(http.StatusInternalServerError)
			}
		}()
		e.ServeHTTP(w, r)
	})
}

// verifyError answers verify's errors with the API's envelope.
func (s *Service) verifyError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	e, ok := apperr.As(err)
	if !ok {
		var he *echo.HTTPError
		switch {
		case errors.As(err, &he) && he.Code >= 400 && he.Code < 500:
			e = &apperr.Error{Code: apperr.CodeInvalidRequest, Message: http.StatusText(he.Code), Status: he.Code}
		default:
			s.log.Error("forward-auth verify failed", "path", c.Request().URL.Path, "err", err)
			e = &apperr.Error{Code: apperr.CodeInternal, Message: "internal error; see the panel's log"}
		}
	}
	var env errorEnvelope
	env.Error.Code, env.Error.Message = e.Code, e.Message
	c.Response().Header().Set("Cache-Control", "no-store")
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(e.HTTPStatus())
		return
	}
	_ = c.JSON(e.HTTPStatus(), env)
}

// hashToken is admin.HashToken without the intermediate allocations, for
// the hot path: one allocation, the resulting string.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	var buf [sha256.Size * 2]byte
	hex.Encode(buf[:], sum[:])
	return string(buf[:])
}
