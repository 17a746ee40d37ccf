package app

import (
	"fmt"
	"reflect"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/apitokens"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/sso"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/backup"
	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/containers"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/invitations"
	"github.com/gatehouse-proxy/gatehouse/internal/managed"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/people/apppasswords"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/status"
	"github.com/gatehouse-proxy/gatehouse/internal/system"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer"
)

// features is the one list of what the API serves, a field per feature, in
// the order they register. httpapi.New mounts each one's routes, every
// route declaring who may call it, and /api/openapi.json merges each one's
// part of the description (its package's openapi*.yaml files). build sets
// every field; the zero value describes the API without serving it
// (gatehouse openapi): a nil handler is asked only for its fragment.
type features struct {
	Admin         *admin.Handler
	People        *people.Handler
	AppPasswords  *apppasswords.Handler
	Invitations   *invitations.Handler
	Audit         *audit.Handler
	APITokens     *apitokens.Handler
	Settings      *settings.Handler
	Services      *services.Handler
	Containers    *containers.Handler
	Domains       *domains.Handler
	Notify        *notify.Handler
	Managed       *managed.Handler
	Access        *access.Handler
	MachineTokens *machinetokens.Handler
	AccessLog     *accesslog.Handler
	Traffic       *traffic.Handler
	Dynconf       *dynconf.Handler
	Cluster       *cluster.Handler
	System        *system.Handler
	Runtime       *runtime.Handler
	Status        *status.Handler
	Backup        *backup.Handler
	ForwardAuth   *forwardauth.Handler
	AdminSSO      *sso.Handler
	Transfer      *transfer.Handler
}

// list returns the features in field order. Reading the fields, rather
// than naming them again, keeps the struct the only list.
func (f *features) list() []httpapi.Feature {
	v := reflect.ValueOf(f).Elem()
	out := make([]httpapi.Feature, v.NumField())
	for i := range out {
		out[i] = v.Field(i).Interface().(httpapi.Feature)
	}
	return out
}

// wired refuses a feature build left out: its routes would be mounted on a
// nil handler.
func (f *features) wired() error {
	v := reflect.ValueOf(f).Elem()
	for i := range v.NumField() {
		if v.Field(i).IsNil() {
			return fmt.Errorf("feature %s is not wired", v.Type().Field(i).Name)
		}
	}
	return nil
}

// apiDocument builds /api/openapi.json for this version.
func apiDocument() ([]byte, error) {
	return httpapi.Document(Version, (&features{}).list())
}
