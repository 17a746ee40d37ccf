package rules

// Preset is a named set of rules the UI inserts into a rule list; the
// rules stay ordinary and editable.
//
// The application presets let through only the paths an application's own
// clients call without being able to follow a browser sign-in (sync
// clients, mobile and TV apps). Those clients sign in to the application
// itself, which checks their credentials on every such request; the web
// interface stays with the service's default action.
type Preset struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Docs        []string `json:"docs,omitempty"`
	Rules       []Rule   `json:"rules"`
}

// Presets returns the built-in presets (a fresh copy each call).
func Presets() []Preset {
	return []Preset{
		lanPreset(),
		acmePreset(),
		nextcloudPreset(),
		jellyfinPreset(),
		homeAssistantPreset(),
		immichPreset(),
	}
}

func lanPreset() Preset {
	return Preset{
		ID:   "lan-bypass",
		Name: "LAN bypass",
		Description: "Lets clients on the local network (private and link-local addresses) and on this host through " +
			"without sign-in. Anything that reaches Traefik from a private address counts, a VPN or another proxy included; " +
			"put deny rules that should also hold at home above it.",
		Docs: []string{
			"https://www.rfc-editor.org/rfc/rfc1918",
			"https://www.rfc-editor.org/rfc/rfc4193",
		},
		Rules: []Rule{{
			Action:  Allow,
			Note:    "LAN bypass: clients on the local network and on this host skip sign-in",
			Sources: []string{SourcePrivate, SourceLoopback},
		}},
	}
}

func acmePreset() Preset {
	return Preset{
		ID:   "acme-http-01",
		Name: "ACME HTTP-01",
		Description: "Lets a certificate authority fetch HTTP-01 challenge tokens from a service that obtains its own " +
			"certificates. Traefik's own certificate resolver answers these requests before forward-auth and needs no rule.",
		Docs: []string{
			"https://www.rfc-editor.org/rfc/rfc8555#section-8.3",
			"https://letsencrypt.org/docs/challenge-types/#http-01-challenge",
		},
		Rules: []Rule{{
			Action:  Allow,
			Note:    "ACME HTTP-01: the certificate authority fetches challenge tokens with GET",
			Paths:   prefix("/.well-known/acme-challenge/"),
			Methods: []string{"GET"},
		}},
	}
}

func nextcloudPreset() Preset {
	return Preset{
		ID:   "nextcloud",
		Name: "Nextcloud, WebDAV, CalDAV and CardDAV clients",
		Description: "For the desktop client, the Android and iOS apps and CalDAV/CardDAV/WebDAV clients such as DAVx5 " +
			"and Thunderbird: WebDAV, CalDAV and CardDAV, the OCS API, Login Flow v2 polling, remote wipe, avatars and " +
			"previews, Client Push and the APIs of Nextcloud apps (Notes, Deck, News). Nextcloud checks the app password " +
			"or session on each of these; the login page the clients open in a browser stays behind sign-in.",
		Docs: []string{
			"https://docs.nextcloud.com/server/latest/developer_manual/client_apis/WebDAV/basic.html",
			"https://docs.nextcloud.com/server/latest/developer_manual/client_apis/OCS/ocs-api-overview.html",
			"https://docs.nextcloud.com/server/latest/developer_manual/client_apis/LoginFlow/index.html",
			"https://docs.nextcloud.com/server/latest/developer_manual/client_apis/RemoteWipe/index.html",
			"https://docs.nextcloud.com/server/latest/admin_manual/issues/general_troubleshooting.html#service-discovery",
			"https://github.com/nextcloud/notify_push#reverse-proxy",
			"https://github.com/nextcloud/notes/blob/main/docs/api/README.md",
		},
		Rules: []Rule{
			{
				Action: Allow,
				Note:   "Nextcloud: status check, WebDAV, CalDAV and CardDAV (with service discovery) for sync and DAV clients",
				Paths: append(exact("/status.php", "/.well-known/caldav", "/.well-known/carddav"),
					prefix("/remote.php/dav", "/remote.php/webdav", "/remote.php/caldav", "/remote.php/carddav")...),
			},
			{
				Action: Allow,
				Note:   "Nextcloud: OCS API (capabilities, user, shares, notifications) for the desktop and mobile apps",
				Paths:  prefix("/ocs/v1.php", "/ocs/v2.php"),
			},
			{
				Action: Allow,
				Note:   "Nextcloud: Login Flow v2 start and polling, remote wipe; the login page itself opens in a browser",
				Paths: exact("/index.php/login/v2", "/index.php/login/v2/poll", "/login/v2", "/login/v2/poll",
					"/index.php/core/wipe/check", "/index.php/core/wipe/success"),
				Methods: []string{"POST"},
			},
			{
				Action:  Allow,
				Note:    "Nextcloud: avatars and file previews the apps load with their app password",
				Paths:   append(prefix("/index.php/avatar"), exact("/index.php/core/preview", "/index.php/core/preview.png")...),
				Methods: []string{"GET"},
			},
			{
				Action: Allow,
				Note:   "Nextcloud: Client Push (notify_push) websocket for the desktop and mobile apps",
				Paths:  prefix("/push"),
			},
			{
				Action: Allow,
				Note:   "Nextcloud: APIs of Nextcloud apps (Notes, Deck, News...) for their mobile apps",
				Paths:  []PathMatch{{Type: PathGlob, Value: "/index.php/apps/*/api/**"}},
			},
		},
	}
}

