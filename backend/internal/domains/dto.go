package domains

import (
	"time"

	"github.com/gatehouse-proxy/gatehouse/internal/store"
)

// HTTPS is a domain's HTTPS defaults, inherited by its services unless
// they override them.
type HTTPS struct {
	Redirect bool       `json:"redirect"`
	HSTS     store.HSTS `json:"hsts"`
}

// Request is the body of POST and PUT /api/domains.
type Request struct {
	Name         string             `json:"name"`
	Domain       string             `json:"domain"`
	CertResolver string             `json:"certResolver"`
	Wildcard     bool               `json:"wildcard"`
	IsDefault    bool               `json:"isDefault"`
	CertConfigs  []store.CertConfig `json:"certConfigs"`
	HTTPS        HTTPS              `json:"https"`
}

// Response is a domain as the API shows it.
type Response struct {
	ID           string             `json:"id"`
	Name         string             `json:"name"`
	Domain       string             `json:"domain"`
	CertResolver string             `json:"certResolver"`
	Wildcard     bool               `json:"wildcard"`
	IsDefault    bool               `json:"isDefault"`
	CertConfigs  []store.CertConfig `json:"certConfigs"`
	HTTPS        HTTPS              `json:"https"`
	CreatedAt    time.Time          `json:"createdAt"`
	UpdatedAt    time.Time          `json:"updatedAt"`
}

func toResponse(d store.Domain) Response {
	cc := d.CertConfigs.V
	if cc == nil {
		cc = []store.CertConfig{}
	}
	return Response{ID: d.ID, Name: d.Name, Domain: d.Domain, CertResolver: d.CertResolver,
		Wildcard: d.Wildcard, IsDefault: d.IsDefault, CertConfigs: cc,
		HTTPS: HTTPS{Redirect: d.HTTPSRedirect, HSTS: d.HSTS.V}, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
}
