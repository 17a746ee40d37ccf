// Package app wires Gatehouse together: config -> logger -> database ->
// services -> HTTP. It is the only place that knows every concrete type.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"slices"
	"time"

	"filippo.io/age"
	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/apitokens"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/sso"
	"github.com/gatehouse-proxy/gatehouse/internal/alerts"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/background"
	"github.com/gatehouse-proxy/gatehouse/internal/backup"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/containers"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/invitations"
	"github.com/gatehouse-proxy/gatehouse/internal/managed"
	"github.com/gatehouse-proxy/gatehouse/internal/metrics"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc/clients"
	"github.com/gatehouse-proxy/gatehouse/internal/oidc/provider"
	"github.com/gatehouse-proxy/gatehouse/internal/paneladdr"
	"github.com/gatehouse-proxy/gatehouse/internal/people"
	"github.com/gatehouse-proxy/gatehouse/internal/people/apppasswords"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/status"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
	"github.com/gatehouse-proxy/gatehouse/internal/system"
	"github.com/gatehouse-proxy/gatehouse/internal/traffic"
	"github.com/gatehouse-proxy/gatehouse/internal/transfer"
	"github.com/gatehouse-proxy/gatehouse/internal/viewmask"
	"github.com/gatehouse-proxy/gatehouse/internal/web"
)

// Version is set at build time with -ldflags "-X .../internal/app.Version=...".
var Version = "0.1.0-dev"

// Options are the process's inputs, injected so tests can run the real app.
type Options struct {
	Args   []string
	Getenv config.Getenv
	Stdout io.Writer
	Stderr io.Writer
	// Stdin, if set, replaces the process's standard input (the password
	// prompt of the admin commands).
	Stdin io.Reader
	// Ready, if set, receives the bound address once the server listens.
	Ready func(addr string)
	// SetMemoryLimit, if set, applies PANEL_MEMORY_LIMIT to the process
	// (debug.SetMemoryLimit): the binary sets it; a test that runs the app
	// in its own process leaves it nil, keeping its own limit.
	SetMemoryLimit func(int64) int64
	// ReleaseExecutable, if set, is called once the panel is ready to
	// serve, to drop the executable's pages start-up touched and have the
	// rest read as used (procmem.ReleaseExecutable): the binary sets it.
	ReleaseExecutable func() error
}

// Run runs the gatehouse command and returns the process exit code.
func Run(ctx context.Context, o Options) int {
	cfg, err := config.Load(o.Getenv)
	if err != nil {
		_, _ = fmt.Fprintln(o.Stderr, "gatehouse: "+err.Error())
		return 2
	}
	log := newLogger(cfg, o.Stdout)
	var cmd string
	if len(o.Args) > 0 {
		cmd = o.Args[0]
	}
	switch cmd {
	case "", "serve":
		// Libraries that log through slog's default (the OpenID
		// provider's op package has no other way) write the panel's
		// format, at the panel's level, where the panel's logs go.
		slog.SetDefault(log)
		err = serve(ctx, cfg, log, o)
	case "admin":
		err = adminCommand(ctx, cfg, o)
	case "audit":
		err = auditCommand(ctx, cfg, o)
	case "backup":
		err = backupCommand(ctx, cfg, o)
	case "restore":
		err = restoreCommand(ctx, cfg, o)
	case "export":
		err = exportCommand(ctx, cfg, o)
	case "import":
		err = importCommand(ctx, cfg, o)
	case "version":
		_, err = fmt.Fprintln(o.Stdout, Version)
	case "openapi":
		var doc []byte
		if doc, err = apiDocument(); err == nil {
			_, err = o.Stdout.Write(doc)
		}
	case "help", "-h", "--help":
		_, err = fmt.Fprint(o.Stdout, usage)
	default:
		_, _ = fmt.Fprintf(o.Stderr, "gatehouse: unknown command %q\n%s", cmd, usage)
		return 2
	}
	if err != nil {
		_, _ = fmt.Fprintln(o.Stderr, "gatehouse: "+err.Error())
		return 1
	}
	return 0
}

