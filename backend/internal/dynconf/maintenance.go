package dynconf

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// defaultMaintenanceMessage is shown when a service in maintenance has none.
const defaultMaintenanceMessage = "This service is down for maintenance. Please try again later."

// maintenancePage renders the message as text (html/template escapes it);
// line breaks are kept by white-space: pre-line.
var maintenancePage = template.Must(template.New("maintenance").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>{{.Name}}: maintenance</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1.5rem;line-height:1.5;color:#1f2328;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}}h1{font-size:1.4rem}p{white-space:pre-line}</style>
</head><body><main><h1>{{.Name}} is under maintenance</h1><p>{{.Message}}</p></main></body></html>
`))

// maintenance answers a maintenance router: 503 with the service's page,
// or 404 when the service is not (or no longer) in maintenance.
func (h *Handler) maintenance(c echo.Context) error {
	var row store.Service
	err := h.svc.d.DB.WithContext(c.Request().Context()).Select("name", "maintenance_message").
		Where("id = ? AND maintenance = ?", c.Param("id"), true).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return apperr.NotFound("service in maintenance")
	}
	if err != nil {
		return err
	}
	msg := row.MaintenanceMessage
	if msg == "" {
		msg = defaultMaintenanceMessage
	}
	var buf bytes.Buffer
	if err := maintenancePage.Execute(&buf, struct{ Name, Message string }{row.Name, msg}); err != nil {
		return err
	}
	res := c.Response().Header()
	res.Set("Cache-Control", "no-store")
	res.Set("Retry-After", "300")
	return c.HTMLBlob(http.StatusServiceUnavailable, buf.Bytes())
}
