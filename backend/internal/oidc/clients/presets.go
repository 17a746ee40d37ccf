package clients

import (
	"slices"
	"strings"
)

// HostPlaceholder stands in a preset's URIs for the hostname of the
// service the client is for; the UI fills it from the chosen service.
const HostPlaceholder = "{host}"

// Preset fills a new client for a known app from that app's own
// documentation (Docs): where the app sends people back (its redirect
// URIs, with HostPlaceholder), what it asks for, and the claims it reads.
// Note says what to type on the app's side. The client stays ordinary and
// editable; Preset only records where it came from.
type Preset struct {
	ID                     string         `json:"id"`
	Name                   string         `json:"name"`
	Description            string         `json:"description"`
	RedirectURIs           []string       `json:"redirectUris"`
	PostLogoutRedirectURIs []string       `json:"postLogoutRedirectUris"`
	BackchannelLogoutURI   string         `json:"backchannelLogoutUri"`
	Public                 bool           `json:"public"`
	Scopes                 []string       `json:"scopes"`
	GrantTypes             []string       `json:"grantTypes"`
	ClaimMappings          []ClaimMapping `json:"claimMappings"`
	Note                   string         `json:"note"`
	Docs                   []string       `json:"docs"`
}

// Presets returns the built-in presets (a fresh copy each call).
func Presets() []Preset {
	out := []Preset{
		grafana(), immich(), nextcloud(), jellyfin(), portainer(), proxmox(), gitea(), paperless(),
	}
	for i := range out {
		p := &out[i]
		p.PostLogoutRedirectURIs = orEmpty(p.PostLogoutRedirectURIs)
		if p.ClaimMappings == nil {
			p.ClaimMappings = []ClaimMapping{}
		}
	}
	return out
}

// presetByID returns the preset with that id, or nil.
func presetByID(id string) *Preset {
	for _, p := range Presets() {
		if p.ID == id {
			return &p
		}
	}
	return nil
}

// Input returns the client the preset makes for an app on host, named name.
func (p Preset) Input(name, host string) Input {
	fill := func(list []string) []string {
		out := make([]string, len(list))
		for i, u := range list {
			out[i] = strings.ReplaceAll(u, HostPlaceholder, host)
		}
		return out
	}
	return Input{
		Name: name, Preset: p.ID, Public: p.Public,
		RedirectURIs: fill(p.RedirectURIs), PostLogoutRedirectURIs: fill(p.PostLogoutRedirectURIs),
		BackchannelLogoutURI: strings.ReplaceAll(p.BackchannelLogoutURI, HostPlaceholder, host),
		Scopes:               slices.Clone(p.Scopes), GrantTypes: slices.Clone(p.GrantTypes),
		ClaimMappings: slices.Clone(p.ClaimMappings),
	}
}

var (
	codeOnly    = []string{GrantAuthorizationCode}
	basicScopes = []string{ScopeOpenID, ScopeProfile, ScopeEmail}
	withGroups  = []string{ScopeOpenID, ScopeProfile, ScopeEmail, ScopeGroups}
)

func grafana() Preset {
	return Preset{
		ID:   "grafana",
		Name: "Grafana",
		Description: "Grafana's generic OAuth sign-in. Its role comes from the grafana_role claim, built from the " +
			"person's groups: grafana-admins are Admin, grafana-editors Editor, everyone else Viewer (rename the groups " +
			"in the mapping to yours).",
		RedirectURIs:           []string{"https://{host}/login/generic_oauth"},
		PostLogoutRedirectURIs: []string{"https://{host}/login"},
		Scopes:                 withGroups,
		GrantTypes:             codeOnly,
		ClaimMappings: []ClaimMapping{{
			Claim: "grafana_role", Kind: KindGroups, Default: "Viewer",
			Values: []ClaimValue{{Group: "grafana-admins", Value: "Admin"}, {Group: "grafana-editors", Value: "Editor"}},
		}},
		Note: "In grafana.ini, section [auth.generic_oauth]: enabled = true, name = Gatehouse, client_id and " +
			"client_secret from this page, scopes = openid profile email groups, auth_url = the authorization endpoint, " +
			"token_url = the token endpoint, api_url = the userinfo endpoint, use_pkce = true, " +
			"login_attribute_path = preferred_username, groups_attribute_path = groups, " +
			"role_attribute_path = grafana_role, role_attribute_strict = true. Set [server] root_url to https://{host}/ " +
			"so Grafana sends the redirect URI above. For sign-out, set signout_redirect_url to the end-session " +
			"endpoint with ?post_logout_redirect_uri=https://{host}/login.",
		Docs: []string{
			"https://grafana.com/docs/grafana/latest/setup-grafana/configure-security/configure-authentication/generic-oauth/",
		},
	}
}

