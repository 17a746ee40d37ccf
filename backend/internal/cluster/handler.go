package cluster

import (
	"context"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
)

// Handler serves GET /api/cluster (admin-only: not public): the replicas
// sharing the database and the one that leads, as the database server sees
// them.
type Handler struct {
	c     *Cluster // nil on SQLite
	db    *gorm.DB
	self  string
	since time.Time
}

// NewHandler returns the cluster handler. c is nil on SQLite, where this
// process is the only replica: it is named after the host. started is when
// this process started.
func NewHandler(c *Cluster, db *gorm.DB, started time.Time) *Handler {
	h := &Handler{c: c, db: db, since: started.UTC()}
	if c != nil {
		h.self = c.ID()
	} else if h.self, _ = os.Hostname(); h.self == "" {
		h.self = "local"
	}
	return h
}

// Register mounts the route on the /api group.
func (h *Handler) Register(r *route.Registrar) {
	r.GET("/cluster", h.get)
}

func (h *Handler) get(c echo.Context) error {
	v, err := h.View(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// View answers GET /api/cluster.
func (h *Handler) View(ctx context.Context) (View, error) {
	if h.c == nil {
		// The leader's loops run here, and there is nobody to listen to.
		return View{Engine: EngineSQLite, Replica: h.self, Replicas: []ReplicaView{
			{ID: h.self, Since: h.since, Leader: true, This: true},
		}}, nil
	}
	ms, err := Members(ctx, h.db)
	if err != nil {
		return View{}, err
	}
	v := View{Engine: EnginePostgres, Replica: h.self, Replicas: make([]ReplicaView, 0, len(ms)+1)}
	found := false
	for _, m := range ms {
		this := m.ID == h.self
		found = found || this
		v.Replicas = append(v.Replicas, ReplicaView{ID: m.ID, Address: m.Address, Since: m.Since,
			Leader: m.Leader, Listening: m.Listening, This: this})
	}
	if !found {
		// Between two connections of its own (a reconnect): the server
		// shows nothing of it, and it hears nobody.
		v.Replicas = append(v.Replicas, ReplicaView{ID: h.self, Since: h.since, This: true})
	}
	return v, nil
}
