package httpx

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"
)

// List is the body of every plain list answer: {"items": [...]}. Views that
// say more than the list (runtime's, with Traefik's reachability) have their
// own types.
type List[T any] struct {
	Items []T `json:"items"`
}

// listChunk is how many encoded bytes JSONList gathers before writing them.
const listChunk = 32 << 10

// JSONList answers 200 with items as a List. It encodes one item at a time
// and writes every listChunk bytes, so a long list (10,000 services are 16
// MB of JSON) is never held encoded whole; the bytes are those c.JSON
// writes. An item that fails to encode before anything was written is an
// error answered as c.JSON's would be. Indented answers (?pretty, Echo's
// debug mode) are left to c.JSON.
func JSONList[T any](c echo.Context, items []T) error {
	if _, pretty := c.QueryParams()["pretty"]; pretty || c.Echo().Debug || items == nil {
		return c.JSON(http.StatusOK, List[T]{Items: items})
	}
	w := c.Response()
	if w.Header().Get(echo.HeaderContentType) == "" {
		w.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	}
	w.Status = http.StatusOK
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // escapes HTML, as c.JSON's encoder does
	buf.WriteString(`{"items":[`)
	for i := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(items[i]); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		if buf.Len() >= listChunk {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return err
			}
			buf.Reset()
		}
	}
	buf.WriteString("]}\n")
	_, err := w.Write(buf.Bytes())
	return err
}
