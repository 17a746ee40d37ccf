// Package httpx holds the request helpers every feature handler shares:
// strict JSON binding and struct validation that name the offending field by
// its JSON path, so clients get one consistent error shape.
//
// Request validation happens in two steps, in this order:
//
//   - Shape, here: Bind decodes strictly (unknown fields and trailing data
//     are refused) and checks the DTO's `validate` struct tags: required
//     fields, lengths, numeric ranges, enumerations. A tag never needs
//     another field, the database or a normalised value.
//   - Meaning, in the feature's validate.go: normalize() (or Validate()) trims
//     and lower-cases, fills defaults, and checks what a tag cannot say:
//     hostnames, Traefik names, rule text, fields that depend on each other.
//     The feature's service calls it before opening a transaction; checks
//     that need the database (a taken hostname, a missing domain) stay in
//     the service.
//
// Both report through apperr, so the client sees one validation_failed
// envelope listing fields by JSON path either way.
package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Validator validates request DTOs using `validate` struct tags and reports
// fields by their JSON names.
type Validator struct{ v *validator.Validate }

// NewValidator returns a validator that names fields by their json tag.
func NewValidator() *Validator {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return ""
		}
		if name == "" {
			return f.Name
		}
		return name
	})
	return &Validator{v: v}
}

// Validate implements echo.Validator.
func (val *Validator) Validate(i any) error {
	err := val.v.Struct(i)
	if err == nil {
		return nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return apperr.InvalidRequest("request body could not be validated")
	}
	fields := make([]apperr.FieldError, 0, len(verrs))
	for _, fe := range verrs {
		fields = append(fields, apperr.FieldError{Field: jsonPath(fe.Namespace()), Message: message(fe)})
	}
	return apperr.Validation(fields...)
}

// jsonPath drops the top-level struct name: "createService.targets[0].port" -> "targets[0].port".
func jsonPath(ns string) string {
	if _, rest, ok := strings.Cut(ns, "."); ok {
		return rest
	}
	return ns
}

func message(fe validator.FieldError) string {
	switch fe.Tag() {
	case "required":
		return "is required"
	case "min":
		if fe.Kind() == reflect.String {
			return fmt.Sprintf("must be at least %s characters", fe.Param())
		}
		if fe.Kind() == reflect.Slice || fe.Kind() == reflect.Map {
			return fmt.Sprintf("must have at least %s items", fe.Param())
		}
		return "must be at least " + fe.Param()
	case "max":
		if fe.Kind() == reflect.String {
			return fmt.Sprintf("must be at most %s characters", fe.Param())
		}
		if fe.Kind() == reflect.Slice || fe.Kind() == reflect.Map {
			return fmt.Sprintf("must have at most %s items", fe.Param())
		}
		return "must be at most " + fe.Param()
	case "oneof":
		return "must be one of: " + strings.ReplaceAll(fe.Param(), " ", ", ")
	case "email":
		return "must be a valid email address"
	case "url":
		return "must be a valid URL"
	default:
		return "is invalid (" + fe.Tag() + ")"
	}
}

// Bind decodes the JSON body into v and validates it. Malformed JSON or a wrong
// type answers invalid_request naming the field; constraint failures answer
// validation_failed. Unknown fields are ignored so older clients keep working.
func Bind(c echo.Context, v any) error {
	req := c.Request()
	if req.Body == nil || req.Body == http.NoBody {
		return apperr.InvalidRequest("request body is required")
	}
	ct := req.Header.Get(echo.HeaderContentType)
	if ct != "" && !strings.HasPrefix(strings.ToLower(ct), echo.MIMEApplicationJSON) {
		return apperr.InvalidRequest("Content-Type must be application/json")
	}
	dec := json.NewDecoder(req.Body)
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return apperr.InvalidRequest("request body must hold a single JSON value")
	}
	if c.Echo().Validator != nil {
		return c.Validate(v)
	}
	return nil
}

func decodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var maxBytes *http.MaxBytesError
	switch {
	case errors.As(err, &maxBytes):
		return &apperr.Error{Code: apperr.CodeTooLarge, Message: "request body is too large"}
	case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.InvalidRequest("request body is not valid JSON")
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		e := apperr.InvalidRequest("%s: must be %s", field, typ.Type.String())
		e.Fields = []apperr.FieldError{{Field: field, Message: "must be " + jsonKind(typ.Type)}}
		return e
	case errors.Is(err, io.EOF):
		return apperr.InvalidRequest("request body is required")
	default:
		return apperr.InvalidRequest("request body could not be read")
	}
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	default:
		return "of type " + t.String()
	}
}