const usage = `Usage:
  gatehouse [serve]                      start the panel (configured by PANEL_* variables)
  gatehouse admin create -username NAME [-role admin|viewer]
                                         create an administrator (password from PANEL_ADMIN_PASSWORD or stdin)
  gatehouse admin reset-password -username NAME
                                         set an administrator's password (same sources) and end their sessions
  gatehouse audit verify                 check the audit log's hash chain (exit 1 at the first broken link)
  gatehouse backup [-o FILE]             write a backup archive (into PANEL_BACKUP_DIR, or FILE); the panel may run
  gatehouse restore ARCHIVE              restore a backup archive into the data directory of a stopped panel
  gatehouse export [-o FILE] [-admins] [-secrets] [-admin-passwords]
                                         write the configuration as one JSON document (secrets sealed
                                         to a passphrase from GATEHOUSE_PASSPHRASE or stdin)
  gatehouse import [-format auto|gatehouse|npm|traefik] [-mode merge|replace] [-apply] FILE
                                         show what importing FILE would change; -apply writes it in
                                         one transaction (a running panel: use its import page instead)
  gatehouse openapi                      print the API description (OpenAPI 3.1, JSON)
  gatehouse version                      print the version
`

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// components holds the wired application.
type components struct {
	db      *gorm.DB
	bus     *change.Bus
	admin   *admin.Service
	audit   *audit.Service
	echo    *echo.Echo // the API server, for the route-table test
	handler http.Handler
	loops   []background.Loop
	polls   *status.Recorder // Traefik's polls of the dynamic configuration
	// cluster relays events and polls to the other replicas (PostgreSQL only).
	cluster *cluster.Cluster
	// transfer exports and imports the configuration (also for the CLI).
	transfer *transfer.Service
	// onListen receives the bound address once the server listens.
	onListen []func(addr string)
	// invitations mails invitations and password resets (tests wait
	// for the mail in flight).
	invitations *invitations.Service
	// routes says who may call each API route, as its feature declared
	// it, for the route-table tests.
	routes *route.Table
	// metrics are the panel's own (tests read the registry).
	metrics *metrics.Metrics
	// traffic is the traffic history (its Recorder counts verify's
	// decisions; Window feeds the alerts).
	traffic *traffic.Service
}

