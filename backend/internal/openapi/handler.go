package openapi

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// Path is where the document is served.
const Path = "/api/openapi.json"

// Handler serves the built document: the bytes are built once at start-up
// and answered with an ETag, so a client polling it costs a header compare.
type Handler struct {
	doc  []byte
	etag string
}

// NewHandler serves doc (the output of Build).
func NewHandler(doc []byte) *Handler {
	sum := sha256.Sum256(doc)
	return &Handler{doc: doc, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
}

// Register mounts GET /api/openapi.json on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/openapi.json", h.serve, route.Public.Because("the API description: no secrets, and clients read it before signing in"))
}

func (h *Handler) serve(c echo.Context) error {
	hdr := c.Response().Header()
	hdr.Set("ETag", h.etag)
	hdr.Set("Cache-Control", "no-cache")
	if c.Request().Header.Get("If-None-Match") == h.etag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, h.doc)
}
