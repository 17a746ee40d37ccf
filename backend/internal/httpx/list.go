package httpx

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// List is the body of every plain list answer: {"items": [...]}. Views that
// say more than the list (runtime's, with Traefik's reachability) have their
// own types.
type List[T any] struct {
	Items []T `json:"items"`
}

// JSONList answers 200 with items as a List.
func JSONList[T any](c echo.Context, items []T) error {
	return c.JSON(http.StatusOK, List[T]{Items: items})
}
