package app

import (
	"github.com/gatehouse-proxy/gatehouse/internal/access"
	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/apitokens"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/sso"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/backup"
	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/managed"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/openapi"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/status"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer"
)

// apiFragments is the one list of the packages that describe routes in
// /api/openapi.json: every package that registers routes has an openapi.go
// and openapi*.yaml files, and is listed here.
func apiFragments() []openapi.Fragment {
	return []openapi.Fragment{
		{Package: "internal/httpapi", FS: httpapi.OpenAPI},
		{Package: "internal/admin", FS: admin.OpenAPI},
		{Package: "internal/admin/sso", FS: sso.OpenAPI},
		{Package: "internal/admin/apitokens", FS: apitokens.OpenAPI},
		{Package: "internal/audit", FS: audit.OpenAPI},
		{Package: "internal/settings", FS: settings.OpenAPI},
		{Package: "internal/services", FS: services.OpenAPI},
		{Package: "internal/domains", FS: domains.OpenAPI},
		{Package: "internal/managed", FS: managed.OpenAPI},
		{Package: "internal/access", FS: access.OpenAPI},
		{Package: "internal/forwardauth/machinetokens", FS: machinetokens.OpenAPI},
		{Package: "internal/access/log", FS: accesslog.OpenAPI},
		{Package: "internal/dynconf", FS: dynconf.OpenAPI},
		{Package: "internal/runtime", FS: runtime.OpenAPI},
		{Package: "internal/forwardauth", FS: forwardauth.OpenAPI},
		{Package: "internal/status", FS: status.OpenAPI},
		{Package: "internal/cluster", FS: cluster.OpenAPI},
		{Package: "internal/notify", FS: notify.OpenAPI},
		{Package: "internal/backup", FS: backup.OpenAPI},
		{Package: "internal/transfer", FS: transfer.OpenAPI},
	}
}

// apiDocument builds /api/openapi.json for this version.
func apiDocument() ([]byte, error) {
	return openapi.Build(Version, apiFragments()...)
}
