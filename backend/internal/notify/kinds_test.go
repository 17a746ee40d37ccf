package notify

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/nicholas-fedor/shoutrrr"
)

// TestEveryKindKeepsItsSecrets creates a channel of each kind: the answer
// names the stored secrets and never shows them, on create, get and list.
func TestEveryKindKeepsItsSecrets(t *testing.T) {
	v := newEnv(t)
	tests := []struct {
		kind     ChannelKind
		settings map[string]any
		secrets  map[string]any
		set      string
	}{
		{Ntfy, map[string]any{"host": "ntfy.example.com", "topic": "alerts"}, map[string]any{"token": "tk_ntfysecret0001"}, `["token"]`}, //nolint:gosec // made-up test secrets
		{Ntfy, map[string]any{"host": "ntfy.example.com", "topic": "alerts", "username": "ops"}, map[string]any{"password": "ntfy-pass-secret"}, `["password"]`},
		{Gotify, map[string]any{"host": "gotify.example.com", "path": "/gotify"}, map[string]any{"token": "AgotifySecret01"}, `["token"]`},
		{Discord, nil, map[string]any{"webhookUrl": "https://discord.com/api/webhooks/123456/discordSecretToken"}, `["webhookUrl"]`},
		{Slack, nil, map[string]any{"webhookUrl": "https://hooks.slack.com/services/T00000001/B00000001/slackSecretXYZslackSecret"}, `["webhookUrl"]`}, //nolint:gosec // made-up test secrets
		{Telegram, map[string]any{"chatIds": []string{"-100123", "@opschannel"}}, map[string]any{"token": "123456:telegramSecretTokenValue"}, `["token"]`},
		{Email, map[string]any{"host": "smtp.example.com", "port": 587, "username": "ops", "encryption": "starttls", "from": "a@example.com", "to": []string{"b@example.com"}},
			map[string]any{"password": "smtp-pass-secret"}, `["password"]`},
	}
	for i, tc := range tests {
		t.Run(string(tc.kind), func(t *testing.T) {
			code, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels", map[string]any{
				"name": "c" + strconv.Itoa(i), "kind": tc.kind, "settings": tc.settings, "secrets": tc.secrets})
			if code != http.StatusCreated {
				t.Fatalf("create: %d %s", code, raw)
			}
			_, _, got := v.do(t, http.MethodGet, "/api/notifications/channels/"+body["id"].(string), nil)
			_, _, list := v.do(t, http.MethodGet, "/api/notifications/channels", nil)
			for _, s := range tc.secrets {
				secret := s.(string)
				if u, err := url.Parse(secret); err == nil && u.Scheme != "" {
					secret = u.Path[strings.LastIndex(u.Path, "/")+1:] // the key part
				}
				for _, answer := range []string{raw, got, list} {
					if strings.Contains(answer, secret) {
						t.Fatalf("secret %q in %s", secret, answer)
					}
				}
			}
			if !strings.Contains(raw, `"secretsSet":`+tc.set) {
				t.Fatalf("secretsSet not %s: %s", tc.set, raw)
			}
		})
	}
}

// TestPushKindsReachALocalServer sends tests through ntfy and Gotify to a
// local server: the URL built from the typed fields reaches the right path
// with the right credentials.
func TestPushKindsReachALocalServer(t *testing.T) {
	v := newEnv(t)
	r := newReceiver(t)
	var auth []string
	r.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.path = append(r.path, req.URL.Path)
		auth = append(auth, req.Header.Get("Authorization")+"|"+req.Header.Get("X-Gotify-Key")+"|"+req.URL.Query().Get("token"))
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":1}`))
	})
	host, portText, _ := net.SplitHostPort(r.Listener.Addr().String())
	port, _ := strconv.Atoi(portText)
	tests := []struct {
		kind     ChannelKind
		settings map[string]any
		secrets  map[string]any
		path     string
		auth     string
	}{
		{Ntfy, map[string]any{"host": host, "port": port, "plainHttp": true, "topic": "alerts", "username": "ops"},
			map[string]any{"password": "p@ss:word/?"}, "/alerts", "Basic b3BzOnBAc3M6d29yZC8/||"},
		{Gotify, map[string]any{"host": host, "port": port, "plainHttp": true, "path": "/gotify"},
			// shoutrrr keeps the slash before the token in the sub-path.
			map[string]any{"token": "AgotifySecret01"}, "/gotify//message", "||"},
	}
	for i, tc := range tests {
		t.Run(string(tc.kind), func(t *testing.T) {
			_, body, raw := v.do(t, http.MethodPost, "/api/notifications/channels", map[string]any{
				"name": "push" + strconv.Itoa(i), "kind": tc.kind, "settings": tc.settings, "secrets": tc.secrets})
			id, _ := body["id"].(string)
			if id == "" {
				t.Fatal(raw)
			}
			if _, res, raw := v.do(t, http.MethodPost, "/api/notifications/channels/"+id+"/test", nil); res["ok"] != true {
				t.Fatalf("test: %s", raw)
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			if got := r.path[len(r.path)-1]; got != tc.path {
				t.Fatalf("path %s, want %s", got, tc.path)
			}
			if tc.kind == Ntfy && auth[len(auth)-1] != tc.auth {
				t.Fatalf("auth %q, want %q", auth[len(auth)-1], tc.auth)
			}
			if tc.kind == Gotify && auth[len(auth)-1] != "|AgotifySecret01|" {
				t.Fatalf("gotify token not sent in its header alone: %q", auth[len(auth)-1])
			}
		})
	}
}

// TestShoutrrrAcceptsEveryKind: shoutrrr parses the URL built for each kind
// (the ones whose servers are fixed hosts cannot be reached from a test).
func TestShoutrrrAcceptsEveryKind(t *testing.T) {
	tests := []struct {
		kind ChannelKind
		st   ChannelSettings
		sec  ChannelSecrets
	}{
		{Ntfy, ChannelSettings{Host: "ntfy.sh", Topic: "alerts"}, ChannelSecrets{Token: "tk_abc"}},
		{Gotify, ChannelSettings{Host: "gotify.example.com", Port: 8443}, ChannelSecrets{Token: "AgotifySecret01"}},
		{Discord, ChannelSettings{}, ChannelSecrets{WebhookURL: "https://discord.com/api/webhooks/123456/tok-en_1"}},
		{Slack, ChannelSettings{}, ChannelSecrets{WebhookURL: "https://hooks.slack.com/services/T00000001/B00000001/abcdefghijklmnopqrstuvwx"}}, //nolint:gosec // a made-up webhook
		{Telegram, ChannelSettings{ChatIDs: []string{"-100123", "@opschannel"}}, ChannelSecrets{Token: "123456:ABCdefGHIjklMNOpqrSTUvwx"}},
		{Email, ChannelSettings{Host: "smtp.example.com", Port: 465, Username: "ops", From: "a@example.com", To: []string{"b@example.com", "c@example.com"}, Encryption: "tls"}, ChannelSecrets{Password: "p@ss"}},
		{Webhook, ChannelSettings{}, ChannelSecrets{WebhookURL: "https://hooks.example.com/in?key=abc&title=kept"}},
	}
	for _, tc := range tests {
		t.Run(string(tc.kind), func(t *testing.T) {
			if err := check(tc.kind, tc.st, tc.sec); err != nil {
				t.Fatal(err)
			}
			u, err := serviceURL(tc.kind, tc.st, tc.sec)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := shoutrrr.CreateSender(u); err != nil {
				t.Fatalf("shoutrrr refuses the %s URL: %v", tc.kind, scrub(err.Error(), u, tc.sec))
			}
		})
	}
}
