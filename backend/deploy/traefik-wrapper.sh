#!/bin/sh
# Gatehouse managed-mode wrapper for Traefik.
#
# Runs as the entrypoint of the official traefik image (busybox ash; any POSIX
# sh works). It polls the panel for Traefik's static configuration and the DNS
# credentials, writes them to GATEHOUSE_CONFIG_DIR, starts Traefik with the
# credentials in Traefik's environment only, restarts Traefik when either
# changes, and reports the hashes it runs so the panel can show "applied".
# It also fetches replicas.yml, the load balancer over the panel's replicas
# (PANEL_REPLICA_URLS), which Traefik's file provider watches: a change there
# needs no restart.
#
# Environment:
#   GATEHOUSE_URL                  the panel as seen from this container (default http://gatehouse:8080);
#                                  with replicas, each one's URL separated by spaces, tried in order
#   GATEHOUSE_WRAPPER_TOKEN[_FILE] shared token, same as the panel's PANEL_WRAPPER_TOKEN
#   GATEHOUSE_POLL_INTERVAL        seconds between polls (default 30)
#   GATEHOUSE_CONFIG_DIR           where the files go (default /tmp/gatehouse; a tmpfs is best); with
#                                  replicas, the panels' PANEL_MANAGED_CONFIG_DIR (default /run/gatehouse)
#   GATEHOUSE_FALLBACK_WEB_ADDRESS entrypoint "web" of the boot fallback (default :80)
#   GATEHOUSE_FALLBACK_API_ADDRESS entrypoint "traefik" of the boot fallback (default :8080)
#   TRAEFIK_BIN                    the Traefik binary (default traefik)
#
# The static configuration can hold the token Traefik's HTTP provider sends
# to the panel (providers.http.headers): like the credentials, it is written
# with umask 077 and never logged, and the panel serves it to the wrapper
# token only.
#
# Every fetch and report tries the URLs in order until one answers; all
# replicas serve the same files. Fetch failures keep the last good files. If
# the panel is unreachable at boot and no earlier file exists, a minimal
# configuration (HTTP provider pointing at the first URL, web on :80) is used
# until the panel answers. SIGTERM/SIGINT are
# forwarded to Traefik; the wrapper exits with Traefik's exit code. If Traefik
# exits within seconds of a restart on a new configuration (a port already in
# use, ...), the previous configuration is restored and the new one is not
# retried until it changes; the panel then shows "rejected" with the reason.
set -u

