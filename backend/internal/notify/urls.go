package notify

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/nicholas-fedor/shoutrrr/pkg/format"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/specialized/generic"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/mail"
)

// ChannelKind is a delivery service.
type ChannelKind string

// The channel kinds.
const (
	Ntfy     ChannelKind = "ntfy"
	Gotify   ChannelKind = "gotify"
	Discord  ChannelKind = "discord"
	Slack    ChannelKind = "slack"
	Telegram ChannelKind = "telegram"
	Email    ChannelKind = "email"
	Webhook  ChannelKind = "webhook"
)

// ChannelKinds lists the kinds in display order.
var ChannelKinds = []ChannelKind{Ntfy, Gotify, Discord, Slack, Telegram, Email, Webhook}

// ChannelSettings are a channel's plain fields; each kind uses some of them.
type ChannelSettings struct {
	Host       string   `json:"host,omitempty"`       // ntfy, gotify, email
	Port       int      `json:"port,omitempty"`       // ntfy, gotify, email
	PlainHTTP  bool     `json:"plainHttp,omitempty"`  // ntfy, gotify: http instead of https
	Path       string   `json:"path,omitempty"`       // gotify: a sub-path it is served under
	Topic      string   `json:"topic,omitempty"`      // ntfy
	Username   string   `json:"username,omitempty"`   // ntfy, email
	ChatIDs    []string `json:"chatIds,omitempty"`    // telegram
	From       string   `json:"from,omitempty"`       // email
	To         []string `json:"to,omitempty"`         // email
	Encryption string   `json:"encryption,omitempty"` // email: none, starttls, tls
}

// ChannelSecrets are a channel's write-only fields.
type ChannelSecrets struct {
	Password   string `json:"password,omitempty"`   // ntfy, email
	Token      string `json:"token,omitempty"`      // ntfy (access token), gotify (app token), telegram (bot token)
	WebhookURL string `json:"webhookUrl,omitempty"` // discord, slack, webhook
}

// names lists the secrets that are set, for the API.
func (s ChannelSecrets) names() []string {
	out := []string{}
	for _, f := range [...]struct {
		name, v string
	}{{"password", s.Password}, {"token", s.Token}, {"webhookUrl", s.WebhookURL}} {
		if f.v != "" {
			out = append(out, f.name)
		}
	}
	return out
}

// merge keeps the stored secrets the request leaves empty.
func (s ChannelSecrets) merge(old ChannelSecrets) ChannelSecrets {
	if s.Password == "" {
		s.Password = old.Password
	}
	if s.Token == "" {
		s.Token = old.Token
	}
	if s.WebhookURL == "" {
		s.WebhookURL = old.WebhookURL
	}
	return s
}

