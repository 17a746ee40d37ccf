package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

type errorBody struct {
	Code      apperr.Code         `json:"code"`
	Message   string              `json:"message"`
	Fields    []apperr.FieldError `json:"fields,omitempty"`
	RequestID string              `json:"requestId,omitempty"`
}

// ErrorEnvelope is the one JSON shape of every error answer.
type ErrorEnvelope struct {
	Error errorBody `json:"error"`
}

// errorHandler maps errors to the envelope. Client-actionable errors keep
// their message; anything else is logged with the request id and answered
// with a generic 500 that never carries the cause.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		reqID := c.Response().Header().Get(echo.HeaderXRequestID)
		e := toAppError(err)
		status := e.HTTPStatus()
		if status >= 500 {
			log.Error("request failed", "request_id", reqID, "method", c.Request().Method,
				"path", c.Request().URL.Path, "status", status, "err", err)
		}
		if e.RetryAfter > 0 {
			c.Response().Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds())))
		}
		body := ErrorEnvelope{Error: errorBody{Code: e.Code, Message: e.Message, Fields: e.Fields, RequestID: reqID}}
		if c.Request().Method == http.MethodHead {
			_ = c.NoContent(status)
			return
		}
		_ = c.JSON(status, body)
	}
}

func toAppError(err error) *apperr.Error {
	if e, ok := apperr.As(err); ok {
		return e
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			return apperr.NotFound("route")
		case http.StatusMethodNotAllowed:
			return &apperr.Error{Code: apperr.CodeInvalidRequest, Message: "method not allowed", Status: http.StatusMethodNotAllowed}
		case http.StatusRequestEntityTooLarge:
			return &apperr.Error{Code: apperr.CodeTooLarge, Message: "request body is too large (limit 1 MiB)"}
		case http.StatusUnauthorized:
			return apperr.Unauthenticated("sign in required")
		case http.StatusForbidden:
			return apperr.Forbidden("forbidden")
		case http.StatusTooManyRequests:
			return apperr.RateLimited("too many requests", 0)
		case http.StatusServiceUnavailable:
			return &apperr.Error{Code: apperr.CodeInternal, Message: "service unavailable", Status: http.StatusServiceUnavailable}
		}
		if he.Code >= 400 && he.Code < 500 {
			return &apperr.Error{Code: apperr.CodeInvalidRequest, Message: http.StatusText(he.Code), Status: he.Code}
		}
	}
	return &apperr.Error{Code: apperr.CodeInternal, Message: "internal error; the request id identifies it in the logs"}
}
