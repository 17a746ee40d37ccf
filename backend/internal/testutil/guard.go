package testutil

import (
	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/actor"
)

// AsAdmin is an admin guard for handler tests: it lets every request through
// as an actor with the admin role, as the real guards put one in the request
// context for the route table's role check.
func AsAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		c.SetRequest(r.WithContext(actor.With(r.Context(), actor.System("test"))))
		return next(c)
	}
}
