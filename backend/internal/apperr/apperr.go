// Package apperr defines the errors a client can act on. Each carries a stable
// snake_case code that the HTTP error handler maps to a status and the JSON
// error envelope. Anything that is not an *Error is an internal error whose
// cause is logged and never shown to the client.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Code is a stable, client-facing error code.
type Code string

// The codes clients can rely on.
const (
	CodeInvalidRequest   Code = "invalid_request"
	CodeValidationFailed Code = "validation_failed"
	CodeUnauthenticated  Code = "unauthenticated"
	CodeForbidden        Code = "forbidden"
	CodeNotFound         Code = "not_found"
	CodeConflict         Code = "conflict"
	CodeTooLarge         Code = "payload_too_large"
	CodeRateLimited      Code = "rate_limited"
	CodeInternal         Code = "internal"
)

// FieldError names one offending field by its JSON path (e.g. "targets[0].port").
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error is an error the client can act on.
type Error struct {
	Code       Code
	Message    string
	Fields     []FieldError
	RetryAfter time.Duration // for rate_limited
	Status     int           // overrides the code's default status when non-zero
}

func (e *Error) Error() string {
	if len(e.Fields) > 0 {
		return fmt.Sprintf("%s: %s (%s: %s)", e.Code, e.Message, e.Fields[0].Field, e.Fields[0].Message)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// HTTPStatus is the status the error is answered with.
func (e *Error) HTTPStatus() int {
	if e.Status != 0 {
		return e.Status
	}
	switch e.Code {
	case CodeInvalidRequest:
		return http.StatusBadRequest
	case CodeValidationFailed:
		return http.StatusUnprocessableEntity
	case CodeUnauthenticated:
		return http.StatusUnauthorized
	case CodeForbidden:
		return http.StatusForbidden
	case CodeNotFound:
		return http.StatusNotFound
	case CodeConflict:
		return http.StatusConflict
	case CodeTooLarge:
		return http.StatusRequestEntityTooLarge
	case CodeRateLimited:
		return http.StatusTooManyRequests
	default:
		return http.StatusInternalServerError
	}
}

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// IsCode reports whether err carries the given code.
func IsCode(err error, code Code) bool {
	e, ok := As(err)
	return ok && e.Code == code
}

// InvalidRequest is a malformed request (bad JSON, wrong types, missing headers).
func InvalidRequest(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

// Validation is a well-formed request with invalid fields.
func Validation(fields ...FieldError) *Error {
	msg := "request has invalid fields"
	if len(fields) == 1 {
		msg = fields[0].Field + ": " + fields[0].Message
	}
	return &Error{Code: CodeValidationFailed, Message: msg, Fields: fields}
}

// Field is a shorthand for a single-field validation error.
func Field(field, format string, args ...any) *Error {
	return Validation(FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// Unauthenticated means no or bad credentials.
func Unauthenticated(msg string) *Error { return &Error{Code: CodeUnauthenticated, Message: msg} }

// Forbidden means authenticated (or not) but not allowed.
func Forbidden(msg string) *Error { return &Error{Code: CodeForbidden, Message: msg} }

// NotFound names what was not found.
func NotFound(what string) *Error { return &Error{Code: CodeNotFound, Message: what + " not found"} }

// Conflict is a uniqueness or in-use conflict; field may be empty.
func Conflict(field, format string, args ...any) *Error {
	e := &Error{Code: CodeConflict, Message: fmt.Sprintf(format, args...)}
	if field != "" {
		e.Fields = []FieldError{{Field: field, Message: e.Message}}
	}
	return e
}

// RateLimited asks the client to come back after d.
func RateLimited(msg string, d time.Duration) *Error {
	return &Error{Code: CodeRateLimited, Message: msg, RetryAfter: d}
}

// Collector gathers field errors while validating a whole object.
type Collector struct{ fields []FieldError }

// Add records a field error.
func (c *Collector) Add(field, format string, args ...any) {
	c.fields = append(c.fields, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// Err returns a validation error when any field was recorded, else nil.
func (c *Collector) Err() error {
	if len(c.fields) == 0 {
		return nil
	}
	return Validation(c.fields...)
}
