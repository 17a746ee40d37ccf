package httpx

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// ErrorEnvelope is the one JSON shape of every error answer:
// {"error":{"code","message","fields","requestId"}}.
type ErrorEnvelope struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody is the inside of the envelope.
type ErrorBody struct {
	Code      apperr.Code         `json:"code"`
	Message   string              `json:"message"`
	Fields    []apperr.FieldError `json:"fields,omitempty"`
	RequestID string              `json:"requestId,omitempty"`
}

// AppError maps any error to the client-facing error it is answered with.
// Errors that are not client-actionable become a generic internal error that
// never carries the cause; internal reports whether that happened, so the
// caller logs the cause.
func AppError(err error) (e *apperr.Error, internal bool) {
	if e, ok := apperr.As(err); ok {
		return e, false
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			return apperr.NotFound("route"), false
		case http.StatusMethodNotAllowed:
			return &apperr.Error{Code: apperr.CodeInvalidRequest, Message: "method not allowed", Status: http.StatusMethodNotAllowed}, false
		case http.StatusRequestEntityTooLarge:
			return &apperr.Error{Code: apperr.CodeTooLarge, Message: "request body is too large (limit 1 MiB)"}, false
		case http.StatusUnauthorized:
			return apperr.Unauthenticated("sign in required"), false
		case http.StatusForbidden:
			return apperr.Forbidden("forbidden"), false
		case http.StatusTooManyRequests:
			return apperr.RateLimited("too many requests", 0), false
		}
		if he.Code >= 400 && he.Code < 500 {
			return &apperr.Error{Code: apperr.CodeInvalidRequest, Message: http.StatusText(he.Code), Status: he.Code}, false
		}
	}
	return &apperr.Error{Code: apperr.CodeInternal, Message: "internal error; the request id identifies it in the logs"}, true
}

// WriteError answers e in the envelope (headers only for HEAD).
func WriteError(c echo.Context, e *apperr.Error, requestID string) error {
	status := e.HTTPStatus()
	if c.Request().Method == http.MethodHead {
		return c.NoContent(status)
	}
	return c.JSON(status, ErrorEnvelope{Error: ErrorBody{Code: e.Code, Message: e.Message, Fields: e.Fields, RequestID: requestID}})
}
