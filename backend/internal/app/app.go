// Package app wires Gatehouse together: config -> logger -> database ->
// services -> HTTP. It is the only place that knows every concrete type.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"filippo.io/age"
	"github.com/labstack/echo/v4"
	"gorm.io/gorm"

	"github.com/gatehouse-proxy/gatehouse/internal/access"
	accesslog "github.com/gatehouse-proxy/gatehouse/internal/access/log"
	"github.com/gatehouse-proxy/gatehouse/internal/admin"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/apitokens"
	"github.com/gatehouse-proxy/gatehouse/internal/admin/sso"
	"github.com/gatehouse-proxy/gatehouse/internal/audit"
	"github.com/gatehouse-proxy/gatehouse/internal/backup"
	"github.com/gatehouse-proxy/gatehouse/internal/change"
	"github.com/gatehouse-proxy/gatehouse/internal/cluster"
	"github.com/gatehouse-proxy/gatehouse/internal/config"
	"github.com/gatehouse-proxy/gatehouse/internal/domains"
	"github.com/gatehouse-proxy/gatehouse/internal/dynconf"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth"
	"github.com/gatehouse-proxy/gatehouse/internal/forwardauth/machinetokens"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi"
	"github.com/gatehouse-proxy/gatehouse/internal/httpapi/route"
	"github.com/gatehouse-proxy/gatehouse/internal/managed"
	"github.com/gatehouse-proxy/gatehouse/internal/notify"
	"github.com/gatehouse-proxy/gatehouse/internal/runtime"
	"github.com/gatehouse-proxy/gatehouse/internal/sealbox"
	"github.com/gatehouse-proxy/gatehouse/internal/services"
	"github.com/gatehouse-proxy/gatehouse/internal/settings"
	"github.com/gatehouse-proxy/gatehouse/internal/status"
	"github.com/gatehouse-proxy/gatehouse/internal/store"
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
	loops   []func(ctx context.Context)
	polls   *status.Recorder // Traefik's polls of the dynamic configuration
	// cluster relays events and polls to the other replicas (PostgreSQL only).
	cluster *cluster.Cluster
	// transfer exports and imports the configuration (also for the CLI).
	transfer *transfer.Service
	// onListen receives the bound address once the server listens.
	onListen []func(addr string)
	// routes says who may call each API route, as its feature declared
	// it, for the route-table tests.
	routes *route.Table
}

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
	// leader are the loops that run once for all replicas: on the replica
	// holding the cluster's advisory lock, or here on SQLite.
	var leader []func(ctx context.Context)
	now := store.Now
	// The panel's age identity seals secrets at rest (SSO client secret,
	// administrators' TOTP secrets, managed-mode DNS credentials).
	secrets, err := sealbox.Load(cfg.DataDir, cfg.AgeIdentity)
	if err != nil {
		return nil, err
	}
	// Password sign-in asks the panel's sign-in settings (built below, once
	// the OpenID provider they use exists) whether passwords are on.
	var panelSSO *sso.Service
	adminSvc := admin.NewService(db, now, cfg.BcryptCost, admin.WithBus(bus),
		admin.WithSecrets(secrets), admin.WithPublicURL(cfg.PublicURL),
		admin.WithLocalPasswords(func(ctx context.Context) (bool, error) { return panelSSO.LocalPasswords(ctx) }))
	settingsSvc := settings.NewService(db, bus)
	// Notifications: sources publish to it; its loops debounce and deliver.
	notifySvc := notify.New(notify.Options{DB: db, Secrets: secrets, Now: now, Logger: log})
	if err := settingsSvc.SeedAdminDomain(ctx, cfg.AdminDomain); err != nil {
		return nil, fmt.Errorf("seed admin domain: %w", err)
	}
	servicesSvc := services.NewService(db, bus, now, func(ctx context.Context) (int64, error) {
		g, err := settingsSvc.Get(ctx)
		return g.DefaultLifetimeSeconds, err
	}, services.WithProtections(forwardauth.ServiceProtections), services.WithExposures(serviceExposures), services.WithEndSessions(forwardauth.EndServiceSessions),
		services.WithNotify(notifySvc))
	domainsSvc := domains.NewService(db, bus, now)
	adminHandler := admin.NewHandler(adminSvc)
	auditSvc := audit.NewService(db, now, log, admin.CookieName)
	// What each view hides from viewers, the log hides from them too.
	auditSvc.HideFromViewers(map[string]viewmask.Paths{
		"services":       services.ViewerHidden,
		"admin.security": admin.SecurityViewerHidden,
		"admin.sso":      sso.ViewerHidden,
	})
	apiTokens := apitokens.NewService(db, now, log, apitokens.WithStanding(adminSvc.TokenStanding))
	apiTokenHandler := apitokens.NewHandler(apiTokens)

	c := &components{db: db, bus: bus, admin: adminSvc, audit: auditSvc, cluster: cl}
	api := &features{
		Admin:     adminHandler,
		Audit:     audit.NewHandler(auditSvc),
		APITokens: apiTokenHandler,
		Settings:  settings.NewHandler(settingsSvc),
		Services:  services.NewHandler(servicesSvc),
		Domains:   domains.NewHandler(domainsSvc),
		Notify:    notify.NewHandler(notifySvc),
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
	managedSvc, err := newManaged(ctx, cfg, db, bus, log, now, secrets.Identity(), providerToken, notifySvc, c)
	if err != nil {
		return nil, err
	}
	if managedSvc != nil {
		// In managed mode the panel writes the entrypoints: it knows best.
		tlsSources = append(tlsSources, managedSvc)
	}
	api.Managed = managed.NewHandler(managedSvc, cfg.WrapperToken, func(ctx context.Context) (string, error) {
		g, err := settingsSvc.Get(ctx)
		return g.AdminDomain, err
	}, now)
	if cfg.ProxyAPIURL != "" {
		tlsSources = append(tlsSources, traefikClient)
	}
	// Access rules and machine tokens consult forward-auth (access) for
	// service names and protections, and access compiles them into its
	// snapshot; fwd breaks the construction cycle.
	fwd := &accessForwarder{}
	geo, err := openGeo(cfg.GeoIPDB)
	if err != nil {
		return nil, err
	}
	policySvc := access.NewService(db, bus, now, fwd, geo)
	tokenSvc := machinetokens.NewService(db, bus, now, fwd, log)
	decisions := accesslog.New()
	api.Access = access.NewHandler(policySvc)
	api.MachineTokens = machinetokens.NewHandler(tokenSvc)
	api.AccessLog = accesslog.NewHandler(decisions)
	c.loops = append(c.loops, tokenSvc.Loop(5*time.Second))

	polls := status.NewRecorder(now)
	c.polls = polls
	dynconfSvc := dynconf.NewService(dynconf.Deps{
		DB: db, Bus: bus, Services: servicesSvc, Settings: settingsSvc, Now: now, Logger: log,
		OnBuild: polls.NoteVersion,
		OnServe: func(remote, etag string, code int) {
			p := status.Poll{At: now(), Remote: remote, ETag: etag, Code: code}
			polls.Record(p)
			if cl != nil {
				cl.PublishPoll(p)
			}
		},
		Managed: cfg.Managed, InternalURL: cfg.InternalURL, PanelService: panelService(cfg), PanelMiddlewares: panelMiddlewares(cfg), TLSSources: tlsSources,
		TrustForwardHeader: len(cfg.TrustedProxies) > 0, ProviderToken: providerToken,
		Guarded: func(ctx context.Context, ids []string) (func(string) bool, error) {
			prot, err := forwardauth.Protections(ctx, db, ids)
			if err != nil {
				return nil, err
			}
			return policySvc.Guard(ctx, func(id string) bool { _, ok := prot[id]; return ok }, ids...)
		},
	})
	api.Dynconf = dynconf.NewHandler(dynconfSvc)
	if cl != nil { // every replica sees the polls that reached any of them
		cl.OnPoll(polls.Record)
	}
	api.Cluster = cluster.NewHandler(cl, db, now())
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
	var listenAddr atomic.Pointer[string]
	c.onListen = append(c.onListen, func(addr string) { listenAddr.Store(&addr) })
	api.Status = status.NewHandler(status.NewService(status.Deps{
		Polls: polls, Config: dynconfSvc, Services: servicesSvc, Runtime: runtimeSvc, Now: now,
		ConfigURL:        func() string { return traefikPanelURL(cfg, listenAddr.Load()) },
		ProviderTokenSet: providerToken != "",
	}))
	polls.OnStall(func(s status.Stall) {
		if s.Stopped {
			log.Warn("traefik stopped polling the dynamic configuration", "last_poll", s.Last.At, "remote", s.Last.Remote, "interval", s.Interval)
		} else {
			log.Info("traefik polls the dynamic configuration again", "remote", s.Last.Remote)
		}
		notifySvc.Publish(context.Background(), notify.PollingEvent(s.Stopped, s.Last.At, now()))
	})
	// The stall check and Traefik's runtime state turn into notifications
	// once, on the leader; each replica delivers the notifications it published.
	leader = append(leader, every(time.Second, func(context.Context) { polls.Check() }))
	leader = append(leader, watchLoop(notifyWatcher(runtimeSvc, notifySvc, now), log))
	c.loops = append(c.loops, notifySvc.Run(time.Second))
	backups := newBackups(cfg, db, secrets, now, log, notifySvc)
	api.Backup = backup.NewHandler(backups)
	if cfg.PostgresURL == "" { // PostgreSQL is backed up with its own tools
		c.loops = append(c.loops, backups.Loop(time.Minute))
	}
	if scraper != nil {
		c.loops = append(c.loops, every(runtime.DefaultScrapeInterval, scraper.Scrape))
	}
	c.onListen = append(c.onListen, dynconfSvc.SetListenAddr)

	var boundAddr atomic.Pointer[string]
	accessSvc := forwardauth.New(forwardauth.Options{
		DB: db, Bus: bus, Now: now, Logger: log, BcryptCost: cfg.BcryptCost, Secrets: secrets, Schemes: dynconfSvc,
		PanelURL: func(ctx context.Context) (string, error) {
			return panelPublicURL(ctx, cfg, settingsSvc, boundAddr.Load())
		},
		Rules: policySvc, Tokens: tokenSvc, Geo: geo, TrustedProxies: cfg.ForwardAuthProxies(), Log: decisions,
		Notify: notifySvc,
	})
	fwd.svc = accessSvc
	api.ForwardAuth = forwardauth.NewHandler(accessSvc)
	panelSSO = sso.New(sso.Options{
		DB: db, Now: now, Logger: log, Provider: accessSvc, Admins: adminSvc,
		PanelURL: func(ctx context.Context) (string, error) {
			return panelPublicURL(ctx, cfg, settingsSvc, boundAddr.Load())
		},
	})
	api.AdminSSO = sso.NewHandler(panelSSO)
	c.loops = append(c.loops, accessSvc.Loops()...)
	leader = append(leader, accessSvc.LeaderLoops()...)
	c.onListen = append(c.onListen, func(addr string) {
		boundAddr.Store(&addr)
		accessSvc.InvalidatePolicy()
	})
	// Expired services are switched off within seconds even when Traefik
	// does not poll, so the API and UI show it.
	leader = append(leader, every(2*time.Second, func(ctx context.Context) {
		if err := dynconfSvc.DisableExpired(ctx); err != nil && ctx.Err() == nil {
			log.Warn("disable expired services", "err", err)
		}
	}))
	leader = append(leader, every(time.Hour, func(ctx context.Context) {
		if err := adminSvc.SweepSessions(ctx); err != nil {
			log.Warn("sweep admin sessions", "err", err)
		}
	}))
	leader = append(leader, every(time.Hour, func(ctx context.Context) {
		if n, err := auditSvc.Prune(ctx); err != nil && ctx.Err() == nil {
			log.Warn("prune audit entries", "err", err)
		} else if n > 0 {
			log.Info("pruned audit entries", "count", n)
		}
	}))
	c.loops = append(c.loops, apiTokens.Loop(admin.LastSeenInterval/2))
	c.loops = append(c.loops, every(admin.LastSeenInterval/2, func(ctx context.Context) {
		if err := adminSvc.FlushLastSeen(ctx); err != nil && ctx.Err() == nil {
			log.Warn("record admin sessions last seen", "err", err)
		}
	}))
	if cl != nil {
		// Held by every serving replica: `gatehouse import -apply` refuses
		// to run beside one, wherever it runs.
		c.loops = append(c.loops, cl.Leader("background", leader...), cl.Serving())
	} else {
		c.loops = append(c.loops, leader...)
	}

	c.transfer = transfer.New(transfer.Options{DB: db, Bus: bus, Now: now, Box: secrets, Admins: adminSvc, Credentials: dnsCredentials(managedSvc),
		Readers: transferReaders(cfg), PanelVersion: Version, GeoIP: geo != nil, Logger: log})
	api.Transfer = transfer.NewHandler(c.transfer)

	if err := api.wired(); err != nil {
		return nil, err
	}
	doc, err := httpapi.Document(Version, api.list())
	if err != nil {
		return nil, fmt.Errorf("API description: %w", err)
	}

	clientIP := httpapi.NewClientIP(cfg.TraefikAddresses, cfg.TraefikHosts, cfg.ClientHops(), log)
	c.loops = append(c.loops, clientIP.Loop(30*time.Second))
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
	})
	c.echo, c.routes = srv.Echo, srv.Routes
	// Forward-auth verify is on the path of every proxied request: it gets a
	// lean front that skips the general API middleware.
	c.handler = accessSvc.FastVerify(c.echo)
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
// off. Traefik's HTTP provider polls PANEL_INTERNAL_URL, else the bound
// address, with providerToken.
// The DNS credentials file of an older install (or of a restored older
// archive) moves into the database here.
func newManaged(ctx context.Context, cfg config.Config, db *gorm.DB, bus *change.Bus, log *slog.Logger, now func() time.Time,
	id *age.X25519Identity, providerToken string, pub notify.Publisher, c *components) (*managed.Service, error) {
	if !cfg.Managed {
		return nil, nil
	}
	var bound atomic.Pointer[string]
	c.onListen = append(c.onListen, func(addr string) { bound.Store(&addr) })
	svc, err := managed.NewService(db, bus, managed.Options{
		DataDir: cfg.DataDir, Identity: id, ACMEEmail: cfg.ACMEEmail,
		Static: managed.StaticOptions{
			ProviderURL: cfg.InternalURL, APIAddress: cfg.ManagedAPIAddress, ACMEDir: cfg.ManagedACMEDir,
			Replicas: cfg.ReplicaURLs, PanelAddress: cfg.ManagedPanelAddress, ConfigDir: cfg.ManagedConfigDir,
			ProviderToken: providerToken,
		},
		BaseURL: func() string {
			addr := "127.0.0.1:8080"
			if a := bound.Load(); a != nil {
				addr = *a
			}
			if host, port, err := net.SplitHostPort(addr); err == nil && net.ParseIP(host).IsUnspecified() {
				addr = net.JoinHostPort("127.0.0.1", port) // a wildcard bind is reachable on loopback
			}
			return "http://" + addr
		},
		Now: now, Logger: log, Notify: pub,
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

func serve(ctx context.Context, cfg config.Config, log *slog.Logger, o Options) error {
	// Held while serving: `gatehouse restore` refuses to run under it.
	lk, err := backup.LockShared(cfg.DataDir)
	if err != nil {
		return err
	}
	defer lk.Release()
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
	for _, l := range c.loops {
		go l(loopCtx)
	}

	addr := ln.Addr().String()
	for _, f := range c.onListen {
		f(addr)
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

// every runs f now and then every d until ctx ends.
func every(d time.Duration, f func(ctx context.Context)) func(ctx context.Context) {
	return func(ctx context.Context) {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			f(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}
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

// panelPublicURL is where browsers reach the panel to sign in to a protected
// service: PANEL_PUBLIC_URL, else https://<admin domain>, else the URL
// Traefik uses for forward-auth (PANEL_INTERNAL_URL or the bound address).
func panelPublicURL(ctx context.Context, cfg config.Config, st *settings.Service, bound *string) (string, error) {
	if cfg.PublicURL != "" {
		return cfg.PublicURL, nil
	}
	g, err := st.Get(ctx)
	if err != nil {
		return "", err
	}
	switch {
	case g.AdminDomain != "":
		return "https://" + g.AdminDomain, nil
	case cfg.InternalURL != "":
		return cfg.InternalURL, nil
	case bound != nil:
		return "http://" + *bound, nil
	}
	return "", nil
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

// traefikPanelURL is the panel's URL as Traefik reaches it:
// PANEL_INTERNAL_URL, else the bound address (a wildcard bind on loopback).
func traefikPanelURL(cfg config.Config, bound *string) string {
	if cfg.InternalURL != "" {
		return strings.TrimSuffix(cfg.InternalURL, "/")
	}
	addr := "127.0.0.1:8080"
	if bound != nil && *bound != "" {
		addr = *bound
	}
	if host, port, err := net.SplitHostPort(addr); err == nil && (host == "" || net.ParseIP(host).IsUnspecified()) {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	return "http://" + addr
}