// build wires the application, and only wires: it builds each feature
// (store, service, handler), hands it what it asks for, and collects the
// routes and the background work the features expose.
//
// Constructors follow one style. A feature's service is
// NewService(pkg.Deps{...}): one struct of named collaborators, optional
// ones left zero, so every call site reads the same way and a new
// dependency changes no caller that does not need it. A handler is
// NewHandler(service). Background work comes from the feature's Loops
// (every replica) and LeaderLoops (one replica for all); nothing here runs
// a loop of its own. Values that are not features (a Traefik API client, a
// metrics scraper, the polls recorder, the database and cluster
// connections) keep short positional constructors.
func build(ctx context.Context, cfg config.Config, log *slog.Logger) (_ *components, err error) {
	db, err := store.Open(ctx, cfg.Database())
	if err != nil {
		return nil, err
	}
	bus := change.NewBus()
	// On PostgreSQL several replicas may share the database: the cluster
	// carries every event on the bus, and Traefik's polls, to the others.
	var cl *cluster.Cluster
	if cfg.PostgresURL != "" {
		if cl, err = cluster.New(ctx, cfg.PostgresURL, bus, log); err != nil {
			return nil, err
		}
		defer func() {
			if err != nil {
				cl.Close()
			}
		}()
	}
	now := store.Now
	// The panel's age identity seals secrets at rest (SSO client secret,
	// administrators' TOTP secrets, managed-mode DNS credentials).
	secrets, err := sealbox.Load(cfg.DataDir, cfg.AgeIdentity)
	if err != nil {
		return nil, err
	}
	settingsSvc := settings.NewService(settings.Deps{DB: db, Bus: bus})
	adminDomain := func(ctx context.Context) (string, error) {
		g, err := settingsSvc.Get(ctx)
		return g.AdminDomain, err
	}
	// Where Traefik and browsers reach the panel; it learns the bound
	// address once the server listens.
	panel := paneladdr.New(cfg.InternalURL, cfg.PublicURL, adminDomain)
	// The panel's own metrics; the features below report to it through
	// their hooks, and it reads the others when Prometheus scrapes.
	var servicesSvc *services.Service
	// The traffic history is built below, once the runtime it reads is.
	history := &trafficHistory{}
	mx := metrics.New(metrics.Deps{Version: Version, Logger: log, Token: cfg.MetricsToken, Addresses: cfg.MetricsAddresses,
		PublicHosts: publicHosts(cfg, settingsSvc), Replicas: clusterReplicas(cl, db),
		ServiceNames:  func(ctx context.Context) (map[string]string, error) { return servicesSvc.Names(ctx) },
		Decisions:     history.decisions,
		LatencyBounds: traffic.LatencyBounds})
	if err := mx.InstrumentDB(db); err != nil {
		return nil, err
	}
	c := &components{db: db, bus: bus, cluster: cl}
	c.onListen = append(c.onListen, panel.Bind)
	// Password sign-in asks the panel's sign-in settings (built below, once
	// the OpenID provider they use exists) whether passwords are on.
	var panelSSO *sso.Service
	portalURL := func(ctx context.Context) string {
		return paneladdr.PortalURL(cfg.PortalURL, settingsSvc.PortalHost(ctx))
	}
	adminSvc := admin.NewService(admin.Deps{DB: db, Now: now, BcryptCost: cfg.BcryptCost, Bus: bus, Logger: log,
		Secrets: secrets, PublicURL: panel.PublicSetting(),
		LocalPasswords: func(ctx context.Context) (bool, error) { return panelSSO.LocalPasswords(ctx) },
		PortalPolicy:   portalPolicy(settingsSvc), PortalHost: settingsSvc.PortalHost, PortalURL: portalURL})
	// Notifications: sources publish to it; its loops debounce and deliver.
	notifySvc := notify.NewService(notify.Deps{DB: db, Secrets: secrets, Now: now, Logger: log,
		OnDelivery: func(k notify.Kind, ok bool) { mx.Delivered(string(k), ok) }})
	if err := settingsSvc.SeedAdminDomain(ctx, cfg.AdminDomain); err != nil {
		return nil, fmt.Errorf("seed admin domain: %w", err)
	}
	epInfo := &entrypointInfo{settings: settingsSvc}
	servicesSvc = services.NewService(services.Deps{DB: db, Bus: bus, Now: now, Entrypoints: epInfo.get,
		DefaultLifetime: func(ctx context.Context) (int64, error) {
			g, err := settingsSvc.Get(ctx)
			return g.DefaultLifetimeSeconds, err
		},
		Protections: forwardauth.ServiceProtections, Exposures: serviceExposures, Restricted: accessRestricts, EndSessions: forwardauth.EndServiceSessions,
		Notify: notifySvc, ReadOnly: containers.ReadOnly})
	domainsSvc := domains.NewService(domains.Deps{DB: db, Bus: bus, Now: now})
	// Alert rules over the traffic history, evaluated by the leader and
	// sent through the notification channels.
	alertsSvc := alerts.NewService(alerts.Deps{DB: db, Now: now, Logger: log, Notify: notifySvc,
		ServiceNames: servicesSvc.Names, Source: history})
	adminHandler := admin.NewHandler(adminSvc)
	auditSvc := audit.NewService(audit.Deps{DB: db, Now: now, Logger: log, SessionCookie: admin.CookieName,
		OnSignIn: signInCounter(mx, settingsSvc)})
	// What each view hides from viewers, the log hides from them too.
	auditSvc.HideFromViewers(map[string]viewmask.Paths{
		"services":       services.ViewerHidden,
		"admin.security": admin.SecurityViewerHidden,
		"admin.sso":      sso.ViewerHidden,
	})
	apiTokens := apitokens.NewService(apitokens.Deps{DB: db, Now: now, Logger: log, Standing: adminSvc.TokenStanding})
	apiTokenHandler := apitokens.NewHandler(apiTokens)

	c.admin, c.audit = adminSvc, auditSvc
	api := &features{
		Admin:     adminHandler,
		Audit:     audit.NewHandler(auditSvc),
		APITokens: apiTokenHandler,
		Settings:  settings.NewHandler(settingsSvc),
		Services:  services.NewHandler(servicesSvc),
		Domains:   domains.NewHandler(domainsSvc),
		Notify:    notify.NewHandler(notifySvc),
		Alerts:    alerts.NewHandler(alertsSvc),
	}
	traefikClient, err := runtime.NewClient(cfg.ProxyAPIURL, runtime.ClientOptions{})
	if err != nil {
		return nil, fmt.Errorf("PANEL_PROXY_API_URL: %w", err)
	}
	var tlsSources []dynconf.EntrypointTLS
	providerToken, err := resolveProviderToken(cfg, secrets.Identity(), log)
	if err != nil {
		return nil, err
	}
	managedSvc, err := newManaged(ctx, cfg, db, bus, log, now, secrets.Identity(), providerToken, notifySvc, panel)
	if err != nil {
		return nil, err
	}
	if managedSvc != nil {
		// In managed mode the panel writes the entrypoints: it knows best.
		tlsSources = append(tlsSources, managedSvc)
		epInfo.sources = append(epInfo.sources, managedSvc.EntrypointProtocols)
	}
	api.Managed = managed.NewHandler(managedSvc, cfg.WrapperToken, adminDomain, now)
	if cfg.ProxyAPIURL != "" {
		tlsSources = append(tlsSources, traefikClient)
		epInfo.sources = append(epInfo.sources, traefikClient.EntrypointProtocols)
	}
	// Access rules and machine tokens consult forward-auth for service
	// names and protections, and forward-auth compiles them into its
	// snapshot; fwd breaks the construction cycle.
	fwd := &forwardauth.Ref{}
	geo, err := openGeo(cfg.GeoIPDB)
	if err != nil {
		return nil, err
	}
	dir := &directoryRef{}
	// A service managed by container labels has its rules and protections
	// from the labels: the API refuses to change them (detach it first).
	writable := func(ctx context.Context, id string) error { return servicesSvc.Writable(ctx, db, id) }
	policySvc := access.NewService(access.Deps{DB: db, Bus: bus, Now: now, Info: fwd, Geo: geo, People: dir, Writable: writable})
	tokenSvc := machinetokens.NewService(machinetokens.Deps{DB: db, Bus: bus, Now: now, Directory: fwd, Logger: log})
	decisions := accesslog.New()
	api.Access = access.NewHandler(policySvc)
	api.MachineTokens = machinetokens.NewHandler(tokenSvc)
	api.AccessLog = accesslog.NewHandler(decisions)

	polls := status.NewRecorder(now)
	c.polls = polls
	dynconfSvc := dynconf.NewService(dynconf.Deps{
		DB: db, Bus: bus, Services: servicesSvc, Settings: settingsSvc, Now: now, Logger: log,
		OnBuild: func(etag string, at time.Time) {
			polls.NoteVersion(etag, at)
			mx.ConfigBuilt(at)
		},
		OnServe: func(remote, etag string, code int) {
			mx.Polled(code)
			p := status.Poll{At: now(), Remote: remote, ETag: etag, Code: code}
			polls.Record(p)
			if cl != nil {
				cl.PublishPoll(p)
			}
		},
		Managed: cfg.Managed, Panel: panel, PanelService: panelService(cfg), PanelMiddlewares: panelMiddlewares(cfg), TLSSources: tlsSources,
		TrustForwardHeader: len(cfg.TrustedProxies) > 0, ProviderToken: providerToken,
		Guarded: guarded(db, policySvc),
	})
	api.Dynconf = dynconf.NewHandler(dynconfSvc)
	if cl != nil { // every replica sees the polls that reached any of them
		cl.OnPoll(polls.Record)
	}
	api.Cluster = cluster.NewHandler(cl, db, now())
	api.System = system.NewHandler(system.NewService(system.Deps{
		DB: db, Postgres: cfg.PostgresURL != "", SQLiteFile: cfg.DBPath, DataDir: cfg.DataDir,
		Version: Version, Managed: cfg.Managed, Panel: panel, AdminDomain: adminDomain, Now: now,
	}))
	scraper, err := runtime.NewScraper(cfg.MetricsURL, 0, 0, nil)
	if err != nil {
		return nil, fmt.Errorf("PANEL_PROXY_METRICS_URL: %w", err)
	}
	runtimeDeps := runtime.Deps{
		Client: traefikClient, Scraper: scraper, Services: servicesSvc, Domains: domainsSvc,
		Settings: settingsSvc, Owners: dynconfSvc,
	}
	if managedSvc != nil {
		runtimeDeps.Managed = managedSvc
	}
	runtimeSvc := runtime.NewService(runtimeDeps)
	api.Runtime = runtime.NewHandler(runtimeSvc)
	trafficSvc, err := newTraffic(cfg, db, cl, now, log, runtimeSvc, servicesSvc, scraper != nil)
	if err != nil {
		return nil, err
	}
	c.traffic = trafficSvc
	history.svc = trafficSvc
	api.Traffic = traffic.NewHandler(trafficSvc)
	api.Status = status.NewHandler(status.NewService(status.Deps{
		Polls: polls, Config: dynconfSvc, Services: servicesSvc, Runtime: runtimeSvc, Now: now,
		ConfigURL:        panel.Provider,
		ProviderTokenSet: providerToken != "",
		Prober:           runtimeSvc,
		Setup: func() status.SetupInput {
			return status.SetupInput{Internal: panel.InternalSetting(), Bound: panel.Bound()}
		},
	}))
	polls.OnStall(pollingNotice(notifySvc, now, log))
	watcher := notifyWatcher(runtimeSvc, notifySvc, now, log)
	backups := newBackups(cfg, db, secrets, now, log, notifySvc, mx.BackedUp)
	api.Backup = backup.NewHandler(backups)

	// OpenID Connect clients: the apps that sign people in with the panel
	// as their provider. The launcher shows a service linked to one.
	oidcClients := clients.NewService(clients.Deps{DB: db, Bus: bus, Now: now,
		Directory: clientDirectory{services: fwd, people: dir}, PortalURL: portalURL})
	api.OIDCClients = clients.NewHandler(oidcClients)
	appPasswords := apppasswords.NewService(apppasswords.Deps{DB: db, Bus: bus, Now: now})
	api.AppPasswords = apppasswords.NewHandler(appPasswords)
	accessSvc := forwardauth.NewService(forwardauth.Deps{Writable: writable,
		DB: db, Bus: bus, Now: now, Logger: log, BcryptCost: cfg.BcryptCost, Secrets: secrets, Schemes: dynconfSvc,
		PanelURL: panel.Public,
		Rules:    policySvc, Tokens: tokenSvc, Geo: geo, TrustedProxies: cfg.ForwardAuthProxies(), Log: decisions,
		Notify: notifySvc, Mailer: notifySvc, Portal: portalSessions{adminSvc}, AppPasswords: appPasswords,
		Traffic:   trafficSvc.Recorder(),
		PortalURL: func(ctx context.Context) (string, error) { return portalURL(ctx), nil },
		Apps:      oidcClients,
	})
	fwd.Set(accessSvc)
	// Apps sign people in with the portal: the OpenID provider.
	oidcProvider, err := provider.NewService(provider.Deps{DB: db, Bus: bus, Secrets: secrets, Now: now, Logger: log,
		Portal: oidcPortal{adminSvc}, PortalURL: portalURL, PortalHost: settingsSvc.PortalHost,
		EndPortalSession: adminSvc.EndSession})
	if err != nil {
		return nil, err
	}
	if err := oidcProvider.Start(ctx); err != nil {
		return nil, fmt.Errorf("OpenID provider keys: %w", err)
	}
	api.OIDCProvider = provider.NewHandler(oidcProvider)
	// Signing out on the portal ends the service sessions opened from it,
	// and the apps' sessions.
	adminSvc.SetPortalSessionEnder(portalEnders{accessSvc, oidcProvider})
	api.ForwardAuth = forwardauth.NewHandler(accessSvc)
	peopleSvc := people.NewService(people.Deps{DB: db, Now: now, Bus: bus, Accounts: adminSvc, Services: accessSvc})
	dir.svc = peopleSvc
	api.People = people.NewHandler(peopleSvc)
	c.invitations = invitations.NewService(invitations.Deps{
		DB: db, Now: now, Bus: bus, Logger: log, People: peopleSvc, Accounts: adminSvc, Mailer: notifySvc,
		// Links in mail open on the portal when there is one.
		LinkBase: func(ctx context.Context) (string, error) {
			if u := portalURL(ctx); u != "" {
				return u, nil
			}
			return panel.Public(ctx)
		},
	})
	api.Invitations = invitations.NewHandler(c.invitations)
	panelSSO = sso.NewService(sso.Deps{
		DB: db, Now: now, Logger: log, Provider: accessSvc, Admins: adminSvc,
		PanelURL: panel.Public, People: peopleSvc,
		Portal: func(ctx context.Context) (sso.PortalOptions, error) {
			p, err := settingsSvc.Portal(ctx)
			return sso.PortalOptions{Enabled: p.ProviderSignIn, CreatePeople: p.CreatePeople, URL: portalURL(ctx)}, err
		},
	})
	// The portal offers "Sign in with …" only while the provider is on.
	api.Settings.WithProvider(accessSvc.SSOConfigured)
	// A database from before the people protection: its per-service single
	// sign-on becomes people protections.
	if err := startSSOUpgrade(ctx, db, bus, log, func(replaced []string) {
		accessSvc.SSOProtectionsReplaced(replaced)
		settingsSvc.PortalChanged()
	}); err != nil {
		return nil, err
	}
	api.AdminSSO = sso.NewHandler(panelSSO)
	// What was built with the address before the server listened is built
	// again with it.
	c.onListen = append(c.onListen, func(string) {
		dynconfSvc.Invalidate()
		accessSvc.InvalidatePolicy()
	})

	containersSvc, err := newContainers(cfg, db, bus, now, log, servicesSvc, accessSvc, policySvc)
	if err != nil {
		return nil, err
	}
	api.Containers = containers.NewHandler(containersSvc)

	c.transfer = transfer.NewService(transfer.Deps{DB: db, Bus: bus, Now: now, Box: secrets,
		Credentials: dnsCredentials(managedSvc), Readers: transferReaders(cfg), PanelVersion: Version, GeoIP: geo != nil, Logger: log,
		Accounts: adminSvc})
	api.Transfer = transfer.NewHandler(c.transfer)

	if err := api.wired(); err != nil {
		return nil, err
	}
	doc, err := httpapi.Document(Version, api.list())
	if err != nil {
		return nil, fmt.Errorf("API description: %w", err)
	}

	clientIP := httpapi.NewClientIP(cfg.TraefikAddresses, cfg.TraefikHosts, cfg.ClientHops(), log)
	// Background work: what every replica runs, and what one runs for all
	// of them (the stall check and the watcher turn Traefik's state into
	// notifications once; each replica delivers what it published).
	c.loops = slices.Concat(accessSvc.Loops(), oidcProvider.Loops(), tokenSvc.Loops(), apiTokens.Loops(), adminSvc.Loops(),
		notifySvc.Loops(), scraper.Loops(), clientIP.Loops(), trafficSvc.Loops())
	leader := slices.Concat(accessSvc.LeaderLoops(), oidcProvider.LeaderLoops(), adminSvc.LeaderLoops(), auditSvc.LeaderLoops(),
		dynconfSvc.LeaderLoops(), polls.LeaderLoops(), watcher.LeaderLoops(), backups.LeaderLoops(),
		trafficSvc.LeaderLoops(), mx.LeaderLoops(), alertsSvc.LeaderLoops(), containersSvc.LeaderLoops())
	if cl != nil {
		// The leader's loops run while this replica holds the cluster's
		// lock; the serving lock is held by every serving replica, so
		// `gatehouse import -apply` refuses to run beside one, wherever it runs.
		leader = []background.Loop{cl.Leader("background", leader...), cl.Serving()}
	}
	c.loops = append(c.loops, leader...)
	srv := httpapi.New(httpapi.Deps{
		Logger: log, Version: Version, Managed: cfg.Managed,
		Ping:          func(ctx context.Context) error { return store.Ping(ctx, db) },
		SetupRequired: adminSvc.SetupRequired,
		SignIn: func(ctx context.Context) (bool, bool, error) {
			in, err := panelSSO.SignIn(ctx)
			return in.SSO, in.LocalPasswords, err
		},
		RequireAdmin: apiTokenHandler.Guard(func(next echo.HandlerFunc) echo.HandlerFunc {
			return adminHandler.RequireSession(adminHandler.RequireTwoFactor(next))
		}),
		Passkeys: adminSvc.PasskeysAvailable(),
		Audit:    auditSvc.Middleware,
		Features: api.list(),
		OpenAPI:  doc,
		UI:       web.Handler(),
		ClientIP: clientIP,
		// On the portal's host only the portal's routes answer.
		PortalHost: settingsSvc.PortalHost,
		OIDC:       oidcProvider,
	})
	c.echo, c.routes = srv.Echo, srv.Routes
	// Forward-auth verify is on the path of every proxied request: it gets a
	// lean front that skips the general API middleware.
	// /metrics answers in front of both, with its own access rule.
	c.handler = mx.Front(accessSvc.FastVerify(c.echo))
	c.metrics = mx
	return c, nil
}

