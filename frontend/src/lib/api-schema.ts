// Generated from openapi.json (the API description, /api/openapi.json) by
// scripts/gen-api.mjs. Do not edit: change the openapi*.yaml fragments next to the
// Go handlers, then run `npm run gen:api`.

export interface paths {
    "/api/access-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent forward-auth decisions, newest first */
        get: operations["listAccessLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/access/presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Built-in rule presets */
        get: operations["listAccessPresets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/access/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The rules evaluated before every service's own */
        get: operations["getGlobalAccessRules"];
        /** Replace the global rules */
        put: operations["putGlobalAccessRules"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with a username and password
         * @description Sets the gatehouse_admin session cookie, unless the administrator has a second
         *     factor: then the answer names the factors and sets a short-lived pending cookie,
         *     and /api/admin/login/totp, /recovery or /passkey/finish completes the sign-in.
         *     Attempts are limited per username and address.
         */
        post: operations["adminLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/login/passkey/begin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Options for navigator.credentials.get
         * @description With the pending sign-in cookie the passkey is its second factor; without it, a passwordless sign-in with a discoverable credential (user verification required).
         */
        post: operations["beginPasskeyLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/login/passkey/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check the authenticator's assertion and open the session */
        post: operations["finishPasskeyLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/login/recovery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete a pending sign-in with a one-use recovery code */
        post: operations["loginRecoveryCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/login/totp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a pending sign-in with a TOTP code
         * @description Needs the pending sign-in cookie set by /api/admin/login; opens the session.
         */
        post: operations["loginTotp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out (ends this session and clears the cookie) */
        post: operations["adminLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in administrator */
        get: operations["adminMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in administrator's second factors */
        get: operations["getTwoFactorStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/2fa/recovery-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the recovery codes; the new ones are shown once
         * @description Needs a proof of who one is from the last 5 minutes (signing in counts); without one it answers 403 reauthentication_required and POST /api/admin/me/reauthenticate gives one.
         */
        post: operations["regenerateRecoveryCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/2fa/totp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start TOTP enrolment with a new secret
         * @description The secret counts only once a code confirms it. Needs a proof of who one is from the last 5 minutes (signing in counts); without one it answers 403 reauthentication_required and POST /api/admin/me/reauthenticate gives one.
         */
        post: operations["beginTotpEnrolment"];
        /** Turn TOTP off (needs the current password or a code) */
        delete: operations["disableTotp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/2fa/totp/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm TOTP with a code; returns new recovery codes, shown once
         * @description Needs a proof of who one is from the last 5 minutes (signing in counts); without one it answers 403 reauthentication_required and POST /api/admin/me/reauthenticate gives one.
         */
        post: operations["confirmTotpEnrolment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/app-passwords": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the signed-in person's app passwords (never their secrets) */
        get: operations["listMyAppPasswords"];
        put?: never;
        /** Create an app password for a client that can only do basic auth; the secret is shown once */
        post: operations["createMyAppPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/app-passwords/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of the signed-in person's app passwords */
        delete: operations["revokeMyAppPassword"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/passkeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in administrator's passkeys */
        get: operations["listPasskeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/passkeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a passkey
         * @description Needs a proof of who one is from the last 5 minutes (signing in counts); without one it answers 403 reauthentication_required and POST /api/admin/me/reauthenticate gives one.
         */
        delete: operations["deletePasskey"];
        options?: never;
        head?: never;
        /** Rename a passkey */
        patch: operations["renamePasskey"];
        trace?: never;
    };
    "/api/admin/me/passkeys/register/begin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Options for navigator.credentials.create
         * @description Sets a short-lived HttpOnly cookie binding the ceremony to this browser. Needs a proof of who one is from the last 5 minutes (signing in counts); without one it answers 403 reauthentication_required and POST /api/admin/me/reauthenticate gives one.
         */
        post: operations["beginPasskeyRegistration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/passkeys/register/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store the passkey the authenticator created */
        post: operations["finishPasskeyRegistration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change one's own password (ends one's other sessions) */
        put: operations["adminChangePassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/reauthenticate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prove who you are again, with your password or a current code
         * @description For the next 5 minutes this session may add a passkey, set up or confirm TOTP, replace its recovery codes and remove a passkey. A wrong answer counts as a failed sign-in (429 once the sign-in limit is reached).
         */
        post: operations["reauthenticate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/reauthenticate/passkey/begin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Options for navigator.credentials.get with your own passkeys
         * @description Sets a short-lived HttpOnly cookie binding the ceremony to this browser.
         */
        post: operations["beginPasskeyReauthentication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/reauthenticate/passkey/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prove who you are again with one of your passkeys
         * @description A refused passkey counts as a failed sign-in.
         */
        post: operations["finishPasskeyReauthentication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One's own signed-in sessions */
        get: operations["adminListSessions"];
        put?: never;
        post?: never;
        /** End every session of one's own but this one */
        delete: operations["adminEndOtherSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/me/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of one's own sessions (this one signs this browser out) */
        delete: operations["adminEndSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/security": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sign-in policy (admin role only) */
        get: operations["getAdminSecurity"];
        /** Change the sign-in policy (admin role only) */
        put: operations["putAdminSecurity"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * First run, create the first administrator and sign in
         * @description Sets the gatehouse_admin session cookie. Refused once an administrator exists.
         */
        post: operations["adminSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The panel's sign-in settings (admin role) */
        get: operations["getAdminSSO"];
        /**
         * Change the panel's sign-in settings (admin role)
         * @description localPasswords can only be false while enabled is true, the OpenID provider is configured and at least one rule gives the admin role (422 on localPasswords otherwise).
         */
        put: operations["putAdminSSO"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/sso/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's redirect back; opens an admin session
         * @description Public. Checks state (cookie and pending sign-in), redeems the code with the PKCE verifier, verifies the ID token and nonce, picks the role from the rules, finds (issuer and subject), links or creates the administrator, sets the admin session cookie and redirects to /. Every refusal redirects to /login?error=<code> with one of sso_unavailable, sso_expired, sso_refused, sso_failed, sso_not_allowed, sso_disabled, sso_rate_limited.
         */
        get: operations["finishAdminSSO"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/sso/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start an administrator's sign-in at the OpenID provider
         * @description Public. Redirects the browser to the provider with state, nonce and a PKCE challenge, and sets a short-lived state cookie. When sign-in is not possible it redirects to /login?error=<code> instead.
         */
        get: operations["startAdminSSO"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the administrators' API tokens */
        get: operations["listAdminTokens"];
        put?: never;
        /**
         * Create an API token; its value is shown once
         * @description Only a signed-in administrator with the admin role creates tokens; a token cannot. The token's role cannot exceed its creator's.
         */
        post: operations["createAdminToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API token; it stays listed */
        delete: operations["revokeAdminToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the alert episodes (firing, then resolved), newest first */
        get: operations["listAlertEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the alert rules, with whether each is firing */
        get: operations["listAlertRules"];
        put?: never;
        /** Add an alert rule */
        post: operations["createAlertRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** Read an alert rule */
        get: operations["getAlertRule"];
        /** Replace an alert rule; a firing episode resolves at the next evaluation if the rule no longer holds */
        put: operations["updateAlertRule"];
        post?: never;
        /** Delete an alert rule; a firing episode is resolved and its channels told */
        delete: operations["deleteAlertRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit log entries, newest first, or export them as CSV
         * @description Every change made through the API, the command line or an import, and every sign-in and failed sign-in. Secret values never appear: keys that name secrets show "[redacted]". With format=csv the same filters give a CSV download (at most 100000 entries; cells that would start a spreadsheet formula are prefixed with a quote).
         */
        get: operations["listAuditEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the audit log's retention */
        get: operations["getAuditSettings"];
        /** Set how long audit log entries are kept */
        put: operations["putAuditSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/email-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * E-mail code sign-in, the page asking for an address
         * @description Verify sends a browser without a session here when the service has the
         *     email_code protection. The page is HTML for people.
         */
        get: operations["emailCodeStart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/email-code/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail code sign-in, mail a code to an address the service allows
         * @description The answer is the same page with the same status whether or not the
         *     address may use the service; the code is made and mailed afterwards,
         *     through the e-mail channel the notification settings choose. Limited
         *     per address of the service and per client address (429).
         */
        post: operations["emailCodeSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/email-code/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail code sign-in, check the code
         * @description A right code (single use, 10 minutes, 5 tries) answers 303 back to the
         *     service with a one-time exchange token, which opens the session on the
         *     service's own host. Wrong codes are limited per address of the service
         *     and per client address (429).
         */
        post: operations["emailCodeVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sso/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** End-user single sign-on, the provider's redirect back */
        get: operations["ssoCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sso/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** End-user single sign-on, go to the OpenID provider */
        get: operations["ssoStart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Traefik forwardAuth, decide whether a proxied request may pass
         * @description Answered in front of the API (access.Service.FastVerify), without the
         *     API's middleware. Traefik sends X-Forwarded-Method, -Proto, -Host and
         *     -Uri. A 2xx lets the request through (with identity headers); anything
         *     else is answered to the client as is: a redirect to sign in, or a
         *     refusal as an HTML page (browsers) or the error envelope.
         *
         *     A shared link (gh_link in X-Forwarded-Uri) is used only by a POST
         *     (X-Forwarded-Method) whose Origin is the link's own origin (or, with
         *     no Origin, Sec-Fetch-Site same-origin): 303 with the session cookie.
         *     Any other method answers 401 with a page whose one button makes that
         *     POST, and uses nothing, so link-preview robots cannot use up a link.
         *
         *     A link with a PIN or password answers 401 with a page whose form is a
         *     GET to the link's own address adding gh_pin (the answer); the link is
         *     used only by that GET, with the right answer, from the same origin
         *     (Sec-Fetch-Site same-origin, or a Referer of the same origin): 302
         *     with the session cookie. A wrong answer never uses the link; after 5
         *     wrong answers for one link in 15 minutes, or 20 from one address, 429
         *     with Retry-After; after 10 in all the link is locked (403).
         */
        get: operations["verifyForwardAuth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Traefik forwardAuth, decide whether a proxied request may pass
         * @description Answered in front of the API (access.Service.FastVerify), without the
         *     API's middleware. Traefik sends X-Forwarded-Method, -Proto, -Host and
         *     -Uri. A 2xx lets the request through (with identity headers); anything
         *     else is answered to the client as is: a redirect to sign in, or a
         *     refusal as an HTML page (browsers) or the error envelope.
         *
         *     A shared link (gh_link in X-Forwarded-Uri) is used only by a POST
         *     (X-Forwarded-Method) whose Origin is the link's own origin (or, with
         *     no Origin, Sec-Fetch-Site same-origin): 303 with the session cookie.
         *     Any other method answers 401 with a page whose one button makes that
         *     POST, and uses nothing, so link-preview robots cannot use up a link.
         *
         *     A link with a PIN or password answers 401 with a page whose form is a
         *     GET to the link's own address adding gh_pin (the answer); the link is
         *     used only by that GET, with the right answer, from the same origin
         *     (Sec-Fetch-Site same-origin, or a Referer of the same origin): 302
         *     with the session cookie. A wrong answer never uses the link; after 5
         *     wrong answers for one link in 15 minutes, or 20 from one address, 429
         *     with Retry-After; after 10 in all the link is locked (403).
         */
        head: operations["verifyForwardAuthHead"];
        patch?: never;
        trace?: never;
    };
    "/api/backups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The backups, the schedule and its last failure */
        get: operations["listBackups"];
        put?: never;
        /** Take a backup now (a manual one, never pruned) */
        post: operations["createBackup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backups/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a backup */
        delete: operations["deleteBackup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backups/{name}/download": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        /** Download a backup archive (it holds the panel's age identity; administrators only) */
        get: operations["downloadBackup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/backups/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the backup schedule */
        put: operations["putBackupSchedule"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cluster": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The replicas sharing the database, and the one that leads
         * @description On PostgreSQL, the evidence comes from the database server itself: every replica holds dedicated connections named after it (application_name "gatehouse <role> <replica id>"), so pg_stat_activity lists the replicas that are up, with the address the server sees and when their oldest live connection began, and pg_locks shows which one holds the advisory lock of the background jobs (leader). A replica that lost its LISTEN connection does not hear the others' changes (listening false) until it reconnects. On SQLite the panel runs alone: one replica, this one, leading.
         */
        get: operations["getCluster"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The global configuration */
        get: operations["getSettings"];
        /** Replace the global configuration */
        put: operations["putSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sign-in portal's host, look and session policy */
        get: operations["getPortalSettings"];
        /** Replace the sign-in portal's settings */
        put: operations["putPortalSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/containers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The running containers of the engine at PANEL_DOCKER_HOST
         * @description What the panel read of the engine (the list of containers and, where the list leaves them out, their exposed ports): never the engine itself. Each container says where Traefik would reach it and why, the services bound to it, and the gatehouse.* labels refused. state is not_configured without PANEL_DOCKER_HOST and unreachable when the engine did not answer.
         */
        get: operations["listContainers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/containers/bindings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The services bound to containers, and their containers' state */
        get: operations["listContainerBindings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/containers/bindings/{serviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                serviceId: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Detach a service from its container
         * @description The service stays, as an ordinary one: its target no longer follows the container, and a service its labels declared may be edited.
         */
        delete: operations["detachContainerBinding"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/containers/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a service from a running container, bound to it
         * @description The target is the container's address on network (or, without one, a network Traefik shares with it, else its published port) and follows the container when it is recreated. service.targets is ignored.
         */
        post: operations["createServiceFromContainer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credential-sets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every basic-auth credential set (never the passwords) */
        get: operations["listCredentialSets"];
        put?: never;
        /** Create a basic-auth credential set */
        post: operations["createCredentialSet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credential-sets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** One credential set */
        get: operations["getCredentialSet"];
        /** Replace a credential set (an empty password keeps that user's) */
        put: operations["updateCredentialSet"];
        post?: never;
        /** Delete a credential set (refused while a service uses it) */
        delete: operations["deleteCredentialSet"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every base domain */
        get: operations["listDomains"];
        put?: never;
        /** Create a base domain */
        post: operations["createDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/domains/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** One base domain */
        get: operations["getDomain"];
        /** Replace a base domain */
        put: operations["updateDomain"];
        post?: never;
        /** Delete a base domain (refused while services use it) */
        delete: operations["deleteDomain"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the configuration (no secrets)
         * @description The whole configuration as one versioned document (format "gatehouse-export", version 1, described by internal/transfer/document/schema.json). No secrets: the SSO client secret, DNS credential values, notification secrets, machine-token hashes and administrators' password hashes are left out (names and metadata are kept). Administrators only; viewers get 403.
         */
        get: operations["exportConfiguration"];
        put?: never;
        /** Export the configuration with its secrets sealed to a passphrase */
        post: operations["exportConfigurationSealed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the groups with their members */
        get: operations["listGroups"];
        put?: never;
        /** Add a group */
        post: operations["createGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** Show one group with its members */
        get: operations["getGroup"];
        put?: never;
        post?: never;
        /** Remove a group (its members stay) */
        delete: operations["deleteGroup"];
        options?: never;
        head?: never;
        /** Rename a group or change its description */
        patch: operations["updateGroup"];
        trace?: never;
    };
    "/api/groups/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Put a person in a group */
        post: operations["addGroupMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/{id}/members/{personId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                personId: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Take a person out of a group */
        delete: operations["removeGroupMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and database reachability */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Plan (and apply) an import
         * @description The body is the raw file: a Gatehouse export, or another tool's configuration a reader understands. Without apply=true nothing changes: the answer is the plan. With apply=true the plan is made again inside one transaction and every item not refused is written; any error changes nothing. With digest, a fresh plan that differs from the reviewed one is a 409. An API token's import that would change who may sign in (people, groups and their passwords, config.adminSso, config.requireTwoFactor, config.sso, config.portal) is a 403 naming each section, dry run or not. Alert rules are checked as POST /api/alerts/rules checks them: a bad rule, a name listed twice or a service neither in the file nor in the panel is a 422 naming alertRules[i].field, and more rules than the panel keeps a 409.
         */
        post: operations["importConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List invitations, newest first, with their state */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite a person by link or by e-mail
         * @description The person is created disabled; accepting the invitation enables them. The link is shown once.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation (the person it created is removed) */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invitation with a password, a passkey, or both */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/passkey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start registering a passkey on an invitation */
        post: operations["beginInvitationPasskey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What an invitation link is for */
        post: operations["previewInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/machine-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every machine token (never their values) */
        get: operations["listMachineTokens"];
        put?: never;
        /** Create a machine token (the answer is the only time its value is shown) */
        post: operations["createMachineToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/machine-tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** One machine token */
        get: operations["getMachineToken"];
        put?: never;
        post?: never;
        /** Delete a machine token */
        delete: operations["deleteMachineToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/machine-tokens/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a machine token (it stops working at once and stays listed) */
        post: operations["revokeMachineToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List notification channels (secrets only by name) */
        get: operations["listNotificationChannels"];
        put?: never;
        /** Add a notification channel */
        post: operations["createNotificationChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** Read a notification channel (secrets only by name) */
        get: operations["getNotificationChannel"];
        /** Replace a notification channel; empty secrets keep the stored ones */
        put: operations["updateNotificationChannel"];
        post?: never;
        /** Delete a notification channel */
        delete: operations["deleteNotificationChannel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test message now and answer the outcome */
        post: operations["testNotificationChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the notification settings */
        get: operations["getNotificationSettings"];
        /** Set the certificate warning threshold, the debounce window and the channel that mails people */
        put: operations["putNotificationSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oidc/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every OpenID Connect client (never a secret or its hash), and where apps find the provider */
        get: operations["listOidcClients"];
        put?: never;
        /** Create an OpenID Connect client (a confidential client's secret is shown in this answer only) */
        post: operations["createOidcClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oidc/clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id. */
                id: string;
            };
            cookie?: never;
        };
        /** One OpenID Connect client */
        get: operations["getOidcClient"];
        /** Replace an OpenID Connect client's settings (its id and secret stay) */
        put: operations["updateOidcClient"];
        post?: never;
        /** Delete an OpenID Connect client */
        delete: operations["deleteOidcClient"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oidc/clients/{id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give a confidential client a new secret, shown in this answer only (the old one stops working) */
        post: operations["rotateOidcClientSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oidc/presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Built-in client presets for known apps, from each app's own documentation */
        get: operations["listOidcPresets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenAPI"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether "forgot password" is offered (only when mail can be sent) */
        get: operations["passwordResetAvailable"];
        put?: never;
        /** Choose a new password with a reset link (ends every session) */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/password-reset/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Whether a reset link still works */
        post: operations["checkPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/password-reset/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a reset link by username or e-mail
         * @description The answer is the same whether or not the account exists; the mail leaves later.
         */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List people, searched and paged */
        get: operations["listPeople"];
        put?: never;
        /** Add a person */
        post: operations["createPerson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** Show one person */
        get: operations["getPerson"];
        put?: never;
        post?: never;
        /**
         * Remove a person with their sessions, factors, API tokens and memberships
         * @description The last enabled person with the admin role, and oneself, cannot be removed (409, field "id").
         */
        delete: operations["deletePerson"];
        options?: never;
        head?: never;
        /**
         * Change a person, their panel role, groups, or enable or disable them
         * @description Disabling a person ends their sessions on the panel and on every service; setting their panel role to none ends their panel sessions. The last enabled person with the admin role cannot be demoted or disabled, and nobody can disable themselves or take away their own panel role (409, naming the field).
         */
        patch: operations["updatePerson"];
        trace?: never;
    };
    "/api/people/{id}/app-passwords": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** List a person's app passwords (never their secrets) */
        get: operations["listPersonAppPasswords"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people/{id}/app-passwords/{passwordId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                passwordId: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of a person's app passwords */
        delete: operations["revokePersonAppPassword"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people/{id}/linked-identity": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a person's link to the OpenID provider
         * @description Their next sign-in with the provider links them again only by a verified e-mail address (or makes a new person when the portal allows it). Sessions stay.
         */
        delete: operations["unlinkPerson"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people/{id}/password": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        /** Set a person's password and end their sessions */
        put: operations["setPersonPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people/{id}/second-factor": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a person's TOTP, passkeys and recovery codes, and end their sessions */
        delete: operations["resetPersonSecondFactor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people/{id}/service-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /**
         * List a person's single sign-on sessions on the proxied services
         * @description The forward-auth sessions of the OpenID provider's identity the person is linked to (their single sign-on issuer and subject); empty for a person who never signed in with it.
         */
        get: operations["listPersonServiceSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people/{id}/service-sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                sessionId: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of a person's sessions on a service */
        delete: operations["endPersonServiceSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people/{id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** List a person's live sessions */
        get: operations["listPersonSessions"];
        put?: never;
        post?: never;
        /** End every session of a person, on the panel and on every service */
        delete: operations["endPersonSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/people/{id}/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                sessionId: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one session of a person */
        delete: operations["endPersonSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether this host is the sign-in portal, and its look */
        get: operations["getPortal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal/continue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The portal's hop to a service protected by people
         * @description Served on the sign-in portal's host. Verify sends a browser without a
         *     session here. A person signed in on the portal (with a second factor
         *     and recently enough when the service asks) goes back to rd with a
         *     one-time exchange token; anyone else goes to the portal's sign-in page
         *     (`/login?rd=<this URL>`, with `stepup=1` when a second factor is missing or
         *     `reauth=1` when the sign-in is too old). HTML for people.
         */
        get: operations["portalContinue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal/oidc/device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A device's sign-in, by the code shown on it */
        get: operations["portalOIDCDevice"];
        put?: never;
        /** Allow or refuse a device's sign-in */
        post: operations["portalOIDCDeviceAnswer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal/oidc/requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An app's pending sign-in, for its consent or refusal page
         * @description Served on the sign-in portal's host for the person signed in there:
         *     the app (OpenID Connect client) asking, the scopes it asks for, and
         *     whether the person is refused (not in a group the app admits).
         */
        get: operations["portalOIDCRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal/oidc/requests/{id}/consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Allow or refuse an app
         * @description Served on the sign-in portal's host. Approving remembers the consent
         *     for this person, app and scopes and sends the browser on with the
         *     sign-in; refusing sends it back to the app with access_denied.
         */
        post: operations["portalOIDCConsent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The portal's launcher, the services the signed-in person may open
         * @description Served on the sign-in portal's host for the person signed in there:
         *     the enabled services whose people protection admits them and that are
         *     not hidden from the launcher, by group, order and name.
         */
        get: operations["portalServices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in person's sessions on the services
         * @description Served on the sign-in portal's host for the person signed in there:
         *     their live sessions on the services, each with the portal session it
         *     was opened from (it ends when that one does), newest first.
         */
        get: operations["portalServiceSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Sign out of one service
         * @description Served on the sign-in portal's host: ends one of the signed-in
         *     person's sessions on a service, on every replica. Another person's
         *     session is not found.
         */
        delete: operations["endPortalServiceSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal/sso/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's redirect back to the portal; opens a portal session
         * @description Public; portal host only. Checks state (cookie, used once), redeems the code with the PKCE verifier, verifies the ID token and nonce, then finds the person linked to the issuer and subject, else the unlinked person with the provider's verified e-mail address, else makes one when the portal's createPeople is on. Groups named by the provider's groups claim that exist in the directory are given, those it gave before and no longer names are taken back. The portal session counts a second factor only when the ID token's amr holds mfa (or its acr is a multi-factor one). Redirects to /login?rd=<rd> (the page moves on by itself) or, refused, to /login?error=<code> with one of sso_unavailable, sso_expired, sso_refused, sso_failed, sso_not_allowed, sso_disabled, sso_rate_limited.
         */
        get: operations["finishPortalSSO"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/portal/sso/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start a person's sign-in on the portal at the OpenID provider ("Sign in with …")
         * @description Public; answers on the portal's host only (404 elsewhere). Redirects the browser to the provider with state, nonce and a PKCE challenge; the redirect URL is the portal's address + /api/portal/sso/callback. rd (kept only when it is an address on the portal itself) is where the sign-in page goes afterwards; remember=1 asks for a remembered portal session. When sign-in is not possible it redirects to /login?error=<code> instead.
         */
        get: operations["startPortalSSO"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/cert-resolvers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The certificate resolvers Traefik's configuration names
         * @description Answers 200 with configured/reachable/error when Traefik's API is not configured or does not answer.
         */
        get: operations["listProxyCertResolvers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/cert-trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The blank page the certificate-trigger routers answer with */
        get: operations["certTrigger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/certificates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The certificates Traefik serves
         * @description Answers 200 with configured/reachable/error when Traefik's API is not configured or does not answer.
         */
        get: operations["listProxyCertificates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Traefik's dynamic configuration (the HTTP provider polls it)
         * @description Public: Traefik polls it. Refused on the public admin domain in managed
         *     mode. Once a provider token is set (PANEL_PROVIDER_TOKEN, or the one
         *     managed mode derives), only a request with `Authorization: Bearer
         *     <token>` gets it; every other answers 401. Answers 503 when it cannot
         *     be built, so Traefik keeps its last good configuration.
         */
        get: operations["getDynamicConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/config/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What one service contributes to the dynamic configuration */
        get: operations["previewServiceConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/conflicts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Routers of other providers that collide with the panel's services
         * @description Answers 200 with configured/reachable/error when Traefik's API is not configured or does not answer.
         */
        get: operations["listProxyConflicts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/entrypoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Traefik's entrypoints
         * @description Answers 200 with configured/reachable/error when Traefik's API is not configured or does not answer.
         */
        get: operations["listProxyEntrypoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each service's servers, as Traefik sees them (and optionally probed)
         * @description Answers 200 with configured/reachable/error when Traefik's API is not configured or does not answer.
         */
        get: operations["getProxyHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/maintenance/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** The maintenance page of a service in maintenance (public; Traefik's maintenance routers rewrite to it) */
        get: operations["getMaintenancePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/managed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The managed static configuration, the stored credentials' names and whether Traefik applied it
         * @description 404 when managed mode is off.
         */
        get: operations["getManaged"];
        /** Replace the managed static configuration */
        put: operations["putManaged"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/managed/dns-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The DNS providers the managed resolvers can use, with the variables each needs */
        get: operations["listManagedDNSProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/managed/replicas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Traefik's load balancer over the panel's replicas (file provider), for the managed-mode wrapper
         * @description Public, internal network only, with the wrapper token (PANEL_WRAPPER_TOKEN) as a bearer token. Without PANEL_REPLICA_URLS the file holds only its header.
         */
        get: operations["getManagedReplicas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/managed/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set or remove DNS-provider credentials (values are write-only) */
        put: operations["putManagedSecrets"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/managed/secrets-env": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The DNS-provider credentials as an environment file, for the managed-mode wrapper
         * @description Public, internal network only, with the wrapper token (PANEL_WRAPPER_TOKEN) as a bearer token.
         */
        get: operations["getManagedSecretsEnv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/managed/wrapper-report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The wrapper reports which configuration and secrets Traefik runs with
         * @description Public, internal network only, with the wrapper token as a bearer token.
         */
        post: operations["reportManagedApplied"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each enabled service's traffic over the scrape window
         * @description Answers 200 with configured/reachable/error when Traefik's API is not configured or does not answer.
         */
        get: operations["getProxyMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/middlewares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Traefik's HTTP middlewares from every provider
         * @description Answers 200 with configured/reachable/error when Traefik's API is not configured or does not answer.
         */
        get: operations["listProxyMiddlewares"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/runtime": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A live snapshot of everything Traefik runs
         * @description Answers 200 with configured/reachable/error when Traefik's API is not configured or does not answer.
         */
        get: operations["getProxyRuntime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/static-config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Traefik's static configuration, for the managed-mode wrapper
         * @description Public, internal network only (refused through the proxy or on the public admin domain).
         *     Once it carries the provider token Traefik's HTTP provider sends (always with a wrapper
         *     token configured), it also needs the wrapper token as a bearer token, like the wrapper's
         *     other endpoints.
         */
        get: operations["getManagedStaticConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Evidence of what Traefik fetched and runs
         * @description Traefik's recent polls of /api/proxy/config (when, from which address, which ETag, 200 or 304), whether it runs the current configuration or how many versions it is behind, whether polls stopped (no poll for three measured intervals), and each enabled service's badge: live (Traefik's runtime API shows its routers enabled), waiting (changed after the configuration Traefik last fetched), error (Traefik reports an error for its routers, services or middlewares), unknown (fetched, but Traefik's API is not configured or not reachable).
         */
        get: operations["getProxyStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/proxy/status/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Test the connection to Traefik now
         * @description Whether Traefik fetched the configuration recently (from the panel's record of its polls), and whether Traefik's API and metrics endpoint answer now (asked once each, uncached). Each item says what was found and what to do, with the technical cause apart.
         */
        get: operations["checkProxyConnection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/registration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether visitors may create an account */
        get: operations["registrationAvailable"];
        put?: never;
        /**
         * Ask for a link to create an account
         * @description The answer is the same whether the username and address are free, taken or outside the listed domains; the link is mailed later, only when the address is in a listed domain and both are free. The link is opened at /register/{token} and used through /api/invitations/preview, /passkey and /accept.
         */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/registration/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Self-registration settings */
        get: operations["getRegistrationSettings"];
        /** Change the self-registration settings (a signed-in administrator only) */
        put: operations["putRegistrationSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every service */
        get: operations["listServices"];
        put?: never;
        /** Create a service */
        post: operations["createService"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** One service */
        get: operations["getService"];
        /** Replace a service */
        put: operations["updateService"];
        post?: never;
        /** Delete a service */
        delete: operations["deleteService"];
        options?: never;
        head?: never;
        /** Switch a service on or off */
        patch: operations["patchService"];
        trace?: never;
    };
    "/api/services/{id}/access": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        /** A service's access rules and default action */
        get: operations["getServiceAccess"];
        /**
         * Replace a service's access rules
         * @description Rules (with the global rules and the default action) that let everyone open a service with a protection without signing in are refused with 422 on the field confirmPublic unless the body has confirmPublic true. Rules that open only some requests, and rules of unprotected services, need no confirmation.
         */
        put: operations["putServiceAccess"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}/access-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent forward-auth decisions for one service, newest first */
        get: operations["listServiceAccessLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}/access/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Say what the rules decide for a described request (saved rules or a draft) */
        post: operations["testServiceAccess"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}/protection": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        /** Every protection of a service, as one document */
        get: operations["getServiceProtection"];
        /**
         * Save every protection of a service in one transaction
         * @description A section left out (or null) is left as it is; a section equal to what
         *     is stored is not written. Any error saves nothing, and field errors are
         *     named by their path in the document (basicAuth.credentialSetId,
         *     sso.users[1], tokens.header). Changing a protection ends the service's
         *     sessions, except editing the lists of a live single sign-on.
         */
        put: operations["putServiceProtection"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}/security-configs": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        /** A service's protections */
        get: operations["listSecurityConfigs"];
        put?: never;
        /** Set one of a service's protections (one per type) */
        post: operations["upsertSecurityConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}/security-configs/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one of a service's protections */
        delete: operations["deleteSecurityConfig"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}/shared-links": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        /** A service's shared links (never their URLs) */
        get: operations["listSharedLinks"];
        put?: never;
        /** Create a one-time shared link (the answer is the only time its URL is shown) */
        post: operations["createSharedLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}/shared-links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a shared link (and end the sessions it opened) */
        delete: operations["revokeSharedLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}/traffic": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Traffic over time of one service
         * @description An id that is no service (enabled or not) is a 404 (not_found), not an empty history.
         */
        get: operations["getServiceTraffic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live end-user sessions, newest first */
        get: operations["listAccessSessions"];
        put?: never;
        post?: never;
        /** End every end-user session */
        delete: operations["deleteAccessSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one end-user session */
        delete: operations["deleteAccessSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** End-user single sign-on settings (the client secret is never returned) */
        get: operations["getSSOSettings"];
        /** Replace the single sign-on settings (an empty clientSecret keeps the stored one) */
        put: operations["putSSOSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/system": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Version, mode and whether first-run setup is still to do */
        get: operations["getSystem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/system/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How this panel runs
         * @description The version, when this replica started, the data directory, the database engine and its size, and the addresses in effect: where browsers reach the panel, where Traefik reaches it (set through PANEL_INTERNAL_URL or derived from the listen address), the address forward-auth middlewares call, and the visitors' portal ("" until one is configured).
         */
        get: operations["getPanelSystemInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/traffic": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Traffic over time, every service together
         * @description Requests by status class, latency percentiles, bytes, forward-auth decisions and backend health per step. From the panel's database (one-minute rows for 48 hours, hourly ones for 90 days by default) or, with PANEL_PROMETHEUS_URL, Traefik's figures from Prometheus (source "prometheus"; the decisions still come from the panel). The step grows with the range: 60 s for 1 h, 300 s for 24 h, 3600 s for 7 d, 7200 s for 30 d, and at least 3600 s where the minute rows no longer reach.
         */
        get: operations["getTraffic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/traffic/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every enabled service's requests and 5xx over a range, with a sparkline, busiest first */
        get: operations["listServicesTraffic"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @enum {string} */
        AccessAction: "allow" | "deny" | "authenticate";
        /**
         * @description Who can open the service without signing in, as its protections, the global rules, its own rules and its default action decide. everyone: a rule (or the default) allows every request; some: allow rules with conditions let some requests through; none: every request needs a sign-in or is refused.
         * @enum {string}
         */
        AccessExposure: "everyone" | "some" | "none";
        AccessLogEntry: {
            /** @description What the decision rested on, in words (e.g. "global rule 2" or "basic auth"). */
            by: string;
            clientAddress: string;
            /** @enum {string} */
            decision: "allowed" | "authenticated" | "denied" | "unauthenticated" | "forbidden" | "rate_limited";
            host: string;
            identity: string;
            method: string;
            /** @description Without the query string. */
            path: string;
            /**
             * @description For a request refused for want of a sign-in: missing_credentials when it sent none the service takes, wrong_password for basic auth or an app password that did not match, invalid_token for an unknown, expired or revoked machine token; empty otherwise.
             * @enum {string}
             */
            reason: "" | "missing_credentials" | "wrong_password" | "invalid_token";
            /** Format: int64 */
            seq: number;
            serviceId: string;
            serviceName: string;
            /** Format: date-time */
            time: string;
        };
        AccessLogPage: {
            /** @description How many entries are kept per service. */
            capacity: number;
            items: components["schemas"]["AccessLogEntry"][];
        };
        AccessPreset: {
            description: string;
            docs?: string[];
            id: string;
            name: string;
            rules: components["schemas"]["AccessRule"][];
        };
        AccessPresetList: {
            items: components["schemas"]["AccessPreset"][];
        };
        AccessRule: {
            action: components["schemas"]["AccessAction"];
            /** @description ISO 3166 country codes (needs a GeoIP database). */
            countries?: string[];
            /** @description Group names of the directory; the person must be in one of them. */
            groups?: string[];
            headers?: {
                /**
                 * @description Absent means present.
                 * @enum {string}
                 */
                match?: "present" | "equals" | "contains";
                name: string;
                value?: string;
            }[];
            methods?: string[];
            note?: string;
            paths?: {
                /** @enum {string} */
                type: "exact" | "prefix" | "glob" | "regex";
                value: string;
            }[];
            /** @description Usernames of the directory; the request must come from one of them. A request without a person (anonymous, basic auth, machine token, shared link) is asked to sign in as a person when the rule's other conditions match. */
            people?: string[];
            /** @description The person must have signed in with a second factor or a passkey. */
            secondFactor?: boolean;
            /** @description CIDRs, addresses, or the names private and loopback. */
            sources?: string[];
        };
        AccessSession: {
            /** Format: date-time */
            createdAt: string;
            email: string;
            /** Format: date-time */
            expiresAt: string;
            groups: string[] | null;
            id: string;
            /** @enum {string} */
            kind: "sso" | "shared_link" | "email_code" | "people";
            /** Format: date-time */
            lastSeenAt: string;
            name: string;
            serviceId: string;
            serviceName: string;
            sharedLinkId: string | null;
            user: string;
        };
        AccessTestRequest: {
            clientAddress?: string;
            draft?: components["schemas"]["ServiceAccessInput"] | null;
            headers?: {
                [key: string]: string;
            } | null;
            method?: string;
            /** @description Username of the person the request comes from (their groups are read from the directory); empty for a request without a person. */
            person?: string;
            /** @description The person signed in with a second factor or a passkey. */
            secondFactor?: boolean;
            url?: string;
        };
        AccessTestResult: {
            ambiguous: boolean;
            country: string;
            decision: components["schemas"]["AccessAction"];
            /** @description The deciding rule's index, -1 for the default. */
            index: number;
            /** @description The deciding rule names people or groups and the request has no person, so it must sign in as a person. */
            needsIdentity: boolean;
            path: string;
            /** @description The person the request was tested as, with their groups from the directory. */
            person?: {
                groups: string[];
                secondFactor: boolean;
                username: string;
            };
            protections: string[];
            reason: string;
            /** @enum {string} */
            scope: "global" | "service" | "default";
            steps: {
                action: components["schemas"]["AccessAction"];
                index: number;
                matched: boolean;
                note?: string;
                reason: string;
                /** @enum {string} */
                scope: "global" | "service";
            }[];
            warnings: string[];
        };
        AdminCredentials: {
            password: string;
            username: string;
        };
        AdminPasswordChange: {
            currentPassword: string;
            newPassword: string;
        };
        AdminSecurity: {
            /** @description Every administrator must enrol a second factor before using the panel */
            requireTwoFactor: boolean;
        };
        AdminSession: {
            address: string;
            /** Format: date-time */
            createdAt: string;
            /** @description The session of the request that asks. */
            current: boolean;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            /** Format: date-time */
            lastSeenAt: string;
            /** @description A session on the sign-in portal rather than on the panel. */
            portal: boolean;
            userAgent: string;
        };
        AdminSessionList: {
            items: components["schemas"]["AdminSession"][];
        };
        /** @description Whoever has claim = value gets role. Rules are tried in order; the first match wins. */
        AdminSSORule: {
            /** @enum {string} */
            claim: "email" | "username" | "group";
            /** @enum {string} */
            role: "admin" | "viewer";
            value: string;
        };
        AdminSSOSettings: {
            createAdmins: boolean;
            enabled: boolean;
            localPasswords: boolean;
            /** @description The OpenID provider (single sign-on settings) is set up and switched on. */
            providerConfigured: boolean;
            /** @description Register this at the provider; empty while the panel's public URL is unknown. */
            redirectUrl: string;
            rules: components["schemas"]["AdminSSORule"][];
        };
        AdminSSOSettingsRequest: {
            /** @description Create an administrator on first sign-in when none matches. */
            createAdmins: boolean;
            enabled: boolean;
            /** @description Password sign-in is allowed. */
            localPasswords: boolean;
            rules: components["schemas"]["AdminSSORule"][];
        };
        AdminToken: {
            /** Format: date-time */
            createdAt: string;
            /** @description The creator's username. */
            createdBy: string;
            /** Format: date-time */
            expiresAt: string | null;
            id: string;
            lastUsedAddress: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            name: string;
            /** @description The value's first characters, "gha_" and six more. */
            prefix: string;
            /** Format: date-time */
            revokedAt: string | null;
            /** @enum {string} */
            role: "admin" | "viewer";
            /** @enum {string} */
            status: "active" | "expired" | "revoked";
        };
        AdminTokenCreate: {
            /** Format: date-time */
            expiresAt?: string | null;
            name: string;
            /** @enum {string} */
            role: "admin" | "viewer";
        };
        AdminTokenCreated: {
            token: components["schemas"]["AdminToken"];
            /** @description The bearer value, "gha_..."; send it as Authorization: Bearer. */
            value: string;
        };
        AdminUser: {
            id: string;
            /**
             * @description The panel role; none only on the sign-in portal, where a person without a panel role signs in
             * @enum {string}
             */
            role: "admin" | "viewer" | "none";
            username: string;
        };
        AdminUserResponse: {
            user: components["schemas"]["AdminUser"];
        };
        AlertEvent: {
            /** Format: date-time */
            firedAt: string;
            forMinutes: number;
            id: string;
            kind: components["schemas"]["AlertKind"];
            /** @enum {string} */
            resolution: "" | "recovered" | "rule_disabled" | "rule_removed";
            /** Format: date-time */
            resolvedAt: string | null;
            /** @description The figure of the minute that recovered. */
            resolvedValue: number | null;
            ruleId: string;
            /** @description The rule's name when it fired. */
            ruleName: string;
            serviceId: string | null;
            serviceName: string;
            state: components["schemas"]["AlertState"];
            threshold: number;
            /** @description The figure over the rule's minutes when it fired (percent for error_ratio and backend_down, milliseconds for latency_p95). */
            value: number | null;
        };
        /**
         * @description error_ratio: 5xx answers above threshold percent of the requests; latency_p95: the latency's 95th percentile above threshold milliseconds; no_traffic: no requests after traffic in the hour before; backend_down: a backend failing its health checks. Each for forMinutes.
         * @enum {string}
         */
        AlertKind: "error_ratio" | "latency_p95" | "no_traffic" | "backend_down";
        AlertRule: {
            /** Format: date-time */
            createdAt: string;
            enabled: boolean;
            /** @description An episode of this rule is open. */
            firing: boolean;
            forMinutes: number;
            id: string;
            kind: components["schemas"]["AlertKind"];
            name: string;
            serviceId: string | null;
            /** @description The service's name; empty for every service together. */
            serviceName: string;
            threshold: number;
            /** Format: date-time */
            updatedAt: string;
        };
        AlertRuleRequest: {
            /** @default true */
            enabled: boolean;
            forMinutes: number;
            kind: components["schemas"]["AlertKind"];
            name: string;
            /** @description The service watched; null or empty for every service together. */
            serviceId?: null | string;
            /** @description Percent (error_ratio, above 0 up to 100) or milliseconds (latency_p95, 1 to 600000); ignored by the other kinds. */
            threshold?: number;
        };
        /** @enum {string} */
        AlertState: "firing" | "resolved";
        AppPassword: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            name: string;
        };
        AppPasswordCreated: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            name: string;
            /** @description The password to give the client */
            secret: string;
        };
        AppPasswordList: {
            items: components["schemas"]["AppPassword"][];
        };
        AuditChange: {
            /** @description The value after (null when absent) */
            after: unknown;
            /** @description The value before (null when absent) */
            before: unknown;
            /** @description JSON path of the changed value, e.g. targets[0].port or items[id=x].note */
            path: string;
        };
        AuditEntry: {
            action: string;
            actor: {
                id: string;
                /** @enum {string} */
                kind: "admin" | "token" | "system";
                name: string;
            };
            /** @description The client's address; empty for the panel itself */
            address: string;
            /** Format: date-time */
            at: string;
            changes: components["schemas"]["AuditChange"][];
            id: string;
            /** @description HTTP method; empty outside the API */
            method: string;
            resource: {
                id: string;
                name: string;
                type: string;
            };
            /** @description API route pattern; empty outside the API */
            route: string;
            /** @description Position in the hash chain */
            seq: number;
            /** @description HTTP status; 0 outside the API */
            status: number;
        };
        AuditPage: {
            items: components["schemas"]["AuditEntry"][];
            /** @description Cursor for the next, older page; null on the last page */
            nextBefore: number | null;
            /** @description Entries this process could not record since it started (each is logged) */
            recordFailures: number;
        };
        AuditSettings: {
            /** @description Keep entries this many days; 0 keeps them forever */
            retentionDays: number;
        };
        Backup: {
            /** Format: date-time */
            createdAt: string;
            name: string;
            schemaVersion: number;
            /** Format: int64 */
            size: number;
            /** @enum {string} */
            trigger: "scheduled" | "manual" | "cli";
        };
        BackupSchedule: {
            enabled: boolean;
            intervalHours: number;
            /** @description How many scheduled backups are kept; manual ones are never pruned. */
            keep: number;
        };
        BackupStatus: {
            backups: components["schemas"]["Backup"][];
            /** @description Where backups are written (PANEL_BACKUP_DIR); not settable through the API. */
            directory: string;
            lastError: null | {
                /** Format: date-time */
                at: string;
                message: string;
            };
            /**
             * Format: date-time
             * @description When the next scheduled backup is due; null when the schedule is off.
             */
            next: string | null;
            schedule: components["schemas"]["BackupSchedule"];
        };
        ClusterReplica: {
            /** @description Its address as PostgreSQL sees it; empty over a Unix socket and on SQLite */
            address: string;
            /** @description A random id per process on PostgreSQL; the host name on SQLite */
            id: string;
            /** @description It holds the lock of the jobs that run once for all replicas */
            leader: boolean;
            /** @description It listens for the other replicas' changes (false on SQLite) */
            listening: boolean;
            /**
             * Format: date-time
             * @description When its oldest live connection to the database began (on SQLite
             */
            since: string;
            /** @description It is the replica that answered */
            this: boolean;
        };
        ClusterView: {
            /** @enum {string} */
            engine: "sqlite" | "postgres";
            /** @description The id of the replica that answered */
            replica: string;
            /** @description Oldest first */
            replicas: components["schemas"]["ClusterReplica"][];
        };
        ConfigPoll: {
            /** Format: date-time */
            at: string;
            /** @enum {integer} */
            code: 200 | 304;
            etag: string;
            /** @description The poller's address (the connection's peer) */
            remote: string;
        };
        /** @description Returned in the configuration preview's "warnings": default_certificate (a TLS router without a resolver serves Traefik's default certificate), https_redirect_without_tls, https_redirect_without_plain (TLS entrypoints only and no plain entrypoint named web or http to redirect from), hsts_without_tls. */
        ConfigPreviewWarning: {
            /** @enum {string} */
            code: "default_certificate" | "https_redirect_without_tls" | "https_redirect_without_plain" | "hsts_without_tls";
            message: string;
        };
        Container: {
            /** @description the gatehouse.enable label asks for a service */
            declared: boolean;
            /** @description healthy, unhealthy, starting, or empty without a health check */
            health: string;
            id: string;
            image: string;
            labelErrors: components["schemas"]["ContainerLabelError"][];
            labels: {
                [key: string]: string;
            };
            name: string;
            networks: {
                address: string;
                name: string;
                /** @description Traefik is on this network too (PANEL_DOCKER_NETWORK) */
                traefik: boolean;
            }[];
            ports: {
                hostIp: string;
                private: number;
                protocol: string;
                /** @description 0 when not published */
                public: number;
            }[];
            services: {
                serviceId: string;
                /** @enum {string} */
                source: "panel" | "labels";
            }[];
            state: string;
            suggestion: components["schemas"]["ContainerSuggestion"] | null;
            suggestionError?: string;
        };
        ContainerBinding: {
            address: string;
            container: string;
            labelError: string;
            network: string;
            port: number;
            serviceId: string;
            /** @enum {string} */
            source: "panel" | "labels";
            /** @enum {string} */
            state: "running" | "stopped" | "gone";
            /** Format: date-time */
            updatedAt: string;
        };
        ContainerBindingList: {
            items: components["schemas"]["ContainerBinding"][];
        };
        ContainerLabelError: {
            label: string;
            message: string;
        };
        ContainerList: {
            items: components["schemas"]["Container"][];
            reason: string;
            /** @enum {string} */
            state: "ok" | "not_configured" | "unreachable";
            traefikNetworks: string[];
        };
        ContainerServiceCreated: {
            binding: components["schemas"]["ContainerBinding"];
            placement: components["schemas"]["ContainerSuggestion"];
            service: components["schemas"]["Service"];
        };
        ContainerServiceRequest: {
            container: string;
            network?: string;
            port?: number;
            /** @enum {string} */
            scheme?: "http" | "https" | "h2c";
            service: components["schemas"]["ServiceRequest"];
        };
        ContainerSuggestion: {
            host: string;
            /** @description empty for a published port */
            network: string;
            /** @description the container's port */
            port: number;
            reason: string;
            targetPort: number;
            /** @enum {string} */
            via: "network" | "published" | "unshared_network";
        };
        /** @description A DNS-provider credential, passed to Traefik as an environment variable: a variable name that changes neither the shell's nor Traefik's own behaviour, nor how Traefik and its ACME client connect (proxies, trusted certificate authorities, TLS, DNS resolution, the Go runtime, lego's LEGO_ switches). The panel's form reads these rules from this document (scripts/gen-api.mjs), the server checks the same (managed.CheckName; a test keeps both in step). */
        CredentialName: string;
        CredentialSet: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            name: string;
            /** Format: date-time */
            updatedAt: string;
            users: {
                username: string;
            }[];
        };
        CredentialSetRequest: {
            name: string;
            users?: {
                /** @description Empty keeps the user's stored password (on update). */
                password?: string;
                username: string;
            }[] | null;
        };
        Domain: {
            certConfigs: components["schemas"]["DomainCertConfig"][];
            certResolver: string;
            /** Format: date-time */
            createdAt: string;
            domain: string;
            https: components["schemas"]["DomainHTTPS"];
            id: string;
            isDefault: boolean;
            name: string;
            /** Format: date-time */
            updatedAt: string;
            wildcard: boolean;
        };
        DomainCertConfig: {
            main: string;
            resolver: string;
            sans: string[] | null;
        };
        DomainHTTPS: {
            hsts: components["schemas"]["Hsts"];
            /** @description Redirect plain HTTP to HTTPS. */
            redirect: boolean;
        };
        DomainList: {
            items: components["schemas"]["Domain"][];
        };
        DomainRequest: {
            certConfigs?: components["schemas"]["DomainCertConfig"][] | null;
            certResolver?: string;
            domain?: string;
            https?: components["schemas"]["DomainHTTPS"];
            isDefault?: boolean;
            name?: string;
            wildcard?: boolean;
        };
        ErrorEnvelope: {
            error: {
                /** @enum {string} */
                code: "invalid_request" | "validation_failed" | "unauthenticated" | "forbidden" | "not_found" | "conflict" | "payload_too_large" | "rate_limited" | "two_factor_required" | "reauthentication_required" | "internal";
                /** @description The offending fields by JSON path (e.g. "targets[0].port"). */
                fields?: {
                    field: string;
                    message: string;
                }[];
                message: string;
                requestId?: string;
            };
        };
        /** @description The exchange document; its full description is internal/transfer/document/schema.json. */
        ExportDocument: {
            admins?: Record<string, never>[];
            /** @description The alert rules, by name: name, service (by name; absent for the panel's totals), kind, threshold, forMinutes, enabled, createdAt. Never their episodes or firing state. Always written by an export (empty too). */
            alertRules?: {
                /** Format: date-time */
                createdAt?: string;
                enabled?: boolean;
                forMinutes: number;
                id?: string;
                /** @enum {string} */
                kind: "error_ratio" | "latency_p95" | "no_traffic" | "backend_down";
                name: string;
                service?: string;
                threshold?: number;
            }[];
            config?: Record<string, never>;
            credentialSets: Record<string, never>[];
            domains: Record<string, never>[];
            /** Format: date-time */
            exportedAt: string;
            /** @enum {string} */
            format: "gatehouse-export";
            groups?: Record<string, never>[];
            machineTokens?: Record<string, never>[];
            notifyChannels?: Record<string, never>[];
            oidcClients?: Record<string, never>[];
            panelVersion?: string;
            sealed?: string;
            services: Record<string, never>[];
            version: number;
        };
        ExportRequest: {
            /** @description Seal the people's password hashes too (implies admins). A signed-in person only: API tokens get 403. */
            adminPasswords?: boolean;
            /** @description List the people of the directory and the groups. */
            admins?: boolean;
            /** @description At least 12 characters; needed for secrets or adminPasswords. */
            passphrase?: string;
            /** @description Seal the SSO client secret */
            secrets?: boolean;
        };
        GlobalAccessRules: {
            /** @description A GeoIP database is loaded (country conditions work). */
            geoip: boolean;
            rules: components["schemas"]["AccessRule"][] | null;
            /** Format: date-time */
            updatedAt?: string;
        };
        GlobalAccessRulesInput: {
            /** @description Must be true to save global rules that let everyone open every service without signing in. */
            confirmPublic?: boolean;
            rules?: components["schemas"]["AccessRule"][] | null;
        };
        Group: {
            /** Format: date-time */
            createdAt: string;
            description: string;
            id: string;
            members: components["schemas"]["PersonRef"][];
            name: string;
            /** @description Read-only. The exact value of the OpenID provider's groups claim that puts people in this group at a portal sign-in (set by the upgrade from per-service single sign-on); empty means the group's own name, whatever the case. */
            providerName: string;
            /** Format: date-time */
            updatedAt: string;
        };
        GroupMemberAdd: {
            personId: string;
        };
        GroupRef: {
            id: string;
            name: string;
        };
        GroupWrite: {
            description?: string;
            /** @description Required on create. */
            name?: string;
        };
        Health: {
            /** @enum {string} */
            status: "ok" | "unavailable";
        };
        /** @description A Strict-Transport-Security policy; maxAge 0 sends no header. Preload needs includeSubdomains and a maxAge of at least one year (the preload list's rule). */
        Hsts: {
            includeSubdomains: boolean;
            /** @description Seconds, at most two years. */
            maxAge: number;
            preload: boolean;
        };
        ImportItem: {
            /** @enum {string} */
            action: "create" | "update" | "unchanged" | "delete" | "refused";
            /** @description For a service or domain created or updated: what it is or becomes (host names, targets, entrypoints, certificates), each changed line as was → now on an update. */
            details?: string[];
            /** @description The fields an update changes. */
            fields?: string[];
            /** @description The row an applied create or update wrote (absent in a dry run). */
            id?: string;
            /** @description service, domain, credentialSet, machineToken, oidcClient, notifyChannel, alertRule, settings, sso, adminSso, adminSecurity, accessRules, managed, dnsCredential, admin, group, portal. */
            kind: string;
            name: string;
            /** @description Why the item is refused. */
            reason?: string;
        };
        ImportPlan: {
            applied: boolean;
            digest: string;
            format: string;
            items: components["schemas"]["ImportItem"][];
            /** @enum {string} */
            mode: "merge" | "replace";
            skipped: {
                reason: string;
                source: string;
            }[];
            summary: {
                create: number;
                delete: number;
                refused: number;
                skipped: number;
                unchanged: number;
                update: number;
            };
        };
        Invitation: {
            /** Format: date-time */
            createdAt: string;
            createdBy: string;
            email: string;
            /** Format: date-time */
            expiresAt: string;
            id: string;
            personId: string | null;
            /** Format: date-time */
            revokedAt: string | null;
            state: components["schemas"]["InvitationState"];
            /** Format: date-time */
            usedAt: string | null;
            username: string;
        };
        InvitationAccept: {
            passkey?: {
                challenge: string;
                credential: {
                    [key: string]: unknown;
                };
                name?: string;
            };
            password?: string;
            token: string;
        };
        InvitationCreate: {
            /**
             * @default link
             * @enum {string}
             */
            delivery: "link" | "email";
            displayName?: string;
            email?: string;
            /** @default 168 */
            expiresInHours: number;
            groups?: string[];
            panelRole: components["schemas"]["PanelRole"];
            username: string;
        };
        InvitationCreated: {
            invitation: components["schemas"]["Invitation"];
            /** @description The one-use link; shown only here. */
            link: string;
            mailed: boolean;
        };
        InvitationList: {
            items: components["schemas"]["Invitation"][];
        };
        InvitationPreview: {
            displayName: string;
            email: string;
            /** Format: date-time */
            expiresAt: string;
            passkeysAvailable: boolean;
            username: string;
        };
        /** @enum {string} */
        InvitationState: "pending" | "used" | "expired" | "revoked";
        InvitationToken: {
            token: string;
        };
        LauncherList: {
            services: {
                description: string;
                group: string;
                /** @description An https URL or the name of a built-in icon; empty for none. */
                icon: string;
                id: string;
                name: string;
                order: number;
                url: string;
            }[];
        };
        LinkedIdentity: {
            issuer: string;
            /**
             * Format: date-time
             * @description When the link was made; null for links made before it was recorded.
             */
            linkedAt: string | null;
            subject: string;
        };
        MachineToken: {
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string | null;
            id: string;
            lastUsedAddress: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            name: string;
            /** @description The first characters of the value, to recognise it. */
            prefix: string;
            /** Format: date-time */
            revokedAt: string | null;
            scope: components["schemas"]["MachineTokenScope"];
            services: {
                id: string;
                name: string;
            }[];
            /** @enum {string} */
            status: "active" | "expired" | "revoked";
        };
        MachineTokenCreate: {
            /** Format: date-time */
            expiresAt?: string | null;
            name?: string;
            scope?: components["schemas"]["MachineTokenScope"];
            serviceIds?: string[];
        };
        MachineTokenCreated: {
            token: components["schemas"]["MachineToken"];
            /** @description The token itself; shown once. */
            value: string;
            warnings: string[];
        };
        MachineTokenList: {
            items: components["schemas"]["MachineToken"][];
        };
        /** @description Narrows what a token opens; empty fields mean no limit. */
        MachineTokenScope: {
            methods?: string[] | null;
            pathPrefix?: string;
        };
        /**
         * @description waiting: no report from the wrapper yet; pending: the wrapper runs an older configuration
         *     and will restart Traefik with the current one itself; rejected: Traefik would not run the
         *     current configuration (see rejection); applied: the wrapper reported the current one.
         * @enum {string}
         */
        ManagedApplyStatus: "waiting" | "pending" | "rejected" | "applied";
        ManagedConfig: {
            entrypoints: components["schemas"]["ManagedEntrypoint"][] | null;
            /** @description DEBUG, INFO, WARN or ERROR (any case; empty means INFO). */
            logLevel: string;
            resolvers: components["schemas"]["ManagedResolver"][] | null;
        };
        ManagedCredential: {
            name: string;
            /** Format: date-time */
            updatedAt: string;
        };
        ManagedDNSProvider: {
            /** @description The lego provider code (dnsChallenge.provider). */
            code: string;
            docsUrl: string;
            fields: string[];
            name: string;
            optional: string[] | null;
        };
        ManagedEntrypoint: {
            /** @description Binds the entrypoint to one IP address; empty means every interface. */
            host?: string;
            name: string;
            port: number;
            /**
             * @description Empty or http: an HTTP entrypoint. tcp: raw TCP for tcp services (no TLS, resolver or redirect of its own, not a default of HTTP routers). udp: address <port>/udp, for udp services; it may share its port number with a TCP entrypoint.
             * @enum {string}
             */
            protocol?: "" | "http" | "tcp" | "udp";
            /** @description Redirect every request to this entrypoint. */
            redirectTo: string;
            /** @description Default certificate resolver of routers on this entrypoint. */
            resolver: string;
            tls: boolean;
        };
        /** @description The configuration Traefik would not run, and why (status rejected); null otherwise. */
        ManagedRejection: {
            /** Format: date-time */
            at: string;
            configHash: string;
            reason: string;
            secretsHash: string;
        } | null;
        ManagedResolver: {
            /** @enum {string} */
            challenge: "tlsalpn" | "http" | "dns";
            dnsProvider: string;
            dnsResolvers: string[] | null;
            email: string;
            httpEntrypoint: string;
            name: string;
            propagationDelaySeconds: number;
        };
        ManagedState: {
            /** Format: date-time */
            appliedAt: string | null;
            config: components["schemas"]["ManagedConfig"];
            credentials: components["schemas"]["ManagedCredential"][];
            rejection: components["schemas"]["ManagedRejection"];
            status: components["schemas"]["ManagedApplyStatus"];
        };
        NotificationChannel: {
            /** Format: date-time */
            createdAt: string;
            enabled: boolean;
            events: components["schemas"]["NotificationEventKind"][];
            id: string;
            kind: components["schemas"]["NotificationChannelKind"];
            lastDelivery: null | {
                /** Format: date-time */
                at: string;
                error?: string;
                event: string;
                ok: boolean;
            };
            name: string;
            /** @description Names of the secrets that are stored; their values are never returned. */
            secretsSet: ("password" | "token" | "webhookUrl")[];
            settings: components["schemas"]["NotificationChannelSettings"];
            /** Format: date-time */
            updatedAt: string;
        };
        /** @enum {string} */
        NotificationChannelKind: "ntfy" | "gotify" | "discord" | "slack" | "telegram" | "email" | "webhook";
        NotificationChannelRequest: {
            /** @default true */
            enabled: boolean;
            events?: components["schemas"]["NotificationEventKind"][];
            kind: components["schemas"]["NotificationChannelKind"];
            name: string;
            secrets?: components["schemas"]["NotificationChannelSecrets"];
            settings?: components["schemas"]["NotificationChannelSettings"];
        };
        /** @description Write-only. An empty or absent value keeps the stored one. */
        NotificationChannelSecrets: {
            password?: string;
            token?: string;
            webhookUrl?: string;
        };
        /** @description The kind's plain fields; each kind uses some of them. */
        NotificationChannelSettings: {
            chatIds?: string[];
            /** @enum {string} */
            encryption?: "" | "none" | "starttls" | "tls";
            from?: string;
            host?: string;
            path?: string;
            plainHttp?: boolean;
            port?: number;
            to?: string[];
            topic?: string;
            username?: string;
        };
        /** @enum {string} */
        NotificationEventKind: "cert_expiring" | "cert_expired" | "backend_down" | "backend_recovered" | "service_expired" | "polling_stopped" | "managed_rejected" | "managed_applied" | "signin_failures" | "backup_failed" | "alert_firing";
        NotificationSettings: {
            certWarningDays: number;
            debounceSeconds: number;
            /** @description The e-mail channel that sends mail to people (sign-in codes); empty sends none. */
            mailChannelId?: string;
        };
        NotificationTestResult: {
            error?: string;
            ok: boolean;
        };
        OIDCApp: {
            id: string;
            logoUrl: string;
            name: string;
        };
        /** @description One claim added to the client's ID token and userinfo. groups: the first value whose group (by name) the person is in, else default; static: default; rename: the standard claim from under this name. */
        OidcClaimMapping: {
            claim: string;
            default?: string;
            /** @enum {string} */
            from?: "preferred_username" | "name" | "email" | "groups";
            /** @enum {string} */
            kind: "groups" | "static" | "rename";
            values?: {
                group: string;
                value: string;
            }[];
        };
        OidcClient: {
            accessTokenTtlSeconds: number;
            allowedGroups: components["schemas"]["OidcRef"][];
            backchannelLogoutUri: string;
            claimMappings: components["schemas"]["OidcClaimMapping"][];
            /** Format: date-time */
            createdAt: string;
            disabled: boolean;
            grantTypes: components["schemas"]["OidcGrantType"][];
            /** @description The client_id the app is configured with. */
            id: string;
            idTokenTtlSeconds: number;
            impliedConsent: boolean;
            logoUrl: string;
            /**
             * Format: int64
             * @description The portal sign-in must be at most this old, else the person signs in again (0: no limit).
             */
            maxAgeSeconds: number;
            name: string;
            postLogoutRedirectUris: string[];
            preset: string;
            /** @description A public client has no secret and must use PKCE (S256). */
            public: boolean;
            redirectUris: string[];
            refreshTokenTtlSeconds: number;
            scopes: components["schemas"]["OidcScope"][];
            /** @description The app admits only a portal sign-in made with a second factor (passkey, authenticator app or recovery code). Same meaning as the people protection's secondFactor. */
            secondFactor: boolean;
            /** @description Whether a confidential client has a secret. */
            secretSet: boolean;
            service: components["schemas"]["OidcRef"] | null;
            /** @enum {string} */
            signingAlg: "RS256" | "ES256";
            /** Format: date-time */
            updatedAt: string;
        };
        OidcClientInput: {
            /** @description 60 to 86400; 0 means 3600. */
            accessTokenTtlSeconds?: number;
            /** @description Only members of these groups may sign in; empty lets every active person in. */
            allowedGroupIds?: string[];
            backchannelLogoutUri?: string;
            claimMappings?: components["schemas"]["OidcClaimMapping"][];
            disabled?: boolean;
            /** @description Empty means authorization_code. */
            grantTypes?: components["schemas"]["OidcGrantType"][];
            /** @description 60 to 86400; 0 means 3600. */
            idTokenTtlSeconds?: number;
            /** @description Skip the consent screen (first-party apps). */
            impliedConsent?: boolean;
            /** @description An https:// image address, or a data: image of at most 64 KiB. */
            logoUrl?: string;
            /**
             * Format: int64
             * @description The portal sign-in must be at most this old, else the person signs in again; 0 (the default) is no limit.
             */
            maxAgeSeconds?: number;
            name: string;
            postLogoutRedirectUris?: string[];
            preset?: string;
            public?: boolean;
            /** @description Matched exactly. Absolute, no fragment or wildcard; https (http only on localhost and loopback addresses), or a native app's private-use scheme (com.example.app:/callback). */
            redirectUris?: string[];
            /** @description 3600 to 31536000; 0 means 2592000. */
            refreshTokenTtlSeconds?: number;
            /** @description Must include openid; empty means openid profile email. */
            scopes?: components["schemas"]["OidcScope"][];
            /** @description Admit only a portal sign-in made with a second factor (passkey, authenticator app or recovery code); default false. Same meaning as the people protection's secondFactor. */
            secondFactor?: boolean;
            /** @description The service the app runs as: the launcher shows one entry for both. */
            serviceId?: string;
            /** @enum {string} */
            signingAlg?: "" | "RS256" | "ES256";
        };
        OidcClientList: {
            items: components["schemas"]["OidcClient"][];
            provider: components["schemas"]["OidcProvider"];
        };
        OidcClientWithSecret: {
            client: components["schemas"]["OidcClient"];
            /** @description The client secret, shown once; empty for a public client. */
            secret: string;
        };
        /** @enum {string} */
        OidcGrantType: "authorization_code" | "refresh_token" | "urn:ietf:params:oauth:grant-type:device_code";
        OIDCNext: {
            redirect: string;
        };
        OidcPreset: {
            backchannelLogoutUri: string;
            claimMappings: components["schemas"]["OidcClaimMapping"][];
            description: string;
            /** @description The app's own documentation the preset follows. */
            docs: string[];
            grantTypes: components["schemas"]["OidcGrantType"][];
            id: string;
            name: string;
            /** @description What to type on the app's side. */
            note: string;
            postLogoutRedirectUris: string[];
            public: boolean;
            /** @description Templates: {host} stands for the chosen service's hostname. */
            redirectUris: string[];
            scopes: components["schemas"]["OidcScope"][];
        };
        OidcPresetList: {
            items: components["schemas"]["OidcPreset"][];
        };
        /** @description Where apps find the panel as their OpenID provider (the sign-in portal); empty strings while no portal is set. */
        OidcProvider: {
            authorizationEndpoint: string;
            deviceAuthorizationEndpoint: string;
            discoveryUrl: string;
            endSessionEndpoint: string;
            issuer: string;
            jwksUri: string;
            tokenEndpoint: string;
            userinfoEndpoint: string;
        };
        OidcRef: {
            id: string;
            name: string;
        };
        OIDCRequestInfo: {
            app: components["schemas"]["OIDCApp"];
            /** @description The person is not in a group the app admits; wins over secondFactorMissing. */
            refused: boolean;
            scopes: string[];
            /** @description The app asks for a second factor and the person has none enrolled: they add one on their account page (/account on the portal), then open the app again. */
            secondFactorMissing: boolean;
        };
        /** @enum {string} */
        OidcScope: "openid" | "profile" | "email" | "groups" | "offline_access";
        OwnServiceSessionList: {
            items: {
                /** Format: date-time */
                createdAt: string;
                /** Format: date-time */
                expiresAt: string;
                id: string;
                /** Format: date-time */
                lastSeenAt: string;
                /** @description The portal session it was opened from. */
                portalSessionId: string;
                serviceId: string;
                serviceName: string;
            }[];
        };
        /**
         * @description admin: everything; viewer: every read but secret-bearing pages, no writes; none: no panel at all.
         * @enum {string}
         */
        PanelRole: "admin" | "viewer" | "none";
        PanelSystemInfo: {
            database: {
                /** @enum {string} */
                engine: "sqlite" | "postgres";
                /**
                 * Format: int64
                 * @description -1 when unknown
                 */
                sizeBytes: number;
            };
            dataDir: string;
            managed: boolean;
            /** Format: date-time */
            startedAt: string;
            /** Format: int64 */
            uptimeSeconds: number;
            urls: {
                forwardAuth: string;
                internal: string;
                /** @description PANEL_INTERNAL_URL is set rather than derived */
                internalSet: boolean;
                /** @description Empty until a portal is configured */
                portal: string;
                public: string;
            };
            version: string;
        };
        Passkey: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            name: string;
        };
        Person: {
            /** Format: date-time */
            createdAt: string;
            displayName: string;
            email: string;
            enabled: boolean;
            factors: components["schemas"]["PersonFactors"];
            groups: components["schemas"]["GroupRef"][];
            id: string;
            /**
             * Format: date-time
             * @description When the newest live session opened; null without one.
             */
            lastSignInAt: string | null;
            /** @description The person's link to the OpenID provider (at most one), read-only. */
            linkedIdentities: components["schemas"]["LinkedIdentity"][];
            panelRole: components["schemas"]["PanelRole"];
            /** Format: date-time */
            updatedAt: string;
            username: string;
        };
        PersonCreate: {
            displayName?: string;
            email?: string;
            /** @default true */
            enabled: boolean;
            /** @description Group ids. */
            groups?: string[];
            panelRole: components["schemas"]["PanelRole"];
            /** @description Optional (10-256 characters): without one the person signs in with single sign-on. */
            password?: string;
            username: string;
        };
        PersonFactors: {
            passkeys: number;
            password: boolean;
            /** @description Unused recovery codes left. */
            recoveryCodes: number;
            totp: boolean;
        };
        PersonPage: {
            items: components["schemas"]["Person"][];
            limit: number;
            offset: number;
            total: number;
        };
        PersonPassword: {
            password: string;
        };
        PersonRef: {
            displayName: string;
            id: string;
            username: string;
        };
        PersonUpdate: {
            displayName?: string;
            email?: string;
            enabled?: boolean;
            /** @description Group ids; replaces the person's groups. */
            groups?: string[];
            panelRole?: components["schemas"]["PanelRole"];
            username?: string;
        };
        PortalInfo: {
            accentColor: string;
            logo: string;
            name: string;
            /** @description The portal offers passkey sign-in. */
            passkeys: boolean;
            /** @description The request reached the portal's host. */
            portal: boolean;
            /** @description The OpenID provider the sign-in page offers ("Sign in with <provider>"); empty when none. */
            provider?: string;
        };
        PortalSettings: {
            /** Format: int64 */
            absoluteLifetimeSeconds: number;
            /** @description A #rrggbb colour. */
            accentColor: string;
            /** @description Make a person (no panel role) at the first provider sign-in that links to no one; off refuses such sign-ins. Default false. */
            createPeople?: boolean;
            /** @description The hostname the sign-in portal answers on (empty: no portal). */
            host: string;
            /** Format: int64 */
            idleTimeoutSeconds: number;
            /** @description An https URL or a data:image URL of at most 64 KiB (empty: none). */
            logo: string;
            /** @description The portal's name */
            name: string;
            /** @description How the button names the provider (default "single sign-on"). */
            providerName?: string;
            /** @description Offer "Sign in with <providerName>" on the portal (the OpenID provider of single sign-on). Default false. */
            providerSignIn?: boolean;
            /**
             * Format: int64
             * @description Idle timeout of a session opened with "remember me".
             */
            rememberMeSeconds: number;
        };
        /** @description A service's protections; a visitor gets in if any enabled one admits them. */
        ProtectionSettings: {
            basicAuth?: {
                /** @description Required when enabled. */
                credentialSetId?: string;
                enabled: boolean;
            } | null;
            emailCode?: {
                /** @description Addresses, domains (example.com) or subdomains (*.example.com). */
                allowedEmails?: string[] | null;
                enabled: boolean;
                /**
                 * Format: int64
                 * @description 0: one day; at least 300.
                 */
                sessionSeconds?: number;
            } | null;
            /** @description People of the directory signed in on the portal. Both lists empty admits anyone signed in. */
            people?: {
                enabled: boolean;
                /** @description Group ids. */
                groups?: string[] | null;
                /**
                 * Format: int64
                 * @description 0: no limit.
                 */
                maxAgeSeconds?: number;
                /** @description Person ids. */
                people?: string[] | null;
                /** @description Ask a person who signed in with a password alone for a second factor. */
                secondFactor?: boolean;
            } | null;
            sharedLinks?: {
                enabled: boolean;
            } | null;
            sso?: {
                enabled: boolean;
                groups?: string[] | null;
                users?: string[] | null;
            } | null;
            tokens?: {
                enabled: boolean;
                header?: string;
            } | null;
        };
        ProxyCertificate: {
            /** @description Negative once expired. */
            daysLeft: number;
            /** @description SHA-256 of the DER certificate. */
            fingerprint: string;
            issuer: string;
            keyType?: string;
            /** Format: date-time */
            notAfter: string;
            /** Format: date-time */
            notBefore: string;
            sans: string[] | null;
            serviceIds: string[] | null;
            /** @enum {string} */
            status: "valid" | "expiring" | "expired";
            subject: string;
        };
        ProxyCertificatesView: components["schemas"]["ProxyStatus"] & {
            items: components["schemas"]["ProxyCertificate"][];
            message?: string;
            /** @description This Traefik version lists its certificates. */
            supported: boolean;
            version: string;
        };
        ProxyCertResolversView: components["schemas"]["ProxyStatus"] & {
            items: {
                name: string;
                /** @description Where it is named ("router:x@file", "entrypoint:websecure", "domain:example.com", "managed"). */
                sources: string[];
            }[];
        };
        ProxyConflict: {
            entrypoints: string[] | null;
            host: string;
            /** @enum {string} */
            kind: "host" | "sni" | "missing_middleware";
            message: string;
            middleware?: string;
            otherServiceId?: string;
            panelPriority?: number;
            priority?: number;
            provider: string;
            /** @description The other router, qualified. */
            router: string;
            rule?: string;
            serviceId: string;
        };
        ProxyConflictsView: components["schemas"]["ProxyStatus"] & {
            items: components["schemas"]["ProxyConflict"][];
        };
        ProxyConnectionCheck: {
            /** Format: date-time */
            at: string;
            items: {
                /** @description What was found */
                answer: string;
                /** @description The technical cause; empty when none */
                detail: string;
                /** @description What to do; empty when nothing */
                hint: string;
                /** @enum {string} */
                name: "provider" | "api" | "metrics";
                /** @enum {string} */
                state: "ok" | "warning" | "failed";
            }[];
            /** @enum {string} */
            state: "ok" | "warning" | "failed";
            summary: string;
        };
        ProxyEntrypoint: {
            address: string;
            asDefault: boolean;
            certResolver?: string;
            name: string;
            /**
             * @description udp for an address ending in /udp; tcp otherwise (HTTP routers use tcp entrypoints too).
             * @enum {string}
             */
            protocol?: "tcp" | "udp";
            tls: boolean;
        };
        ProxyEntrypointsView: components["schemas"]["ProxyStatus"] & {
            items: components["schemas"]["ProxyEntrypoint"][];
        };
        ProxyHealthView: components["schemas"]["ProxyStatus"] & {
            items: components["schemas"]["ProxyServiceHealth"][];
            probed: boolean;
        };
        ProxyMetricsView: components["schemas"]["ProxyStatus"] & {
            items: components["schemas"]["ProxyServiceMetrics"][];
        };
        ProxyMiddleware: {
            errors: string[];
            /** @description Qualified: name@provider. */
            name: string;
            provider: string;
            status: string;
            type: string;
            usedBy: string[];
        };
        ProxyMiddlewaresView: components["schemas"]["ProxyStatus"] & {
            items: components["schemas"]["ProxyMiddleware"][];
        };
        ProxyRouter: {
            entryPoints: string[] | null;
            errors: string[] | null;
            middlewares?: string[];
            /** @description Qualified: name@provider. */
            name: string;
            priority?: number;
            provider: string;
            rule?: string;
            service: string;
            /** @description The panel service that owns the router. */
            serviceId?: string;
            status: string;
            /** @description Traefik's router TLS object, as Traefik reports it. */
            tls?: unknown;
        };
        ProxyRuntimeView: components["schemas"]["ProxyStatus"] & {
            entrypoints: components["schemas"]["ProxyEntrypoint"][];
            middlewares: components["schemas"]["ProxyMiddleware"][];
            /** @description False when the panel could not tell which routers are its own (serviceId is then missing). */
            ownersKnown: boolean;
            routers: components["schemas"]["ProxyRouter"][];
            services: components["schemas"]["ProxyService"][];
            tcpRouters: components["schemas"]["ProxyRouter"][];
            udpRouters: components["schemas"]["ProxyRouter"][];
            version: string;
        };
        ProxyServerHealth: {
            /** @enum {string} */
            probe?: "up" | "down";
            probeError?: string;
            probeMs?: number;
            /** @enum {string} */
            status: "UP" | "DOWN" | "UNKNOWN";
            url: string;
        };
        ProxyService: {
            errors: string[] | null;
            name: string;
            provider: string;
            serversTotal: number;
            serversUp: number;
            serviceId?: string;
            status: string;
            type: string;
            usedBy: string[] | null;
        };
        ProxyServiceHealth: {
            name: string;
            servers: components["schemas"]["ProxyServerHealth"][];
            serviceId: string;
            /**
             * @description traefik (server status) or panel (targets; Traefik has no status).
             * @enum {string}
             */
            source: "traefik" | "panel";
            total: number;
            up: number;
        };
        ProxyServiceMetrics: components["schemas"]["ProxyTraffic"] & {
            name: string;
            serviceId: string;
            /** @description The Traefik services counted. */
            traefikServices: string[] | null;
        };
        /** @description Opens every proxy view, whether Traefik's API is configured, whether it answered, and why not. */
        ProxyStatus: {
            configured: boolean;
            error: string;
            reachable: boolean;
        };
        ProxyStatusView: {
            poll: {
                ageSeconds: number;
                /** @description Configuration versions produced since the one Traefik last fetched */
                behind: number;
                behindKnown: boolean;
                configUrl: string;
                current: boolean;
                currentEtag: string;
                intervalMeasured: boolean;
                /** @description Median gap between recent polls; 5 before two polls */
                intervalSeconds: number;
                last: components["schemas"]["ConfigPoll"] | null;
                /** @description Traefik polled since the panel started */
                polled: boolean;
                recent: components["schemas"]["ConfigPoll"][];
                setups: components["schemas"]["TraefikSetup"][];
                /** @description Traefik static configuration for the HTTP provider (YAML) */
                snippet: string;
                stopped: boolean;
            };
            services: {
                /** @description Traefik's messages, each prefixed by the object it concerns */
                errors: string[];
                message: string;
                routers: {
                    errors: string[];
                    name: string;
                    status: string;
                }[];
                serviceId: string;
                /** @enum {string} */
                state: "live" | "waiting" | "error" | "unknown";
            }[];
            traefik: {
                configured: boolean;
                error: string;
                reachable: boolean;
            };
        };
        ProxyTraffic: {
            avgLatencyMs: number;
            errorRate: number;
            history: {
                /** Format: date-time */
                at: string;
                errorRate: number;
                requestRate: number;
            }[] | null;
            requestRate: number;
            requests: number;
            status: {
                "2xx": number;
                "3xx": number;
                "4xx": number;
                "5xx": number;
            };
            windowSeconds: number;
        };
        /** @description Your current password, or a current code from your authenticator app. */
        ReauthenticateRequest: {
            code?: string;
            password?: string;
        };
        RegistrationSettings: {
            domains: string[];
            groups: string[];
            /** @enum {string} */
            mode: "off" | "domains";
        };
        /** @description One of a service's protections; the fields beyond the common ones depend on the type. */
        SecurityConfig: components["schemas"]["SecurityConfigBasicAuth"] | components["schemas"]["SecurityConfigSSO"] | components["schemas"]["SecurityConfigSharedLinks"] | components["schemas"]["SecurityConfigTokens"] | components["schemas"]["SecurityConfigEmailCode"] | components["schemas"]["SecurityConfigPeople"];
        SecurityConfigBasicAuth: {
            /** Format: date-time */
            createdAt: string;
            credentialSetId?: string;
            enabled: boolean;
            id: string;
            serviceId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "basic_auth";
            /** Format: date-time */
            updatedAt: string;
        };
        SecurityConfigEmailCode: {
            /** @description Addresses (ann@example.com), domains (example.com) and subdomains (*.example.com), lower-case. */
            allowedEmails: string[];
            /** Format: date-time */
            createdAt: string;
            enabled: boolean;
            id: string;
            serviceId: string;
            sessionSeconds: number;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "email_code";
            /** Format: date-time */
            updatedAt: string;
        };
        SecurityConfigPeople: {
            /** Format: date-time */
            createdAt: string;
            enabled: boolean;
            /** @description Group ids. */
            groups: string[];
            id: string;
            /** Format: int64 */
            maxAgeSeconds: number;
            /** @description Person ids. */
            people: string[];
            secondFactor: boolean;
            serviceId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "people";
            /** Format: date-time */
            updatedAt: string;
        };
        SecurityConfigRequest: {
            /** @description email_code only, who may ask for a code: addresses (ann@example.com), domains (example.com or @example.com) and subdomains (*.example.com). Empty allows no one. */
            allowedEmails?: string[] | null;
            /** @description basic_auth only. */
            credentialSetId?: string | null;
            /** @description Absent or null means true. */
            enabled?: boolean | null;
            groups?: string[] | null;
            /** @description tokens only, a header clients may put their token in (besides Authorization). */
            header?: string;
            /**
             * Format: int64
             * @description people only, the maximum sign-in age (0: no limit).
             */
            maxAgeSeconds?: number;
            /** @description people only, ids of the people admitted (groups then holds group ids; both empty admits anyone signed in). */
            people?: string[] | null;
            /** @description people only, ask for a second factor before the service opens. */
            secondFactor?: boolean;
            /** @description email_code only, the session length (0: one day; at least 300). */
            sessionSeconds?: number;
            type: components["schemas"]["SecurityConfigType"];
            /** @description sso only, users allowed (empty with groups empty means everyone who signs in). Each entry is compared with one claim: "sub:<subject>" with the ID token's sub (of the issuer configured when the list is saved); an entry with an @ with the email claim, only when email_verified is true; any other word with preferred_username or sub. */
            users?: string[] | null;
        };
        SecurityConfigSharedLinks: {
            /** Format: date-time */
            createdAt: string;
            enabled: boolean;
            id: string;
            serviceId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "shared_links";
            /** Format: date-time */
            updatedAt: string;
        };
        SecurityConfigSSO: {
            /** Format: date-time */
            createdAt: string;
            enabled: boolean;
            groups: string[] | null;
            id: string;
            serviceId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "sso";
            /** Format: date-time */
            updatedAt: string;
            users: string[] | null;
        };
        SecurityConfigTokens: {
            /** Format: date-time */
            createdAt: string;
            enabled: boolean;
            /** @description A request header clients may put their token in (besides Authorization); empty for none. */
            header: string;
            id: string;
            serviceId: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "tokens";
            /** Format: date-time */
            updatedAt: string;
        };
        /** @enum {string} */
        SecurityConfigType: "basic_auth" | "sso" | "shared_links" | "tokens" | "email_code" | "people";
        Service: {
            /** Format: date-time */
            createdAt: string;
            domainId: string | null;
            enabled: boolean;
            /** Format: date-time */
            enabledAt: string | null;
            entrypoints: string[];
            /** Format: date-time */
            expiresAt: string | null;
            expiry: components["schemas"]["ServiceExpiry"];
            /** @description The hostnames resolved against the domain. */
            fqdns: string[];
            headers: {
                [key: string]: string;
            };
            hostnames: components["schemas"]["ServiceHostname"][];
            https: components["schemas"]["ServiceHTTPS"];
            id: string;
            insecureSkipVerify: boolean;
            /** @enum {string} */
            kind: "proxy" | "redirect" | "tcp" | "udp";
            launcher: components["schemas"]["ServiceLauncher"];
            loadBalancer: components["schemas"]["ServiceLoadBalancer"];
            maintenance: components["schemas"]["ServiceMaintenance"];
            middlewares: string[];
            name: string;
            passHostHeader: boolean;
            protection: components["schemas"]["ServiceProtection"];
            redirect: components["schemas"]["ServiceRedirect"] | null;
            rules: components["schemas"]["ServiceRule"][];
            targets: components["schemas"]["ServiceTarget"][];
            tcp?: components["schemas"]["ServiceTCP"];
            /** Format: date-time */
            updatedAt: string;
        };
        ServiceAccess: {
            /**
             * @description Empty is automatic, authenticate when the service has a protection, allow otherwise.
             * @enum {string}
             */
            defaultAction: "" | "allow" | "deny" | "authenticate";
            effectiveDefault: components["schemas"]["AccessAction"];
            exposure: components["schemas"]["AccessExposure"];
            /** @description A GeoIP database is loaded (country conditions work). */
            geoip: boolean;
            protections: ("basicAuth" | "sso" | "sharedLinks" | "tokens" | "emailCode")[];
            rules: components["schemas"]["AccessRule"][];
            serviceId: string;
            /** Format: date-time */
            updatedAt: string | null;
            warnings: string[];
        };
        ServiceAccessInput: {
            /** @description Must be true to save rules that let everyone open a protected service without signing in. */
            confirmPublic?: boolean;
            /** @enum {string} */
            defaultAction?: "" | "allow" | "deny" | "authenticate";
            rules?: components["schemas"]["AccessRule"][] | null;
        };
        ServiceConfigPreview: {
            /** @description When false, the preview shows what the service would contribute once enabled. */
            enabled: boolean;
            middlewares: {
                [key: string]: Record<string, never>;
            };
            /** @description Why nothing is emitted, when the service is left out. */
            problems: string[];
            routers: {
                [key: string]: components["schemas"]["TraefikRouter"];
            };
            serversTransports: {
                [key: string]: Record<string, never>;
            };
            serviceId: string;
            services: {
                [key: string]: Record<string, never>;
            };
            /** @description A tcp service's part of the "tcp" section (routers, services, middlewares, serversTransports, each by name), as Traefik reads it. */
            tcp?: {
                [key: string]: Record<string, never>;
            };
            /** @description A udp service's part of the "udp" section (routers and services, by name). */
            udp?: {
                [key: string]: Record<string, never>;
            };
            /** @description What may surprise about the emitted service, such as Traefik's default certificate. */
            warnings: components["schemas"]["ConfigPreviewWarning"][];
        };
        /** @description When a service switches itself off. */
        ServiceExpiry: {
            /** @enum {string} */
            type: "never";
        } | {
            /** Format: date-time */
            at: string;
            /** @enum {string} */
            type: "at";
        } | {
            /**
             * Format: int64
             * @description Counted from when the service is enabled (60 seconds to 10 years).
             */
            seconds: number;
            /** @enum {string} */
            type: "duration";
        };
        ServiceHostname: {
            /** @enum {string} */
            type: "subdomain" | "apex" | "custom";
            /** @description The label (subdomain) or the full name (custom); empty for apex. */
            value?: string;
        };
        /** @description Overrides of the domain's HTTPS defaults; null inherits (no domain means off). */
        ServiceHTTPS: {
            hsts: components["schemas"]["Hsts"] | null;
            /** @description Redirect plain HTTP to HTTPS (only when the service has a plain and a TLS entrypoint). */
            redirect: boolean | null;
        };
        /** @description How the service shows on the portal's launcher, to the people its people protection admits. */
        ServiceLauncher: {
            description?: string;
            group?: string;
            /** @description Left off the launcher. */
            hidden?: boolean;
            /** @description An https URL, or the name of a built-in icon. */
            icon?: string;
            /** @description Smaller first within a group. */
            order?: number;
        };
        ServiceList: {
            items: components["schemas"]["Service"][];
        };
        ServiceLoadBalancer: {
            healthCheck: {
                intervalSeconds: number;
                path: string;
                /** @description 0 (any 2xx or 3xx) or 100-599. */
                status: number;
                /** @description At most the interval. */
                timeoutSeconds: number;
            } | null;
            sticky: {
                /** @description Empty lets Traefik generate one. */
                cookieName: string;
                httpOnly: boolean;
                /**
                 * @description none needs secure.
                 * @enum {string}
                 */
                sameSite: "" | "none" | "lax" | "strict";
                secure: boolean;
            } | null;
            /** @description Seconds, 0 keeps Traefik's default; emitted as a serversTransport of the service. */
            timeouts: {
                dialSeconds: number;
                idleConnSeconds: number;
                responseHeaderSeconds: number;
            };
        };
        ServiceMaintenance: {
            /** @description While on, every request gets the panel maintenance page (503) instead of the upstream or redirect. */
            enabled: boolean;
            /** @description Plain text; line breaks kept, no other control characters. */
            message: string;
        };
        ServicePatch: {
            enabled: boolean;
        };
        ServiceProtection: {
            basicAuth: boolean;
            emailCode: boolean;
            /**
             * @description Who can open the service without signing in: everyone (no protection, or access rules that allow every request), some (allow rules with conditions) or none.
             * @enum {string}
             */
            exposure: "everyone" | "some" | "none";
            people: boolean;
            sharedLinks: boolean;
            sso: boolean;
            /** @description For a tcp or udp service: a protection or access rules (its own or the global ones) would guard it. A TCP or UDP router cannot ask forward-auth, so Traefik's configuration leaves the service out (fail closed). Always false for an HTTP service. */
            streamGuarded: boolean;
            tokens: boolean;
        };
        /** @description Where a redirect service sends every request. permanent answers 301 (308 for methods other than GET), else 302 (307). keepPath appends the request's path and query; the URL then has no query or fragment. */
        ServiceRedirect: {
            keepPath: boolean;
            permanent: boolean;
            /** @description Absolute http(s) URL, RFC 3986 characters only, no credentials. */
            url: string;
        };
        ServiceRequest: {
            domainId?: string | null;
            /** @description Absent or null means true. */
            enabled?: boolean | null;
            entrypoints?: string[];
            expiry?: components["schemas"]["ServiceExpiry"] | null;
            headers?: {
                [key: string]: string;
            } | null;
            hostnames?: components["schemas"]["ServiceHostname"][];
            https?: components["schemas"]["ServiceHTTPS"];
            insecureSkipVerify?: boolean;
            /**
             * @description Absent or empty means proxy. tcp and udp route connections and datagrams of their own entrypoints (entrypoints is required); a udp service has no hostnames, a tcp service's hostnames are its SNI names (none: every connection).
             * @enum {string}
             */
            kind?: "" | "proxy" | "redirect" | "tcp" | "udp";
            launcher?: components["schemas"]["ServiceLauncher"];
            loadBalancer?: components["schemas"]["ServiceLoadBalancer"];
            maintenance?: components["schemas"]["ServiceMaintenance"];
            middlewares?: string[];
            name?: string;
            /** @description Absent or null means true. */
            passHostHeader?: boolean | null;
            redirect?: components["schemas"]["ServiceRedirect"] | null;
            rules?: components["schemas"]["ServiceRule"][];
            targets?: components["schemas"]["ServiceTarget"][];
            tcp?: components["schemas"]["ServiceTCP"] | null;
        };
        ServiceRule: {
            /** @description The header or query parameter name. */
            name?: string;
            /** @enum {string} */
            type: "pathPrefix" | "path" | "header" | "query" | "method" | "clientIP";
            value: string;
        };
        ServicesTraffic: {
            reason: string;
            services: components["schemas"]["ServiceTraffic"][];
            /** @enum {string} */
            source: "panel" | "prometheus";
            /** @enum {string} */
            state: "ok" | "no_metrics" | "no_traffic";
            /** Format: int64 */
            stepSeconds: number;
            time: number[];
        };
        ServiceTarget: {
            host: string;
            port: number;
            /**
             * @description Empty in a request means http; a tcp or udp service's targets take its kind.
             * @enum {string}
             */
            scheme: "http" | "https" | "h2c" | "tcp" | "udp";
            /** @description Share of requests (weighted round robin); absent or 0 is 1. */
            weight?: number;
        };
        /** @description A tcp service's options (zero for other kinds). */
        ServiceTCP: {
            /** @description Client addresses or CIDR ranges admitted (Traefik's TCP ipAllowList); empty admits every client. */
            allowList?: string[] | null;
            /** @description Simultaneous connections per client address (inFlightConn); 0 is no limit. */
            maxConnections?: number;
            /** @description PROXY protocol version sent to the targets; 0 sends none. */
            proxyProtocol?: number;
            /**
             * @description none: plain TCP, only without hostnames (HostSNI(`*`)); passthrough: the target terminates TLS; terminate: Traefik does, with the domain's certificate resolver. Empty in a request means passthrough with hostnames, none without.
             * @enum {string}
             */
            tls?: "" | "none" | "passthrough" | "terminate";
        };
        ServiceTraffic: {
            errorRatio: number;
            /** Format: int64 */
            errors5xx: number;
            name: string;
            /** @description Requests per step. */
            points: number[];
            /** Format: int64 */
            requests: number;
            serviceId: string;
        };
        Settings: {
            /** @description The hostname the panel itself is served on (empty when unset). */
            adminDomain: string;
            defaultEntrypoints: string[];
            /**
             * Format: int64
             * @description Lifetime of services whose expiry is a duration without seconds.
             */
            defaultLifetimeSeconds: number;
            globalMiddlewares: string[];
        };
        SharedLink: {
            /**
             * @description What the link asks its visitor for; the PIN or password itself is never shown.
             * @enum {string}
             */
            challenge: "none" | "pin" | "password";
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
            /** @description Wrong PINs or passwords given so far. */
            failedAttempts: number;
            id: string;
            note: string;
            path: string;
            /** Format: date-time */
            revokedAt: string | null;
            serviceId: string;
            /** Format: int64 */
            sessionSeconds: number;
            /**
             * @description locked: unused, after 10 wrong PINs or passwords.
             * @enum {string}
             */
            status: "active" | "used" | "expired" | "revoked" | "locked";
            /** @description Only in the answer to the creation. */
            url?: string;
            /** Format: date-time */
            usedAt: string | null;
            warnings?: string[];
        };
        SharedLinkRequest: {
            /**
             * Format: int64
             * @description 0 for the default, else 60 to 31622400.
             */
            lifetimeSeconds?: number;
            note?: string;
            /** @description Write-only. 8 to 128 characters the visitor must type before the link opens. Not with pin. */
            password?: string;
            /** @description Where the link lands; empty means the service's first path rule, else /. */
            path?: string;
            /** @description Write-only. 4 to 12 digits the visitor must type before the link opens. Not with password. */
            pin?: string;
            /**
             * Format: int64
             * @description 0 for the default, else 60 to 31622400.
             */
            sessionSeconds?: number;
        };
        SSOSettings: {
            clientId: string;
            clientSecretSet: boolean;
            enabled: boolean;
            groupsClaim: string;
            issuer: string;
            /** @description Register this at the provider. */
            redirectUrl: string;
            scopes: string[];
            /** Format: int64 */
            sessionSeconds: number;
        };
        SSOSettingsRequest: {
            clientId?: string;
            /** @description Empty keeps the stored one. */
            clientSecret?: string;
            enabled?: boolean;
            groupsClaim?: string;
            issuer?: string;
            scopes?: string[] | null;
            /**
             * Format: int64
             * @description 0 for the default, else 300 to 31622400.
             */
            sessionSeconds?: number;
        };
        SystemInfo: {
            /** @description Administrators may sign in with the OpenID provider (GET /api/admin/sso/start). */
            adminSso: boolean;
            /** @description Administrators may sign in with a password (POST /api/admin/login). */
            localPasswords: boolean;
            /** @description Managed mode (PANEL_MANAGED) is on. */
            managed: boolean;
            /** @description Passkeys are available (PANEL_PUBLIC_URL names a host name): the login page offers passkey sign-in. */
            passkeys: boolean;
            /** @description No administrator exists yet (POST /api/admin/setup). */
            setupRequired: boolean;
            version: string;
        };
        TotpEnrolment: {
            /** @description The URL as a QR code, a data:image/png;base64 URL */
            qrCode: string;
            /** @description Base32 secret */
            secret: string;
            /** @description otpauth://totp/... URL */
            url: string;
        };
        TraefikDynamicConfig: {
            http?: components["schemas"]["TraefikHTTPConfig"];
            /** @description The "tcp" section (routers, services, middlewares, serversTransports, each by name), present when a service of kind tcp is routed. */
            tcp?: {
                [key: string]: Record<string, never>;
            };
            /** @description The "udp" section (routers and services, by name), present when a service of kind udp is routed. */
            udp?: {
                [key: string]: Record<string, never>;
            };
        };
        /** @description The "http" section of Traefik's dynamic configuration. */
        TraefikHTTPConfig: {
            /** @description Traefik's dynamic.Middleware objects by name. */
            middlewares?: {
                [key: string]: Record<string, never>;
            };
            routers?: {
                [key: string]: components["schemas"]["TraefikRouter"];
            };
            /** @description Traefik's dynamic.ServersTransport objects by name. */
            serversTransports?: {
                [key: string]: Record<string, never>;
            };
            /** @description Traefik's dynamic.Service objects by name. */
            services?: {
                [key: string]: Record<string, never>;
            };
        };
        /** @description Traefik's dynamic.Router. */
        TraefikRouter: {
            entryPoints?: string[];
            middlewares?: string[];
            priority?: number;
            rule?: string;
            service?: string;
            tls?: {
                certResolver?: string;
                domains?: {
                    main?: string;
                    sans?: string[];
                }[];
                options?: string;
            };
        };
        TraefikSetup: {
            /** @description The panel's environment variables to set */
            env: string;
            /** @description The panel's address as Traefik sees it in this variant */
            providerUrl: string;
            /** @description A complete static configuration: entrypoints, the HTTP provider, the API and Prometheus metrics */
            traefikYml: string;
            /** @enum {string} */
            variant: "docker" | "host";
            warnings: string[];
        };
        TrafficSeries: {
            /** Format: date-time */
            from: string;
            /** @description Why the chart is empty or partial */
            reason: string;
            series: {
                allowed: components["schemas"]["TrafficValues"];
                bytesIn: components["schemas"]["TrafficValues"];
                bytesOut: components["schemas"]["TrafficValues"];
                challenged: components["schemas"]["TrafficValues"];
                denied: components["schemas"]["TrafficValues"];
                latencyP50Ms: components["schemas"]["TrafficValues"];
                latencyP95Ms: components["schemas"]["TrafficValues"];
                latencyP99Ms: components["schemas"]["TrafficValues"];
                rateLimited: components["schemas"]["TrafficValues"];
                requests2xx: components["schemas"]["TrafficValues"];
                requests3xx: components["schemas"]["TrafficValues"];
                requests4xx: components["schemas"]["TrafficValues"];
                requests5xx: components["schemas"]["TrafficValues"];
                signedIn: components["schemas"]["TrafficValues"];
                up: components["schemas"]["TrafficValues"];
            };
            /** @enum {string} */
            source: "panel" | "prometheus";
            /**
             * @description no_metrics when Traefik's metrics are not read (reason says why), no_traffic when nothing was recorded in the range.
             * @enum {string}
             */
            state: "ok" | "no_metrics" | "no_traffic";
            /** Format: int64 */
            stepSeconds: number;
            /** @description The start of each step, in unix seconds. */
            time: number[];
            /** Format: date-time */
            to: string;
            totals: {
                /** Format: int64 */
                bytesIn: number;
                /** Format: int64 */
                bytesOut: number;
                /** Format: int64 */
                denied: number;
                /** Format: int64 */
                errors5xx: number;
                /** Format: int64 */
                requests: number;
            };
        };
        /** @description One value per time point; null where there is no data. */
        TrafficValues: (number | null)[];
        TwoFactorCodeRequest: {
            code: string;
        };
        /** @description The current password, or a current code from the app. */
        TwoFactorDisableRequest: {
            code?: string;
            password?: string;
        };
        /** @description POST /api/admin/login's answer when the password was right and the administrator has a second factor: no session yet, a 5-minute pending sign-in cookie, the methods to finish with. */
        TwoFactorPending: {
            secondFactor: {
                methods: ("totp" | "passkey" | "recovery")[];
            };
        };
        TwoFactorRecoveryCodes: {
            recoveryCodes: string[];
        };
        TwoFactorSignedIn: {
            user: {
                id: string;
                /** @enum {string} */
                role: "admin" | "viewer" | "none";
                username: string;
            };
        };
        TwoFactorStatus: {
            /** @description A confirmed TOTP or at least one passkey */
            enrolled: boolean;
            passkeys: number;
            passkeysAvailable: boolean;
            /** @description Why passkeys are unavailable (PANEL_PUBLIC_URL) */
            passkeysProblem?: string;
            recoveryCodesLeft: number;
            /** @description The panel requires two-factor sign-in */
            required: boolean;
            totp: boolean;
        };
        /** @description The PublicKeyCredential as JSON (binary fields base64url). */
        WebAuthnCredential: {
            authenticatorAttachment?: string;
            clientExtensionResults?: {
                [key: string]: unknown;
            };
            id: string;
            rawId: string;
            response: {
                [key: string]: unknown;
            };
            /** @constant */
            type: "public-key";
        };
        /** @description The WebAuthn options as go-webauthn encodes them (binary fields base64url). */
        WebAuthnOptions: {
            mediation?: string;
            publicKey: {
                [key: string]: unknown;
            };
        };
    };
    responses: {
        /** @description An error, in the one envelope every error answer uses. */
        Error: {
            headers: {
                /** @description Seconds to wait (rate_limited only). */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAccessLog: {
        parameters: {
            query?: {
                /** @description An IP address or a CIDR. */
                address?: string;
                /** @description Only entries with a larger seq. */
                after?: number;
                decision?: "allowed" | "authenticated" | "denied" | "unauthenticated" | "forbidden" | "rate_limited";
                /** @description A substring of the identity, case-insensitive. */
                identity?: string;
                limit?: number;
                serviceId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessLogPage"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listAccessPresets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessPresetList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getGlobalAccessRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GlobalAccessRules"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putGlobalAccessRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GlobalAccessRulesInput"];
            };
        };
        responses: {
            /** @description Saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GlobalAccessRules"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    adminLogin: {
        parameters: {
            query?: {
                /** @description On the sign-in portal: keep the session for the portal's remember-me length. */
                remember?: "1";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCredentials"];
            };
        };
        responses: {
            /** @description Signed in, or a second factor is needed. */
            200: {
                headers: {
                    /** @description The gatehouse_admin session cookie, or the pending sign-in cookie. */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserResponse"] | components["schemas"]["TwoFactorPending"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    beginPasskeyLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PublicKeyCredentialRequestOptions (binary fields base64url) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebAuthnOptions"];
                };
            };
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
        };
    };
    finishPasskeyLogin: {
        parameters: {
            query?: {
                /** @description On the sign-in portal: keep the session for the portal's remember-me length. */
                remember?: "1";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credential: components["schemas"]["WebAuthnCredential"];
                };
            };
        };
        responses: {
            /** @description Signed in (session cookie set) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorSignedIn"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    loginRecoveryCode: {
        parameters: {
            query?: {
                /** @description On the sign-in portal: keep the session for the portal's remember-me length. */
                remember?: "1";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorCodeRequest"];
            };
        };
        responses: {
            /** @description Signed in (session cookie set) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorSignedIn"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    loginTotp: {
        parameters: {
            query?: {
                /** @description On the sign-in portal: keep the session for the portal's remember-me length. */
                remember?: "1";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorCodeRequest"];
            };
        };
        responses: {
            /** @description Signed in (session cookie set) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorSignedIn"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    adminLogout: {
        parameters: {
            query?: {
                /** @description On the sign-in portal: end every portal session of the person, and the service sessions opened from them. */
                everywhere?: "1";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    adminMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserResponse"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getTwoFactorStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What is enrolled, and whether the panel requires it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorStatus"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    regenerateRecoveryCodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new recovery codes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorRecoveryCodes"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    beginTotpEnrolment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret, its otpauth URL and a QR code */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TotpEnrolment"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    disableTotp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorDisableRequest"];
            };
        };
        responses: {
            /** @description TOTP is off */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    confirmTotpEnrolment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TwoFactorCodeRequest"];
            };
        };
        responses: {
            /** @description TOTP is on */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TwoFactorRecoveryCodes"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listMyAppPasswords: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app passwords, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppPasswordList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createMyAppPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What it is for, such as "Phone calendar". */
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created. The secret is in this answer only. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppPasswordCreated"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    revokeMyAppPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; it stops working from the next request. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listPasskeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Passkeys, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Passkey"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deletePasskey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    renamePasskey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The renamed passkey */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Passkey"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    beginPasskeyRegistration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PublicKeyCredentialCreationOptions (binary fields base64url) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebAuthnOptions"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    finishPasskeyRegistration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credential: components["schemas"]["WebAuthnCredential"];
                    name?: string;
                };
            };
        };
        responses: {
            /** @description The new passkey */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Passkey"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    adminChangePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminPasswordChange"];
            };
        };
        responses: {
            /** @description Changed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    reauthenticate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReauthenticateRequest"];
            };
        };
        responses: {
            /** @description Proved */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    beginPasskeyReauthentication: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description PublicKeyCredentialRequestOptions (binary fields base64url) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebAuthnOptions"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    finishPasskeyReauthentication: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credential: components["schemas"]["WebAuthnCredential"];
                };
            };
        };
        responses: {
            /** @description Proved */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    adminListSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSessionList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    adminEndOtherSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    adminEndSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getAdminSecurity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The policy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSecurity"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putAdminSecurity: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminSecurity"];
            };
        };
        responses: {
            /** @description The stored policy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSecurity"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    adminSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminCredentials"];
            };
        };
        responses: {
            /** @description Created and signed in. */
            201: {
                headers: {
                    /** @description The gatehouse_admin session cookie. */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserResponse"];
                };
            };
            400: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
        };
    };
    getAdminSSO: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSSOSettings"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putAdminSSO: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminSSOSettingsRequest"];
            };
        };
        responses: {
            /** @description The stored settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSSOSettings"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    finishAdminSSO: {
        parameters: {
            query?: {
                code?: string;
                error?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To / (signed in) or to /login?error=<code>. */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    startAdminSSO: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider's authorization endpoint, or to /login?error=<code>. */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    listAdminTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every API token, newest first (never their values). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AdminToken"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createAdminToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminTokenCreate"];
            };
        };
        responses: {
            /** @description The token and its value, shown only this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminTokenCreated"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    revokeAdminToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listAlertEvents: {
        parameters: {
            query?: {
                limit?: number;
                ruleId?: string;
                serviceId?: string;
                state?: components["schemas"]["AlertState"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The episodes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AlertEvent"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listAlertRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules, by name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AlertRule"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertRuleRequest"];
            };
        };
        responses: {
            /** @description The new rule */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertRuleRequest"];
            };
        };
        responses: {
            /** @description The rule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRule"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteAlertRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listAuditEntries: {
        parameters: {
            query?: {
                /** @description For example create, update, delete, signin, signin_failed */
                action?: string;
                /** @description Actor name or id */
                actor?: string;
                /** @description Paging cursor (nextBefore of the previous page) */
                before?: number;
                format?: "json" | "csv";
                /** @description Entries at or after this time */
                from?: string;
                limit?: number;
                /** @description Free text over names, ids, route, address and changes */
                q?: string;
                resourceId?: string;
                /** @description Resource type, or a parent type ("services" also matches "services.access") */
                resourceType?: string;
                /** @description Entries before this time */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of entries (JSON), or the CSV export */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                    "text/csv": string;
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getAuditSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditSettings"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    putAuditSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuditSettings"];
            };
        };
        responses: {
            /** @description The stored settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditSettings"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    emailCodeStart: {
        parameters: {
            query: {
                /** @description Where to return: a URL on one of the service's hosts. */
                rd: string;
                service: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            500: components["responses"]["Error"];
        };
    };
    emailCodeSend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    email: string;
                    rd: string;
                    service: string;
                };
            };
        };
        responses: {
            /** @description The page asking for the code, whatever the address. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            403: components["responses"]["Error"];
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            500: components["responses"]["Error"];
        };
    };
    emailCodeVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    code: string;
                    email: string;
                    rd: string;
                    service: string;
                };
            };
        };
        responses: {
            /** @description Back to the service with a one-time exchange token. */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            500: components["responses"]["Error"];
        };
    };
    ssoCallback: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Back to the service with a one-time exchange token. */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            500: components["responses"]["Error"];
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
        };
    };
    ssoStart: {
        parameters: {
            query: {
                /** @description Where to return: a URL on one of the service's hosts. */
                rd: string;
                service: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider's authorization endpoint (state cookie set). */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            500: components["responses"]["Error"];
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
        };
    };
    verifyForwardAuth: {
        parameters: {
            query: {
                /** @description The panel service id. */
                service: string;
            };
            header: {
                "X-Forwarded-Host": string;
                "X-Forwarded-Method": string;
                "X-Forwarded-Proto": string;
                "X-Forwarded-Uri": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Let through. Remote-User (and, after single sign-on, Remote-Email, Remote-Name, Remote-Groups) name who. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description To the sign-in, or back to the requested URL once a session cookie is set (GET, HEAD). */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The same, for other methods. */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            500: components["responses"]["Error"];
        };
    };
    verifyForwardAuthHead: {
        parameters: {
            query: {
                /** @description The panel service id. */
                service: string;
            };
            header: {
                "X-Forwarded-Host": string;
                "X-Forwarded-Method": string;
                "X-Forwarded-Proto": string;
                "X-Forwarded-Uri": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Let through. Remote-User (and, after single sign-on, Remote-Email, Remote-Name, Remote-Groups) name who. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description To the sign-in, or back to the requested URL once a session cookie is set (GET, HEAD). */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The same, for other methods. */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            500: components["responses"]["Error"];
        };
    };
    listBackups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackupStatus"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createBackup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new backup */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Backup"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteBackup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    downloadBackup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archive (tar.gz, manifest.json first) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    putBackupSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackupSchedule"];
            };
        };
        responses: {
            /** @description The schedule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackupSchedule"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getCluster: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The replicas */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClusterView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settings"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Settings"];
            };
        };
        responses: {
            /** @description Saved, as normalised. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settings"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getPortalSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSettings"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putPortalSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PortalSettings"];
            };
        };
        responses: {
            /** @description Saved, as normalised. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSettings"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listContainers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContainerList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listContainerBindings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContainerBindingList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    detachContainerBinding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                serviceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Detached. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createServiceFromContainer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContainerServiceRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContainerServiceCreated"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listCredentialSets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["CredentialSet"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createCredentialSet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CredentialSetRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialSet"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getCredentialSet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialSet"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    updateCredentialSet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CredentialSetRequest"];
            };
        };
        responses: {
            /** @description Saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialSet"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deleteCredentialSet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listDomains: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createDomain: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DomainRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    updateDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DomainRequest"];
            };
        };
        responses: {
            /** @description Saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deleteDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    exportConfiguration: {
        parameters: {
            query?: {
                /** @description List the people of the directory and the groups (without passwords). */
                admins?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document, as an attachment gatehouse-export-YYYYMMDD-HHMMSS.json. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportDocument"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    exportConfigurationSealed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExportRequest"];
            };
        };
        responses: {
            /** @description The document with a "sealed" field (ASCII-armored age file, scrypt recipient). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportDocument"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listGroups: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every group, by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Group"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createGroup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupWrite"];
            };
        };
        responses: {
            /** @description The new group. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deleteGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    updateGroup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupWrite"];
            };
        };
        responses: {
            /** @description The group after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    addGroupMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupMemberAdd"];
            };
        };
        responses: {
            /** @description The group with its members. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Group"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    removeGroupMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                personId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The panel answers and its database too. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description The database does not answer. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    importConfiguration: {
        parameters: {
            query?: {
                apply?: boolean;
                /** @description The digest of the reviewed plan (sha256:...). */
                digest?: string;
                /** @description auto, gatehouse, or a reader: npm, traefik. */
                format?: string;
                mode?: "merge" | "replace";
            };
            header?: {
                /** @description Opens the document's sealed secrets. */
                "X-Gatehouse-Passphrase"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description The plan (applied or not). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportPlan"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invitations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationCreate"];
            };
        };
        responses: {
            /** @description The invitation and its link. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationCreated"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationAccept"];
            };
        };
        responses: {
            /** @description Accepted; the person signs in with their username. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        username: string;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
        };
    };
    beginInvitationPasskey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationToken"];
            };
        };
        responses: {
            /** @description Options for navigator.credentials.create and the ceremony's challenge. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        challenge: string;
                        options: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            400: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
        };
    };
    previewInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationToken"];
            };
        };
        responses: {
            /** @description The invited person. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationPreview"];
                };
            };
            400: components["responses"]["Error"];
            404: components["responses"]["Error"];
        };
    };
    listMachineTokens: {
        parameters: {
            query?: {
                /** @description Only tokens that open this service. */
                serviceId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineTokenList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createMachineToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MachineTokenCreate"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineTokenCreated"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getMachineToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineToken"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deleteMachineToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    revokeMachineToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineToken"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listNotificationChannels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channels */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["NotificationChannel"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    createNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationChannelRequest"];
            };
        };
        responses: {
            /** @description The new channel */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannel"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannel"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    updateNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationChannelRequest"];
            };
        };
        responses: {
            /** @description The channel */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationChannel"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    deleteNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    testNotificationChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The outcome (a failed delivery is ok=false with the error, without secrets) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationTestResult"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getNotificationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationSettings"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    putNotificationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationSettings"];
            };
        };
        responses: {
            /** @description The stored settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationSettings"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listOidcClients: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcClientList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createOidcClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OidcClientInput"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcClientWithSecret"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getOidcClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcClient"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    updateOidcClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OidcClientInput"];
            };
        };
        responses: {
            /** @description Updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcClient"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deleteOidcClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    rotateOidcClientSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcClientWithSecret"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listOidcPresets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OidcPresetList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getOpenAPI: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 description of the whole API. */
            200: {
                headers: {
                    /** @description Changes when the document changes. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Not modified (If-None-Match matched the ETag). */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    passwordResetAvailable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Availability. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        available: boolean;
                    };
                };
            };
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description The password is set. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
        };
    };
    checkPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationToken"];
            };
        };
        responses: {
            /** @description The link works. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            404: components["responses"]["Error"];
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    login: string;
                };
            };
        };
        responses: {
            /** @description If the account exists and has an e-mail address, a link is on its way. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listPeople: {
        parameters: {
            query?: {
                /** @description Only the members of this group. */
                groupId?: string;
                limit?: number;
                offset?: number;
                panelRole?: components["schemas"]["PanelRole"];
                /** @description Matches the start of the username, e-mail address or display name, any case (ann finds Ann Smith, not Joanna). */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of people, by username. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonPage"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createPerson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PersonCreate"];
            };
        };
        responses: {
            /** @description The new person. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Person"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getPerson: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The person. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Person"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deletePerson: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    updatePerson: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PersonUpdate"];
            };
        };
        responses: {
            /** @description The person after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Person"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listPersonAppPasswords: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app passwords, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppPasswordList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    revokePersonAppPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                passwordId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; it stops working from the next request. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    unlinkPerson: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The person, without the link. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Person"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    setPersonPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PersonPassword"];
            };
        };
        responses: {
            /** @description Set; every session of that person ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    resetPersonSecondFactor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; the person signs in with their password and enrols again. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listPersonServiceSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sessions, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AccessSession"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    endPersonServiceSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended, on every replica. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listPersonSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sessions, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSessionList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    endPersonSessions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    endPersonSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getPortal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalInfo"];
                };
            };
        };
    };
    portalContinue: {
        parameters: {
            query: {
                /** @description The address the person asked for, on a service with the people protection. */
                rd: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the service with an exchange token, or to the sign-in page of the portal. */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            /** @description Refused; an HTML page for browsers, else the error envelope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                    "text/html": string;
                };
            };
            500: components["responses"]["Error"];
        };
    };
    portalOIDCDevice: {
        parameters: {
            query: {
                userCode: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        app: components["schemas"]["OIDCApp"];
                        scopes: string[];
                        /** @description The app asks for a second factor and the person has none enrolled: they add one on their account page (/account on the portal), then open the app again. Approving answers 403. */
                        secondFactorMissing: boolean;
                        /** @description Empty, or a relative portal address to send the browser to: the app asks for a second factor or a fresher sign-in than this portal session has. Approving answers 403 meanwhile. */
                        signInAgain: string;
                    };
                };
            };
            401: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    portalOIDCDeviceAnswer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    approve: boolean;
                    userCode: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approved: boolean;
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    portalOIDCRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OIDCRequestInfo"];
                };
            };
            401: components["responses"]["Error"];
            404: components["responses"]["Error"];
        };
    };
    portalOIDCConsent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    approve: boolean;
                };
            };
        };
        responses: {
            /** @description Where the browser goes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OIDCNext"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
        };
    };
    portalServices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LauncherList"];
                };
            };
            401: components["responses"]["Error"];
        };
    };
    portalServiceSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OwnServiceSessionList"];
                };
            };
            401: components["responses"]["Error"];
        };
    };
    endPortalServiceSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out of that service. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            404: components["responses"]["Error"];
        };
    };
    finishPortalSSO: {
        parameters: {
            query?: {
                code?: string;
                error?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the portal's sign-in page, signed in or with an error code. */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    startPortalSSO: {
        parameters: {
            query?: {
                rd?: string;
                remember?: "1";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider's authorization endpoint, or to /login?error=<code>. */
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            default: components["responses"]["Error"];
        };
    };
    listProxyCertResolvers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyCertResolversView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    certTrigger: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A blank page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    listProxyCertificates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyCertificatesView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getDynamicConfig: {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The configuration, in Traefik's dynamic-configuration JSON. */
            200: {
                headers: {
                    /** @description Changes when the configuration changes. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TraefikDynamicConfig"];
                };
            };
            /** @description Not modified. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            503: components["responses"]["Error"];
        };
    };
    previewServiceConfig: {
        parameters: {
            query: {
                serviceId: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceConfigPreview"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listProxyConflicts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyConflictsView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listProxyEntrypoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyEntrypointsView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getProxyHealth: {
        parameters: {
            query?: {
                /** @description Also connect to each server directly. */
                probe?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyHealthView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getMaintenancePage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            404: components["responses"]["Error"];
            /** @description The page, with the service's message; Retry-After and Cache-Control no-store. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    getManaged: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ManagedState"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putManaged: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ManagedConfig"];
            };
        };
        responses: {
            /** @description Saved; the wrapper restarts Traefik with it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ManagedState"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listManagedDNSProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ManagedDNSProvider"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getManagedReplicas: {
        parameters: {
            query?: never;
            header: {
                /** @description Bearer and the wrapper token. */
                Authorization: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Traefik dynamic configuration for its file provider. */
            200: {
                headers: {
                    /** @description Hash of the document. */
                    "X-Gatehouse-Replicas-Hash"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/yaml": string;
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putManagedSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    remove?: components["schemas"]["CredentialName"][] | null;
                    /** @description Variable name to value. */
                    upsert?: {
                        [key: string]: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description The stored credentials' names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        credentials: components["schemas"]["ManagedCredential"][];
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getManagedSecretsEnv: {
        parameters: {
            query?: never;
            header: {
                /** @description Bearer and the wrapper token. */
                Authorization: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description KEY=value lines. */
            200: {
                headers: {
                    /** @description Keyed hash of the file. */
                    "X-Gatehouse-Secrets-Hash"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    reportManagedApplied: {
        parameters: {
            query?: never;
            header: {
                /** @description Bearer and the wrapper token. */
                Authorization: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    configHash: string;
                    /** @description Set when the wrapper went back from a configuration Traefik would not run. */
                    rejected?: {
                        configHash?: string;
                        reason?: string;
                        secretsHash?: string;
                    } | null;
                    secretsHash: string;
                };
            };
        };
        responses: {
            /** @description Recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        appliedAt: string | null;
                        rejection: components["schemas"]["ManagedRejection"];
                        status: components["schemas"]["ManagedApplyStatus"];
                    };
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getProxyMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyMetricsView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    listProxyMiddlewares: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyMiddlewaresView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getProxyRuntime: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyRuntimeView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
            500: components["responses"]["Error"];
        };
    };
    getManagedStaticConfig: {
        parameters: {
            query?: never;
            header?: {
                /** @description Bearer and the wrapper token. */
                Authorization?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Traefik's static configuration file. */
            200: {
                headers: {
                    /** @description Hash of the document. */
                    "X-Gatehouse-Config-Hash"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/yaml": string;
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getProxyStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The status view */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyStatusView"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    checkProxyConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connection test */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyConnectionCheck"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    registrationAvailable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Availability. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        available: boolean;
                    };
                };
            };
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    username: string;
                };
            };
        };
        responses: {
            /** @description If the account can be created, a link is on its way. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getRegistrationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistrationSettings"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putRegistrationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegistrationSettings"];
            };
        };
        responses: {
            /** @description The saved settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegistrationSettings"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listServices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceList"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createService: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServiceRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Service"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Service"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    updateService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServiceRequest"];
            };
        };
        responses: {
            /** @description Saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Service"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deleteService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    patchService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServicePatch"];
            };
        };
        responses: {
            /** @description Saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Service"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getServiceAccess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccess"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putServiceAccess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServiceAccessInput"];
            };
        };
        responses: {
            /** @description Saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccess"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listServiceAccessLog: {
        parameters: {
            query?: {
                /** @description An IP address or a CIDR. */
                address?: string;
                /** @description Only entries with a larger seq. */
                after?: number;
                decision?: "allowed" | "authenticated" | "denied" | "unauthenticated" | "forbidden" | "rate_limited";
                /** @description A substring of the identity, case-insensitive. */
                identity?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessLogPage"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    testServiceAccess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccessTestRequest"];
            };
        };
        responses: {
            /** @description The decision and the rules that led to it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessTestResult"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getServiceProtection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProtectionSettings"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putServiceProtection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProtectionSettings"];
            };
        };
        responses: {
            /** @description Saved; the protections as stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProtectionSettings"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listSecurityConfigs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["SecurityConfig"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    upsertSecurityConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SecurityConfigRequest"];
            };
        };
        responses: {
            /** @description Saved. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecurityConfig"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deleteSecurityConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
                type: components["schemas"]["SecurityConfigType"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listSharedLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["SharedLink"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    createSharedLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SharedLinkRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedLink"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            409: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    revokeSharedLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The service id. */
                id: string;
                linkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getServiceTraffic: {
        parameters: {
            query?: {
                /** @description Start of the range (RFC 3339); default: to minus range. */
                from?: string;
                range?: "1h" | "24h" | "7d" | "30d";
                /** @description End of the range (RFC 3339); default: now. */
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrafficSeries"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listAccessSessions: {
        parameters: {
            query?: {
                serviceId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AccessSession"][];
                    };
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deleteAccessSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    deleteAccessSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            404: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getSSOSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SSOSettings"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    putSSOSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SSOSettingsRequest"];
            };
        };
        responses: {
            /** @description Saved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SSOSettings"];
                };
            };
            400: components["responses"]["Error"];
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            413: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getSystem: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SystemInfo"];
                };
            };
            500: components["responses"]["Error"];
        };
    };
    getPanelSystemInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The system view */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PanelSystemInfo"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    getTraffic: {
        parameters: {
            query?: {
                /** @description Start of the range (RFC 3339); default: to minus range. */
                from?: string;
                range?: "1h" | "24h" | "7d" | "30d";
                /** @description End of the range (RFC 3339); default: now. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrafficSeries"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
    listServicesTraffic: {
        parameters: {
            query?: {
                /** @description Start of the range (RFC 3339); default: to minus range. */
                from?: string;
                /** @description Sparkline points. */
                points?: number;
                range?: "1h" | "24h" | "7d" | "30d";
                /** @description End of the range (RFC 3339); default: now. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServicesTraffic"];
                };
            };
            401: components["responses"]["Error"];
            403: components["responses"]["Error"];
            422: components["responses"]["Error"];
            429: components["responses"]["Error"];
        };
    };
}