// jellyfinPreset is the one preset with a catch-all allow: the Jellyfin API
// has no common prefix (/Users, /Items, /Videos, /socket... at the root),
// its clients use most of it, and the web client is the one part under a
// prefix of its own.
func jellyfinPreset() Preset {
	return Preset{
		ID:   "jellyfin-emby",
		Name: "Jellyfin / Emby apps",
		Description: "The apps (mobile, TV, Kodi add-ons, Finamp, Infuse, Swiftfin...) use the whole API, which Jellyfin " +
			"serves at the root and Emby under /emby: the first rule keeps the web client (/web, also under /emby and " +
			"/mediabrowser) behind sign-in, the second lets everything else through to the server, which checks its own " +
			"access token. Jellyfin answers a few requests without a token (public server info, item images); with a " +
			"base URL configured, put it in front of every path.",
		Docs: []string{
			"https://api.jellyfin.org/",
			"https://jellyfin.org/docs/general/post-install/networking/",
			"https://dev.emby.media/doc/restapi/index.html",
		},
		Rules: []Rule{
			{
				Action: Authenticate,
				Note:   "Jellyfin/Emby: the web client stays behind sign-in (must stay above the API rule)",
				Paths:  append(exact("/"), prefix("/web", "/emby/web", "/mediabrowser/web")...),
			},
			{
				Action: Allow,
				Note:   "Jellyfin/Emby: the API the apps call, at the root and under /emby; the server checks its own token",
				Paths:  prefix("/"),
			},
		},
	}
}

func homeAssistantPreset() Preset {
	return Preset{
		ID:   "home-assistant",
		Name: "Home Assistant companion app",
		Description: "For the Android and iOS companion apps: token exchange, device registration, webhooks, the " +
			"websocket API, entity states and camera images for widgets and notification attachments, and the web " +
			"manifest the Android app reads to recognise the server; Home Assistant checks the app's access token (or " +
			"the secret webhook id) on each. The dashboard the app shows is the web interface and stays behind sign-in.",
		Docs: []string{
			"https://developers.home-assistant.io/docs/auth_api/",
			"https://developers.home-assistant.io/docs/api/native-app-integration/setup",
			"https://developers.home-assistant.io/docs/api/native-app-integration/sending-data",
			"https://developers.home-assistant.io/docs/api/websocket",
			"https://developers.home-assistant.io/docs/api/rest",
			"https://companion.home-assistant.io/docs/notifications/notification-attachments",
			"https://github.com/home-assistant/android/blob/main/common/src/main/kotlin/io/homeassistant/companion/android/common/data/connectivity/DefaultConnectivityChecker.kt",
		},
		Rules: []Rule{
			{
				Action:  Allow,
				Note:    "Home Assistant: the app exchanges, refreshes and revokes its tokens",
				Paths:   exact("/auth/token", "/auth/revoke"),
				Methods: []string{"POST"},
			},
			{
				Action: Allow,
				Note:   "Home Assistant: app registration, webhooks and the websocket API",
				Paths:  append(exact("/api/websocket", "/api/mobile_app/registrations"), prefix("/api/webhook")...),
			},
			{
				Action: Allow,
				Note: "Home Assistant: entity states and camera images for widgets and notification attachments, " +
					"and the manifest the app's connection check reads",
				Paths:   append(exact("/manifest.json"), prefix("/api/states", "/api/camera_proxy", "/api/camera_proxy_stream")...),
				Methods: []string{"GET"},
			},
		},
	}
}

func immichPreset() Preset {
	return Preset{
		ID:   "immich",
		Name: "Immich apps",
		Description: "For the Android and iOS apps: the whole REST API and its websocket under /api (the app is a full " +
			"API client) and the /.well-known/immich discovery document. Immich checks the app's session token or API " +
			"key on the API; the web pages stay behind sign-in.",
		Docs: []string{
			"https://docs.immich.app/administration/reverse-proxy",
			"https://api.immich.app/",
		},
		Rules: []Rule{{
			Action: Allow,
			Note:   "Immich: the API and websocket the mobile app uses, and its discovery document",
			Paths:  append(exact("/.well-known/immich"), prefix("/api")...),
		}},
	}
}

func exact(values ...string) []PathMatch { return pathMatches(PathExact, values) }

func prefix(values ...string) []PathMatch { return pathMatches(PathPrefix, values) }

func pathMatches(kind string, values []string) []PathMatch {
	out := make([]PathMatch, len(values))
	for i, v := range values {
		out[i] = PathMatch{Type: kind, Value: v}
	}
	return out
}