// resolveProviderToken is the token GET /api/proxy/config requires of Traefik's
// HTTP provider: PANEL_PROVIDER_TOKEN, else in managed mode with a wrapper
// token one derived from the age identity (the same on every replica; the
// static configuration carries it and only the wrapper reads that). Empty
// leaves the endpoint open, as before the token existed. Never logged.
func resolveProviderToken(cfg config.Config, id *age.X25519Identity, log *slog.Logger) (string, error) {
	switch {
	case cfg.ProviderToken != "":
		return cfg.ProviderToken, nil
	case cfg.Managed && cfg.WrapperToken != "":
		return managed.ProviderToken(id)
	}
	log.Warn("GET /api/proxy/config answers anyone who reaches the panel, with every header value services send upstream: " +
		"set PANEL_PROVIDER_TOKEN and send it from Traefik's HTTP provider (README: Pointing Traefik at Gatehouse)")
	return "", nil
}

// newManaged builds the managed-mode service, or nil when PANEL_MANAGED is
// off. Traefik's HTTP provider polls the panel's provider address, with
// providerToken.
// The DNS credentials file of an older install (or of a restored older
// archive) moves into the database here.
func newManaged(ctx context.Context, cfg config.Config, db *gorm.DB, bus *change.Bus, log *slog.Logger, now func() time.Time,
	id *age.X25519Identity, providerToken string, pub notify.Publisher, panel *paneladdr.Address) (*managed.Service, error) {
	if !cfg.Managed {
		return nil, nil
	}
	svc, err := managed.NewService(managed.Deps{
		DB: db, Bus: bus, DataDir: cfg.DataDir, Identity: id, ACMEEmail: cfg.ACMEEmail,
		Static: managed.StaticOptions{
			APIAddress: cfg.ManagedAPIAddress, ACMEDir: cfg.ManagedACMEDir,
			Replicas: cfg.ReplicaURLs, PanelAddress: cfg.ManagedPanelAddress, ConfigDir: cfg.ManagedConfigDir,
			ProviderToken: providerToken,
		},
		BaseURL: panel.Provider,
		Now:     now, Logger: log, Notify: pub,
	})
	if err != nil {
		return nil, fmt.Errorf("managed mode: %w", err)
	}
	if err := svc.ImportFile(ctx); err != nil {
		return nil, fmt.Errorf("managed mode: %w", err)
	}
	if cfg.WrapperToken == "" {
		log.Warn("managed mode without PANEL_WRAPPER_TOKEN: the Traefik wrapper cannot fetch DNS credentials or report what it runs")
	}
	return svc, nil
}

