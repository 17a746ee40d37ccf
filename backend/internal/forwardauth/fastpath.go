package forwardauth

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/contract"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// FastVerify puts a lean Echo instance serving only contract.VerifyPath in front of
// next. Traefik calls verify on every proxied request, so it skips the
// general API middleware (request ids, access log, CSRF, body limit, admin
// guard), none of which applies to a header-only GET from the proxy. Errors
// keep the API's envelope; internal ones are logged and answered 500, and a
// panic is answered 500 too: verify never fails open.
func (s *Service) FastVerify(next http.Handler) http.Handler {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.verifyError
	e.GET(contract.VerifyPath, s.verify)
	e.HEAD(contract.VerifyPath, s.verify)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != contract.VerifyPath {
			next.ServeHTTP(w, r)
			return
		}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler { //nolint:errorlint // a recovered panic value, never wrapped
					panic(v)
				}
				s.log.Error("forward-auth verify panicked", "panic", v)
				w.WriteHeader(http.StatusInternalServerError)
			}
		}()
		e.ServeHTTP(w, r)
	})
}

// verifyError answers verify's errors with the API's envelope. Anything
// that is not a client error is a 500: verify never answers 2xx when unsure.
func (s *Service) verifyError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	e, internal := httpx.AppError(err)
	if internal {
		s.log.Error("forward-auth verify failed", "path", c.Request().URL.Path, "err", err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	_ = httpx.WriteError(c, e, "")
}
