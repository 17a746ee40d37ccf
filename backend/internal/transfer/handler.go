package transfer

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer/document"
)

// PassphraseHeader carries the passphrase that opens an import's sealed secrets.
const PassphraseHeader = "X-Gatehouse-Passphrase"

// Handler serves /api/export and /api/import.
type Handler struct{ svc *Service }

// NewHandler returns the transfer handler.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Register mounts the routes on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/export", h.exportPlain, route.SecretRead.Because(
		"the export carries the credential sets' password hashes and every header value services send upstream"))
	r.POST("/export", h.exportSealed)
	// An import carries whole configuration files: importFile bounds the
	// body itself (32 MiB).
	r.POST("/import", h.importFile, route.OwnBodyLimit)
}

func (h *Handler) exportPlain(c echo.Context) error {
	return h.export(c, ExportOptions{Admins: c.QueryParam("admins") == "true"})
}

// exportRequest is the body of POST /api/export.
type exportRequest struct {
	Passphrase     string `json:"passphrase" validate:"max=1024"`
	Secrets        bool   `json:"secrets"`
	AdminPasswords bool   `json:"adminPasswords"`
	Admins         bool   `json:"admins"`
}

func (h *Handler) exportSealed(c echo.Context) error {
	var req exportRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	return h.export(c, ExportOptions{Admins: req.Admins, Secrets: req.Secrets, AdminPasswords: req.AdminPasswords,
		Passphrase: req.Passphrase})
}

func (h *Handler) export(c echo.Context, o ExportOptions) error {
	doc, err := h.svc.Export(c.Request().Context(), o)
	if err != nil {
		return err
	}
	body, err := Encode(doc)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition,
		fmt.Sprintf(`attachment; filename="gatehouse-export-%s.json"`, doc.ExportedAt.Format("20060102-150405")))
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

func (h *Handler) importFile(c echo.Context) error {
	q := c.QueryParams()
	o := ImportOptions{Format: q.Get("format"), Mode: q.Get("mode"), Digest: q.Get("digest"),
		Passphrase: c.Request().Header.Get(PassphraseHeader)}
	switch q.Get("apply") {
	case "", "false":
	case "true":
		o.Apply = true
	default:
		return document.Bad("apply", "must be true or false")
	}
	if a, ok := actor.From(c.Request().Context()); ok {
		if a.Kind == actor.KindAdmin {
			o.Actor = a.Name
		}
	}
	data, err := io.ReadAll(http.MaxBytesReader(c.Response(), c.Request().Body, document.MaxSize))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &apperr.Error{Code: apperr.CodeTooLarge, Message: fmt.Sprintf("the file is larger than %d MiB", document.MaxSize>>20),
				Fields: []apperr.FieldError{{Field: "file", Message: fmt.Sprintf("must be at most %d MiB", document.MaxSize>>20)}}}
		}
		return document.Bad("file", "could not be read: %v", err)
	}
	pl, err := h.svc.Import(c.Request().Context(), data, o)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, pl)
}