log() { printf '%s gatehouse-wrapper: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >&2; }
die() { log "$*"; exit 2; }

# The URLs are split on blanks below: no pattern in them may expand.
set -f
URLS=
for u in ${GATEHOUSE_URL:-http://gatehouse:8080}; do
	case $u in http://?* | https://?*) ;; *) die "GATEHOUSE_URL: $u is not an http:// or https:// URL" ;; esac
	URLS="$URLS ${u%/}"
done
[ -n "$URLS" ] || die "GATEHOUSE_URL names no panel"
URLS=${URLS# }
URL=${URLS%% *} # the first, for the boot fallback
POLL=${GATEHOUSE_POLL_INTERVAL:-30}
DIR=${GATEHOUSE_CONFIG_DIR:-/tmp/gatehouse}
TRAEFIK=${TRAEFIK_BIN:-traefik}
FALLBACK_WEB=${GATEHOUSE_FALLBACK_WEB_ADDRESS:-:80}
FALLBACK_API=${GATEHOUSE_FALLBACK_API_ADDRESS:-:8080}

case $POLL in '' | *[!0-9]* | 0) die "GATEHOUSE_POLL_INTERVAL must be a whole number of seconds, at least 1" ;; esac
if [ -n "${GATEHOUSE_WRAPPER_TOKEN_FILE:-}" ]; then
	TOKEN=$(cat "$GATEHOUSE_WRAPPER_TOKEN_FILE") || die "cannot read GATEHOUSE_WRAPPER_TOKEN_FILE"
else
	TOKEN=${GATEHOUSE_WRAPPER_TOKEN:-}
fi
[ -n "$TOKEN" ] || log "GATEHOUSE_WRAPPER_TOKEN is not set: DNS credentials cannot be fetched and the panel will show 'pending'"
# Keep the token out of Traefik's environment (TOKEN itself is not exported).
unset GATEHOUSE_WRAPPER_TOKEN GATEHOUSE_WRAPPER_TOKEN_FILE
if [ $# -gt 0 ]; then log "ignoring arguments ($*): Traefik's static configuration comes from the panel"; fi

if command -v curl >/dev/null 2>&1; then
	HTTP=curl
elif command -v wget >/dev/null 2>&1; then
	HTTP=wget
else
	die "neither curl nor wget is available"
fi

umask 077
mkdir -p "$DIR" || die "cannot create $DIR"
CONF=$DIR/traefik.yml
ENVF=$DIR/credentials.env
REPF=$DIR/replicas.yml

# http_get URL OUT: download URL to OUT, with the token. Non-2xx fails.
http_get() {
	if [ "$HTTP" = curl ]; then
		# The header goes through stdin (-K -), so the token is not in argv.
		printf 'header = "Authorization: Bearer %s"\n' "$TOKEN" |
			curl -fsS --connect-timeout 5 --max-time 15 -K - -o "$2" "$1" 2>/dev/null
	else
		wget -q -T 15 -O "$2" --header "Authorization: Bearer $TOKEN" "$1" 2>/dev/null
	fi
}

# http_post_json URL BODY
http_post_json() {
	if [ "$HTTP" = curl ]; then
		printf 'header = "Authorization: Bearer %s"\n' "$TOKEN" |
			curl -fsS --connect-timeout 5 --max-time 15 -K - -H 'Content-Type: application/json' --data "$2" -o /dev/null "$1" 2>/dev/null
	else
		wget -q -T 15 -O /dev/null --header "Authorization: Bearer $TOKEN" \
			--header 'Content-Type: application/json' --post-data "$2" "$1" 2>/dev/null
	fi
}

# file_hash KIND FILE: the hash the panel wrote on the file's marker line.
file_hash() {
	[ -f "$2" ] || return 0
	sed -n "s/^# gatehouse-$1-hash: \([0-9a-f]*\)\$/\1/p" "$2" | head -n 1
}

# get_any PATH OUT: download PATH from the first panel URL that answers;
# FROM names it.
get_any() {
	for u in $URLS; do
		if http_get "$u$1" "$2"; then
			FROM=$u
			return 0
		fi
	done
	return 1
}

# post_any PATH BODY: post to the first panel URL that answers.
post_any() {
	for u in $URLS; do
		http_post_json "$u$1" "$2" && return 0
	done
	return 1
}

# fetch KIND PATH FILE: download to FILE.new and move it into place if it
# is complete and valid. On failure the previous FILE is kept.
fetch() {
	tmp=$3.new
	if ! get_any "$2" "$tmp"; then
		rm -f "$tmp"
		return 1
	fi
	h=$(file_hash "$1" "$tmp")
	if [ ${#h} -ne 64 ]; then
		log "the panel's $1 answer has no hash line; keeping the previous file"
		rm -f "$tmp"
		return 1
	fi
	if [ "$1" = secrets ] && ! sh -n "$tmp" 2>/dev/null; then
		log "the panel's credentials file does not parse; keeping the previous file"
		rm -f "$tmp"
		return 1
	fi
	mv -f "$tmp" "$3"
}

poll() {
	if ! fetch config /api/proxy/static-config "$CONF"; then
		[ "$CONFIG_OK" = no ] || log "cannot fetch the static configuration from $URLS; keeping the last good one"
		CONFIG_OK=no
	else
		[ "$CONFIG_OK" = yes ] || log "static configuration fetched from $FROM"
		CONFIG_OK=yes
	fi
	if [ -z "$TOKEN" ]; then
		return
	fi
	if ! fetch secrets /api/proxy/managed/secrets-env "$ENVF"; then
		[ "$SECRETS_OK" = no ] || log "cannot fetch the DNS credentials from $URLS; keeping the last good ones"
		SECRETS_OK=no
	else
		SECRETS_OK=yes
	fi
	# Written in place (a rename): Traefik's file provider picks it up.
	if ! fetch replicas /api/proxy/managed/replicas "$REPF"; then
		[ "$REPLICAS_OK" = no ] || log "cannot fetch the replicas' load balancer from $URLS; keeping the last good one"
		REPLICAS_OK=no
	else
		REPLICAS_OK=yes
	fi
}

write_fallback() {
	cat >"$CONF" <<EOF
# Minimal configuration used because the panel was unreachable at boot.
log:
  level: INFO
api:
  dashboard: true
  insecure: true
ping:
  entryPoint: traefik
entryPoints:
  traefik:
    address: "$FALLBACK_API"
  web:
    address: "$FALLBACK_WEB"
providers:
  http:
    endpoint: "$URL/api/proxy/config"
    pollInterval: 5s
EOF
}

# acme_dirs: Traefik does not create the directory of an ACME storage file
# and skips the resolver when it is missing.
acme_dirs() {
	sed -n 's/^ *storage: *["'\'']\{0,1\}\([^"'\'']*\)["'\'']\{0,1\} *$/\1/p' "$CONF" | while IFS= read -r f; do
		d=$(dirname "$f")
		[ -d "$d" ] || mkdir -p "$d" || log "cannot create the ACME storage directory $d"
	done
}

start_traefik() {
	[ -f "$ENVF" ] || : >"$ENVF"
	acme_dirs
	RUN_CONFIG=$(file_hash config "$CONF")
	RUN_SECRETS=$(file_hash secrets "$ENVF")
	cp -f "$CONF" "$CONF.running" && cp -f "$ENVF" "$ENVF.running"
	# The credentials are sourced in the child only, right before exec: they
	# end up in Traefik's environment and never in the wrapper's.
	(
		trap - USR1 TERM INT
		. "$ENVF"
		exec "$TRAEFIK" --configFile="$CONF"
	) &
	TPID=$!
	UP=0
	REPORTED=no
	log "started traefik (pid $TPID)"
}

# stop_traefik SIGNAL: signal Traefik and wait for it (SIGKILL after 30 s);
# sets CODE to its exit status.
stop_traefik() {
	kill -"$1" "$TPID" 2>/dev/null
	waited=0
	while :; do
		EVENT=
		wait "$TPID"
		CODE=$?
		[ -n "$EVENT" ] || break
		waited=$((waited + 1))
		if [ "$waited" -eq 30 ]; then
			log "traefik did not stop within 30s; killing it"
			kill -KILL "$TPID" 2>/dev/null
		fi
	done
}

report() {
	if [ -z "$TOKEN" ] || [ ${#RUN_CONFIG} -ne 64 ] || [ ${#RUN_SECRETS} -ne 64 ]; then
		return
	fi
	if [ -n "$REJECTED" ]; then
		body=$(printf '{"configHash":"%s","secretsHash":"%s","rejected":{"configHash":"%s","secretsHash":"%s","reason":"%s"}}' \
			"$RUN_CONFIG" "$RUN_SECRETS" "${REJECTED% *}" "${REJECTED#* }" "$REJECT_REASON")
	else
		body=$(printf '{"configHash":"%s","secretsHash":"%s"}' "$RUN_CONFIG" "$RUN_SECRETS")
	fi
	if post_any /api/proxy/managed/wrapper-report "$body"; then
		REPORTED=yes
		log "reported the running configuration to the panel"
	elif [ "$REPORTED" = no ]; then
		REPORTED=failed
		log "cannot report to the panel (check GATEHOUSE_WRAPPER_TOKEN); retrying at every poll"
	fi
}

CONFIG_OK=unknown
SECRETS_OK=unknown
REPLICAS_OK=unknown
RESTARTED=no
REJECTED=
REJECT_REASON=
EVENT=
STOP=
trap '[ -n "$EVENT" ] || EVENT=tick' USR1
trap 'STOP=TERM EVENT=stop' TERM
trap 'STOP=INT EVENT=stop' INT

poll
if [ "$CONFIG_OK" != yes ]; then
	RUN_CONFIG=$(file_hash config "$CONF")
	if [ ${#RUN_CONFIG} -eq 64 ]; then
		log "the panel is unreachable; starting with the last good configuration"
	else
		log "the panel is unreachable and there is no earlier configuration; starting with a minimal one"
		write_fallback
	fi
fi
start_traefik

# A ticker wakes the main loop every second (wait returns on a trapped
# signal); it stops when the wrapper is gone.
WRAPPER_PID=$$
(
	trap - USR1 TERM INT
	while kill -0 "$WRAPPER_PID" 2>/dev/null; do
		sleep 1
		kill -USR1 "$WRAPPER_PID" 2>/dev/null || exit 0
	done
) &
TICKER=$!
trap 'kill "$TICKER" 2>/dev/null' EXIT

ticks=0
while :; do
	if [ -n "$STOP" ]; then
		log "received SIG$STOP; stopping traefik"
		stop_traefik TERM
		log "traefik stopped (exit code $CODE)"
		exit "$CODE"
	fi
	EVENT=
	wait "$TPID"
	CODE=$?
	if [ -z "$EVENT" ]; then
		if [ "$RESTARTED" = yes ] && [ "$UP" -lt 5 ] && [ "$CODE" -gt 0 ] && [ "$CODE" -lt 128 ] && [ -f "$CONF.prev" ]; then
			# The new configuration does not run (a port in use, ...): go back
			# to the one that did, and do not retry it until it changes. A
			# Traefik killed by a signal is not a configuration problem.
			log "traefik exited with code $CODE right after the new configuration; going back to the previous one (fix it in the panel)"
			REJECTED="$RUN_CONFIG $RUN_SECRETS"
			REJECT_REASON="Traefik exited with code $CODE within seconds of starting with it; the wrapper went back to the previous configuration"
			cp -f "$CONF.prev" "$CONF" && cp -f "$ENVF.prev" "$ENVF"
			RESTARTED=no
			start_traefik
			continue
		fi
		log "traefik exited with code $CODE"
		exit "$CODE"
	fi
	[ "$EVENT" = tick ] || continue
	UP=$((UP + 1))
	# Report once Traefik has stayed up a moment (a bad configuration makes
	# it exit at once), so "applied" means running.
	if [ "$REPORTED" = no ] && [ "$UP" -eq 2 ]; then
		report
	fi
	ticks=$((ticks + 1))
	[ "$ticks" -ge "$POLL" ] || continue
	ticks=0
	[ "$REPORTED" != failed ] || report
	poll
	fetched="$(file_hash config "$CONF") $(file_hash secrets "$ENVF")"
	if [ "$fetched" != "$RUN_CONFIG $RUN_SECRETS" ] && [ "$fetched" != "$REJECTED" ]; then
		log "the configuration changed; restarting traefik"
		cp -f "$CONF.running" "$CONF.prev" && cp -f "$ENVF.running" "$ENVF.prev"
		stop_traefik TERM
		[ -z "$STOP" ] || { log "traefik stopped (exit code $CODE)"; exit "$CODE"; }
		RESTARTED=yes
		start_traefik
	fi
done