func immich() Preset {
	return Preset{
		ID:   "immich",
		Name: "Immich",
		Description: "Immich's OAuth sign-in, for the web client and the mobile apps (app.immich:///oauth-callback). " +
			"Members of immich-admins become administrators through the immich_role claim.",
		RedirectURIs: []string{
			"app.immich:///oauth-callback",
			"https://{host}/auth/login",
			"https://{host}/user-settings",
		},
		Scopes:     basicScopes,
		GrantTypes: codeOnly,
		ClaimMappings: []ClaimMapping{{
			Claim: "immich_role", Kind: KindGroups, Default: "user",
			Values: []ClaimValue{{Group: "immich-admins", Value: "admin"}},
		}},
		Note: "Administration > Settings > Authentication Settings > OAuth: Issuer URL = the issuer, Client ID and " +
			"Client Secret from this page, Scope = openid email profile, Role Claim = immich_role, and turn on " +
			"Auto Register to create accounts on first sign-in.",
		Docs: []string{"https://docs.immich.app/administration/oauth"},
	}
}

func nextcloud() Preset {
	return Preset{
		ID:   "nextcloud",
		Name: "Nextcloud (user_oidc)",
		Description: "Nextcloud's \"OpenID Connect user backend\" app (user_oidc), with the person's groups and " +
			"back-channel logout: signing out of the portal ends the Nextcloud session.",
		RedirectURIs:         []string{"https://{host}/apps/user_oidc/code"},
		BackchannelLogoutURI: "https://{host}/apps/user_oidc/backchannel-logout/Gatehouse",
		Scopes:               withGroups,
		GrantTypes:           codeOnly,
		Note: "Install the OpenID Connect user backend app, then Administration settings > OpenID Connect > Register: " +
			"Identifier = Gatehouse (the back-channel logout URI ends with it), Client ID and Client secret from this page, " +
			"Discovery endpoint = the discovery URL, Scope = openid email profile groups; under attribute mapping, " +
			"User ID = preferred_username and Groups = groups, and turn on group provisioning if Nextcloud should " +
			"follow the groups. Without pretty URLs, Nextcloud sends /index.php/apps/user_oidc/code: add that form.",
		Docs: []string{"https://github.com/nextcloud/user_oidc"},
	}
}

func jellyfin() Preset {
	return Preset{
		ID:   "jellyfin",
		Name: "Jellyfin (SSO plugin)",
		Description: "Jellyfin with the SSO Authentication plugin; the plugin reads the groups claim as roles, so " +
			"access and administrators follow groups.",
		RedirectURIs: []string{"https://{host}/sso/OID/redirect/gatehouse"},
		Scopes:       withGroups,
		GrantTypes:   codeOnly,
		Note: "Install the SSO Authentication plugin, then in its settings add an OpenID provider: Name = gatehouse " +
			"(the redirect URI ends with it), OpenID Endpoint = the issuer, OpenID Client ID and Secret from this page, " +
			"Enabled, Role Claim = groups, Roles and Admin Roles = the names of the groups allowed in and of the " +
			"administrators, and request the additional scope groups. People sign in from /sso/OID/start/gatehouse: " +
			"link it from the login page's custom branding.",
		Docs: []string{"https://github.com/9p4/jellyfin-plugin-sso"},
	}
}