// applyMemoryLimit sets the Go runtime's soft memory limit from
// PANEL_MEMORY_LIMIT through set (debug.SetMemoryLimit); with set nil, as
// when a test runs the app in its own process, the process keeps its own.
func applyMemoryLimit(cfg config.Config, log *slog.Logger, set func(int64) int64) {
	switch {
	case set == nil:
	case cfg.MemoryLimit == config.MemoryLimitFromGo:
		log.Info("memory limit from GOMEMLIMIT", "bytes", set(-1))
	case cfg.MemoryLimit == math.MaxInt64:
		set(cfg.MemoryLimit)
		log.Info("no memory limit (PANEL_MEMORY_LIMIT=off)")
	default:
		set(cfg.MemoryLimit)
		log.Info("memory limit", "mib", cfg.MemoryLimit>>20)
	}
}

func serve(ctx context.Context, cfg config.Config, log *slog.Logger, o Options) error {
	// Held while serving: `gatehouse restore` refuses to run under it.
	lk, err := backup.LockShared(cfg.DataDir)
	if err != nil {
		return err
	}
	defer lk.Release()
	applyMemoryLimit(cfg, log, o.SetMemoryLimit)
	c, err := build(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer c.close()
	if c.cluster != nil {
		log.Info("replica of a cluster on PostgreSQL", "replica", c.cluster.ID())
	}
	if created, err := c.admin.EnsureBootstrap(ctx, cfg.AdminUser, cfg.AdminPassword); err != nil {
		return fmt.Errorf("PANEL_ADMIN_USER: %w", err)
	} else if created {
		log.Info("created administrator from the environment", "username", cfg.AdminUser)
	}

	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("PANEL_LISTEN: %w", err)
	}
	srv := &http.Server{
		Handler:           c.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	loopCtx, stopLoops := context.WithCancel(ctx)
	defer stopLoops()
	background.Start(loopCtx, log, c.loops)

	addr := ln.Addr().String()
	for _, f := range c.onListen {
		f(addr)
	}
	if o.ReleaseExecutable != nil {
		if err := o.ReleaseExecutable(); err != nil {
			log.Debug("executable pages kept resident", "err", err)
		}
	}
	log.Info("gatehouse listening", "url", "http://"+addr, "version", Version, "managed", cfg.Managed, "database", cfg.DatabaseForLog())
	if o.Ready != nil {
		o.Ready(addr)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
		log.Info("shutting down")
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdownCtx); err != nil {
			return fmt.Errorf("shutdown: %w", err)
		}
	}
	return nil
}

// close stops relaying to the other replicas and closes the database.
func (c *components) close() {
	if c.cluster != nil {
		c.cluster.Close()
	}
	closeDB(c.db)
}

func closeDB(db *gorm.DB) {
	if sqlDB, err := db.DB(); err == nil {
		_ = sqlDB.Close()
	}
}

// panelService is the admin-panel router's service in managed mode with
// replicas: their load balancer in Traefik's file provider.
func panelService(cfg config.Config) string {
	if !cfg.Managed || len(cfg.ReplicaURLs) == 0 {
		return ""
	}
	return managed.PanelService + "@file"
}

// panelMiddlewares go with panelService: the retry over the replicas.
func panelMiddlewares(cfg config.Config) []string {
	if panelService(cfg) == "" {
		return nil
	}
	return []string{managed.PanelRetry + "@file"}
}
