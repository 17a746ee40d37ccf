package httpapi

import (
	"log/slog"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// errorHandler maps errors to the envelope. Client-actionable errors keep
// their message; anything else is logged with the request id and answered
// with a generic 500 that never carries the cause.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		reqID := c.Response().Header().Get(echo.HeaderXRequestID)
		e, internal := httpx.AppError(err)
		if internal || e.HTTPStatus() >= 500 {
			log.Error("request failed", "request_id", reqID, "method", c.Request().Method,
				"path", c.Request().URL.Path, "status", e.HTTPStatus(), "err", err)
		}
		if e.RetryAfter > 0 {
			c.Response().Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds())))
		}
		_ = httpx.WriteError(c, e, reqID)
	}
}