func portainer() Preset {
	return Preset{
		ID:           "portainer",
		Name:         "Portainer",
		Description:  "Portainer's custom OAuth provider. Portainer sends its own address as the redirect URI.",
		RedirectURIs: []string{"https://{host}/"},
		Scopes:       basicScopes,
		GrantTypes:   codeOnly,
		Note: "Settings > Authentication > OAuth, provider Custom: Client ID and Client secret from this page, " +
			"Authorization URL = the authorization endpoint, Access token URL = the token endpoint, Resource URL = " +
			"the userinfo endpoint, Redirect URL = https://{host}/ (exactly as registered here), Logout URL = the " +
			"end-session endpoint, User identifier = preferred_username, Scopes = openid profile email (separated " +
			"by spaces). Turn on automatic user provisioning to create accounts on first sign-in.",
		Docs: []string{"https://docs.portainer.io/admin/settings/authentication/oauth"},
	}
}

func proxmox() Preset {
	return Preset{
		ID:   "proxmox",
		Name: "Proxmox VE",
		Description: "A Proxmox VE OpenID Connect realm. Proxmox sends the address its page was opened at (scheme, " +
			"host and port, no path) as the redirect URI.",
		RedirectURIs: []string{"https://{host}"},
		Scopes:       withGroups,
		GrantTypes:   codeOnly,
		Note: "Datacenter > Permissions > Realms > Add > OpenID Connect Server: Issuer URL = the issuer, Realm = " +
			"gatehouse, Client ID and Client Key = the ID and secret from this page, Username Claim = " +
			"preferred_username, Scopes = openid email profile groups, Groups Claim = groups, and Autocreate Users. " +
			"If people open Proxmox on another address (such as https://{host}:8006), add that address as it " +
			"appears in the browser.",
		Docs: []string{"https://pve.proxmox.com/wiki/User_Management#pveum_openid"},
	}
}

func gitea() Preset {
	return Preset{
		ID:   "gitea",
		Name: "Gitea / Forgejo",
		Description: "An OpenID Connect authentication source in Gitea or Forgejo, named gatehouse; groups can make " +
			"administrators.",
		RedirectURIs: []string{"https://{host}/user/oauth2/gatehouse/callback"},
		Scopes:       withGroups,
		GrantTypes:   codeOnly,
		Note: "Site Administration > Identity & Access > Authentication Sources > Add: Authentication Type = OAuth2, " +
			"Authentication Name = gatehouse (the callback path holds it), OAuth2 Provider = OpenID Connect, " +
			"Client ID (Key) and Client Secret from this page, OpenID Connect Auto Discovery URL = the discovery URL, " +
			"Additional Scopes = groups, Claim name providing group names = groups, and optionally the group claim " +
			"value for administrators.",
		Docs: []string{"https://docs.gitea.com/usage/authentication"},
	}
}

func paperless() Preset {
	return Preset{
		ID:           "paperless-ngx",
		Name:         "Paperless-ngx",
		Description:  "Paperless-ngx's OpenID Connect sign-in (django-allauth), with PKCE.",
		RedirectURIs: []string{"https://{host}/accounts/oidc/gatehouse/login/callback/"},
		Scopes:       basicScopes,
		GrantTypes:   codeOnly,
		Note: "Set PAPERLESS_APPS=allauth.socialaccount.providers.openid_connect and PAPERLESS_SOCIALACCOUNT_PROVIDERS " +
			"to {\"openid_connect\": {\"OAUTH_PKCE_ENABLED\": true, \"APPS\": [{\"provider_id\": \"gatehouse\", " +
			"\"name\": \"Gatehouse\", \"client_id\": \"<client id>\", \"secret\": \"<client secret>\", \"settings\": " +
			"{\"server_url\": \"<issuer>\"}}]}} (the provider_id is in the redirect URI). Existing accounts connect " +
			"under My Profile; set PAPERLESS_SOCIAL_AUTO_SIGNUP=true to create new ones.",
		Docs: []string{
			"https://docs.paperless-ngx.com/advanced_usage/#openid-connect-and-social-authentication",
			"https://docs.allauth.org/en/latest/socialaccount/providers/openid_connect.html",
		},
	}
}