// values lists the non-empty secrets, to scrub them from error messages.
func (s ChannelSecrets) values() []string {
	var out []string
	for _, v := range [...]string{s.Password, s.Token, s.WebhookURL} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

var (
	hostnameRE = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$`)
	topicRE    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	pathRE     = regexp.MustCompile(`^(/[A-Za-z0-9._~-]+)*/?$`)
	chatRE     = regexp.MustCompile(`^(-?[0-9]{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$`)
	tgTokenRE  = regexp.MustCompile(`^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$`)
	gotifyRE   = regexp.MustCompile(`^A[A-Za-z0-9._-]{14}$`)
	discordRE  = regexp.MustCompile(`^https://(?:discord\.com|discordapp\.com|canary\.discord\.com|ptb\.discord\.com)/api/webhooks/([0-9]{1,30})/([A-Za-z0-9_-]{1,200})/?$`)
	// Slack's webhook parts, as shoutrrr accepts them.
	slackRE = regexp.MustCompile(`^https://hooks\.slack\.com/services/([A-Z0-9]{9,40})/([A-Z0-9]{9,40})/([A-Za-z0-9]{24,80})/?$`)
)

// validHost accepts a DNS name or an IP address, nothing a URL could read
// as a user, port, path or query.
func validHost(h string) bool {
	if _, err := netip.ParseAddr(h); err == nil {
		return true
	}
	return len(h) <= 253 && hostnameRE.MatchString(h)
}

func hostPort(h string, port int) string {
	if port == 0 {
		if strings.Contains(h, ":") { // IPv6
			return "[" + h + "]"
		}
		return h
	}
	return net.JoinHostPort(h, strconv.Itoa(port))
}

// safeAddress accepts a bare e-mail address (no display name, no list).
func safeAddress(a string) bool {
	_, err := mail.CheckAddress(a)
	return err == nil
}

// loopbackHost reports whether h names this machine.
func loopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.IsLoopback()
}

// check validates the settings and secrets of kind k, naming fields as the
// API does (settings.host, secrets.token).
func check(k ChannelKind, st ChannelSettings, sec ChannelSecrets) error {
	var col apperr.Collector
	host := func() {
		if st.Host == "" {
			col.Add("settings.host", "is required")
		} else if !validHost(st.Host) {
			col.Add("settings.host", "must be a hostname or an IP address")
		}
		if st.Port < 0 || st.Port > 65535 {
			col.Add("settings.port", "must be between 1 and 65535")
		}
	}
	switch k {
	case Ntfy:
		host()
		if !topicRE.MatchString(st.Topic) {
			col.Add("settings.topic", "must be 1 to 64 letters, digits, '-' or '_'")
		}
		if strings.ContainsAny(st.Username, ":\r\n") {
			col.Add("settings.username", "must not contain ':' or line breaks")
		}
		if st.Username != "" && sec.Password == "" {
			col.Add("secrets.password", "is required with a username")
		}
		if st.Username != "" && sec.Token != "" {
			col.Add("secrets.token", "use either a username and password or a token")
		}
	case Gotify:
		host()
		if !pathRE.MatchString(st.Path) {
			col.Add("settings.path", "must be a path like /gotify")
		}
		if !gotifyRE.MatchString(sec.Token) {
			col.Add("secrets.token", "must be a Gotify application token (15 characters starting with A)")
		}
	case Discord:
		if !discordRE.MatchString(sec.WebhookURL) {
			col.Add("secrets.webhookUrl", "must be a Discord webhook URL (https://discord.com/api/webhooks/...)")
		}
	case Slack:
		if !slackRE.MatchString(sec.WebhookURL) {
			col.Add("secrets.webhookUrl", "must be a Slack webhook URL (https://hooks.slack.com/services/...)")
		}
	case Telegram:
		if !tgTokenRE.MatchString(sec.Token) {
			col.Add("secrets.token", "must be a bot token like 123456:ABC...")
		}
		if len(st.ChatIDs) == 0 {
			col.Add("settings.chatIds", "needs at least one chat")
		}
		for i, c := range st.ChatIDs {
			if !chatRE.MatchString(c) {
				col.Add(fmt.Sprintf("settings.chatIds[%d]", i), "must be a chat id or @channel")
			}
		}
	case Email:
		host()
		if !safeAddress(st.From) {
			col.Add("settings.from", "must be an e-mail address")
		}
		if len(st.To) > 50 {
			col.Add("settings.to", "at most 50 addresses")
		}
		for i, a := range st.To {
			if !safeAddress(a) {
				col.Add(fmt.Sprintf("settings.to[%d]", i), "must be an e-mail address")
			}
		}
		switch st.Encryption {
		case "", "none", "starttls", "tls":
		default:
			col.Add("settings.encryption", "must be none, starttls or tls")
		}
		if strings.ContainsAny(st.Username, "\r\n") {
			col.Add("settings.username", "must not contain line breaks")
		}
	case Webhook:
		if err := checkWebhook(sec.WebhookURL); err != "" {
			col.Add("secrets.webhookUrl", "%s", err)
		}
	default:
		col.Add("kind", "must be one of ntfy, gotify, discord, slack, telegram, email, webhook")
	}
	return col.Err()
}

func checkWebhook(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return "must be an http or https URL"
	}
	if u.User != nil || u.Fragment != "" {
		return "must not contain credentials or a fragment (put a key in the path or query)"
	}
	for k := range u.Query() {
		if strings.HasPrefix(k, "@") || strings.HasPrefix(k, "$") || strings.HasPrefix(k, "__") {
			return "query parameters must not start with '@', '$' or '__'"
		}
	}
	return ""
}

// serviceURL builds the shoutrrr URL of a valid channel. Every part goes
// through net/url's escaping, so no field can reach another part of the URL.
func serviceURL(k ChannelKind, st ChannelSettings, sec ChannelSecrets) (string, error) {
	q := url.Values{}
	u := url.URL{}
	switch k {
	case Ntfy:
		u.Scheme, u.Host, u.Path = "ntfy", hostPort(st.Host, st.Port), "/"+st.Topic
		switch {
		case st.Username != "":
			u.User = url.UserPassword(st.Username, sec.Password)
		case sec.Token != "": // ntfy takes a token as the password of an empty user
			u.User = url.UserPassword("", sec.Token)
		}
		q.Set("scheme", "https")
		if st.PlainHTTP {
			q.Set("scheme", "http")
		}
	case Gotify:
		u.Scheme, u.Host = "gotify", hostPort(st.Host, st.Port)
		u.Path = strings.TrimSuffix(st.Path, "/") + "/" + sec.Token
		// The token goes in a header: a query string ends up in access logs.
		q.Set("useheader", "yes")
		if st.PlainHTTP {
			q.Set("disabletls", "yes")
		}
	case Discord:
		m := discordRE.FindStringSubmatch(sec.WebhookURL)
		if m == nil {
			return "", fmt.Errorf("not a discord webhook")
		}
		u.Scheme, u.User, u.Host = "discord", url.User(m[2]), m[1]
	case Slack:
		m := slackRE.FindStringSubmatch(sec.WebhookURL)
		if m == nil {
			return "", fmt.Errorf("not a slack webhook")
		}
		u.Scheme, u.User, u.Host = "slack", url.UserPassword("hook", m[1]+"-"+m[2]+"-"+m[3]), "webhook"
	case Telegram:
		// shoutrrr reads a bot token as the user (the bot id) and password.
		id, secret, _ := strings.Cut(sec.Token, ":")
		u.Scheme, u.User, u.Host = "telegram", url.UserPassword(id, secret), "telegram"
		q.Set("chats", strings.Join(st.ChatIDs, ","))
	case Email:
		port := st.Port
		if port == 0 {
			port = 25
		}
		u.Scheme, u.Host, u.Path = "smtp", hostPort(st.Host, port), "/"
		if st.Username != "" {
			u.User = url.UserPassword(st.Username, sec.Password)
			q.Set("auth", "Plain")
		} else {
			q.Set("auth", "None")
		}
		q.Set("fromaddress", st.From)
		q.Set("toaddresses", strings.Join(st.To, ","))
		switch st.Encryption {
		case "tls":
			q.Set("encryption", "ImplicitTLS")
			q.Set("usestarttls", "no")
		case "starttls":
			q.Set("encryption", "ExplicitTLS")
			q.Set("usestarttls", "yes")
			q.Set("requirestarttls", "yes")
		default:
			q.Set("encryption", "None")
			q.Set("usestarttls", "no")
		}
	case Webhook:
		hook, err := url.Parse(sec.WebhookURL)
		if err != nil {
			return "", fmt.Errorf("webhook URL: %w", err)
		}
		u.Scheme, u.Host, u.Path, u.RawPath = "generic", hook.Host, hook.Path, hook.RawPath
		// The webhook's own query passes through; a key shoutrrr would read
		// as one of its options is escaped, as shoutrrr itself does.
		q = hook.Query()
		_, pkr := generic.DefaultConfig()
		for _, k := range pkr.QueryFields() {
			if vs, ok := q[k]; ok {
				q.Del(k)
				q[format.EscapeKey(k)] = vs
			}
		}
		q.Set("template", "json")
		if hook.Scheme == "http" {
			q.Set("disabletls", "yes")
		}
	default:
		return "", fmt.Errorf("unknown channel kind %q", k)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}
