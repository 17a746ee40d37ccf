package notify

import (
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/nicholas-fedor/shoutrrr/pkg/services/specialized/generic"
)

// FuzzServiceURL checks that no field value reaches another part of the
// built URL: parsing the URL back gives every field exactly as entered.
func FuzzServiceURL(f *testing.F) {
	f.Add("ops", "p@ss:w/ord?#", "tok", "alerts", "mail.example.com", 587, "https://h.example/p?a=1&template=x")
	f.Add("a@b", "%2F", "", "t", "10.0.0.1", 0, "http://h.example:8080/a%2Fb?title=t&@x=1")
	f.Add("", "", "x&y=z", "t_1", "::1", 25, "https://h/")
	f.Fuzz(func(t *testing.T, user, pass, token, topic, host string, port int, hook string) {
		st := ChannelSettings{Host: host, Port: port, Topic: topic, Username: user}
		sec := ChannelSecrets{Password: pass, Token: token}
		if check(Ntfy, st, sec) == nil {
			u := mustParse(t, Ntfy, st, sec)
			if u.Hostname() != host || u.Path != "/"+topic || u.Query().Get("scheme") != "https" || len(u.Query()) != 1 {
				t.Fatalf("ntfy URL %s from host %q topic %q", u, host, topic)
			}
			if port != 0 && u.Port() != strconv.Itoa(port) {
				t.Fatalf("ntfy port %s", u.Port())
			}
			gotUser, gotPass := u.User.Username(), ""
			if p, ok := u.User.Password(); ok {
				gotPass = p
			}
			wantPass := pass
			if user == "" {
				wantPass = token
			}
			if (user != "" || token != "") && (gotUser != user || gotPass != wantPass) {
				t.Fatalf("ntfy credentials %q %q, want %q %q", gotUser, gotPass, user, wantPass)
			}
		}
		est := ChannelSettings{Host: host, Port: port, Username: user, From: "a@example.com", To: []string{"b@example.com"}}
		if check(Email, est, sec) == nil {
			u := mustParse(t, Email, est, sec)
			q := u.Query()
			if u.Hostname() != host || q.Get("fromaddress") != "a@example.com" || q.Get("toaddresses") != "b@example.com" || len(q) != 5 {
				t.Fatalf("smtp URL %s", u)
			}
			if user != "" {
				if p, _ := u.User.Password(); u.User.Username() != user || p != pass {
					t.Fatalf("smtp credentials changed: %s", u)
				}
			}
		}
		wsec := ChannelSecrets{WebhookURL: hook}
		if check(Webhook, ChannelSettings{}, wsec) == nil {
			u := mustParse(t, Webhook, ChannelSettings{}, wsec)
			// shoutrrr's own reading of the URL must give back the webhook.
			cfg, _ := generic.DefaultConfig()
			if err := cfg.SetURL(u); err != nil {
				t.Fatalf("shoutrrr refuses %s: %v", u, err)
			}
			orig, _ := url.Parse(hook)
			got := cfg.WebhookURL()
			if got.Host != orig.Host || got.Path != orig.Path || cfg.Template != "json" {
				t.Fatalf("webhook %s read back as %s (template %q)", hook, got, cfg.Template)
			}
			if !sameQuery(got.Query(), orig.Query()) {
				t.Fatalf("webhook query %v read back as %v", orig.Query(), got.Query())
			}
		}
	})
}

func mustParse(t *testing.T, k ChannelKind, st ChannelSettings, sec ChannelSecrets) *url.URL {
	t.Helper()
	raw, err := serviceURL(k, st, sec)
	if err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%s URL %q does not parse: %v", k, raw, err)
	}
	return u
}

func sameQuery(a, b url.Values) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}
