package rules

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

// Every preset must be what the API would store: Normalize leaves it as it
// is and Compile accepts it.
func TestPresetsAreNormalized(t *testing.T) {
	ids := map[string]bool{}
	for i, p := range Presets() {
		t.Run(p.ID, func(t *testing.T) {
			if p.ID == "" || ids[p.ID] {
				t.Fatalf("id %q empty or repeated", p.ID)
			}
			ids[p.ID] = true
			if p.Name == "" || p.Description == "" || len(p.Rules) == 0 || len(p.Docs) == 0 {
				t.Fatalf("preset %q lacks a name, description, docs or rules", p.ID)
			}
			for _, d := range p.Docs {
				if !strings.HasPrefix(d, "https://") {
					t.Errorf("doc %q is not an https URL", d)
				}
			}
			rules := p.Rules
			var c apperr.Collector
			Normalize(rules, "rules", Options{GeoIP: false}, &c)
			if err := c.Err(); err != nil {
				t.Fatalf("normalize: %v", err)
			}
			if want := Presets()[i].Rules; !reflect.DeepEqual(rules, want) {
				t.Fatalf("normalize changed the rules:\n got %+v\nwant %+v", rules, want)
			}
			for j, r := range rules {
				if r.Note == "" {
					t.Errorf("rule %d has no note", j)
				}
			}
			if _, err := Compile(nil, rules, Authenticate, nil); err != nil {
				t.Fatalf("compile: %v", err)
			}
		})
	}
}

func TestPresetsAreFreshCopies(t *testing.T) {
	a := Presets()
	a[0].Rules[0].Sources[0] = "10.0.0.0/8"
	a[2].Rules[0].Paths[0].Value = "/changed"
	b := Presets()
	if b[0].Rules[0].Sources[0] != SourcePrivate || b[2].Rules[0].Paths[0].Value == "/changed" {
		t.Fatal("Presets shares its slices between calls")
	}
}

type presetCase struct {
	method string
	uri    string
	addr   string // empty: a public address
	want   Action
}

// checkPreset compiles the preset's rules in front of the default action
// authenticate and checks the decision for each request.
func checkPreset(t *testing.T, id string, cases []presetCase) {
	t.Helper()
	var rules []Rule
	for _, p := range Presets() {
		if p.ID == id {
			rules = p.Rules
		}
	}
	if rules == nil {
		t.Fatalf("no preset %q", id)
	}
	s := mustCompile(t, rules, Authenticate, nil)
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.uri+" "+tc.addr, func(t *testing.T) {
			addr := netip.MustParseAddr("203.0.113.9")
			if tc.addr != "" {
				addr = netip.MustParseAddr(tc.addr)
			}
			if d := s.Decide(&Request{Method: tc.method, URI: tc.uri, Addr: addr}); d.Action != tc.want {
				t.Fatalf("got %s (rule %d), want %s", d.Action, d.Index, tc.want)
			}
		})
	}
}

func TestPresetLAN(t *testing.T) {
	checkPreset(t, "lan-bypass", []presetCase{
		{"GET", "/admin", "192.168.1.20", Allow},
		{"DELETE", "/x", "10.0.0.5", Allow},
		{"GET", "/", "127.0.0.1", Allow},
		{"GET", "/", "::1", Allow},
		{"GET", "/", "fd12:3456::1", Allow},
		{"GET", "/", "::ffff:172.16.4.4", Allow},
		{"GET", "/", "", Authenticate},
		{"GET", "/", "100.64.0.1", Authenticate},
	})
}

func TestPresetACME(t *testing.T) {
	checkPreset(t, "acme-http-01", []presetCase{
		{"GET", "/.well-known/acme-challenge/LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0", "", Allow},
		{"POST", "/.well-known/acme-challenge/token", "", Authenticate},
		{"GET", "/.well-known/acme-challenge-x/token", "", Authenticate},
		{"GET", "/.well-known/acme-challenge/../../admin", "", Authenticate},
		{"GET", "/.well-known/immich", "", Authenticate},
		{"GET", "/", "", Authenticate},
	})
}

func TestPresetNextcloud(t *testing.T) {
	checkPreset(t, "nextcloud", []presetCase{
		// Desktop and mobile apps.
		{"GET", "/status.php", "", Allow},
		{"PROPFIND", "/remote.php/dav/files/anna/Documents/", "", Allow},
		{"PUT", "/remote.php/dav/uploads/anna/web-file-upload-1/00001", "", Allow},
		{"MOVE", "/remote.php/dav/uploads/anna/web-file-upload-1/.file", "", Allow},
		{"PROPFIND", "/remote.php/webdav/", "", Allow},
		{"GET", "/ocs/v1.php/cloud/capabilities?format=json", "", Allow},
		{"GET", "/ocs/v2.php/apps/notifications/api/v2/notifications", "", Allow},
		{"POST", "/index.php/login/v2", "", Allow},
		{"POST", "/login/v2/poll", "", Allow},
		{"POST", "/index.php/core/wipe/check", "", Allow},
		{"GET", "/index.php/avatar/anna/64", "", Allow},
		{"GET", "/index.php/core/preview?fileId=42&x=256&y=256&a=1", "", Allow},
		{"GET", "/index.php/core/preview.png?file=/a.jpg&x=64&y=64", "", Allow},
		{"GET", "/push/ws", "", Allow},
		{"GET", "/index.php/apps/notes/api/v1/notes", "", Allow},
		{"GET", "/index.php/apps/deck/api/v1.0/boards", "", Allow},
		// DAVx5, Thunderbird and other DAV clients.
		{"PROPFIND", "/.well-known/caldav", "", Allow},
		{"PROPFIND", "/.well-known/carddav", "", Allow},
		{"REPORT", "/remote.php/dav/calendars/anna/personal/", "", Allow},
		{"PROPFIND", "/remote.php/carddav/addressbooks/anna/contacts/", "", Allow},
		// The web interface stays behind sign-in.
		{"GET", "/", "", Authenticate},
		{"GET", "/login", "", Authenticate},
		{"GET", "/index.php/login/v2/flow/abcdef", "", Authenticate},
		{"GET", "/index.php/login/v2", "", Authenticate},
		{"GET", "/index.php/login/flow", "", Authenticate},
		{"GET", "/index.php/apps/files/", "", Authenticate},
		{"GET", "/apps/files/", "", Authenticate},
		{"GET", "/index.php/apps/notes/", "", Authenticate},
		{"GET", "/index.php/settings/user/security", "", Authenticate},
		{"POST", "/index.php/avatar/anna/64", "", Authenticate},
		{"GET", "/s/Xy7sharetoken", "", Authenticate},
		{"GET", "/remote.phpx/dav", "", Authenticate},
		{"GET", "/REMOTE.PHP/dav/files/anna/", "", Authenticate},
		{"GET", "/remote.php/dav/../../index.php/settings/admin", "", Authenticate},
		{"GET", "/remote.php/dav/%2e%2e/%2e%2e/index.php/settings/admin", "", Authenticate},
	})
}

func TestPresetJellyfin(t *testing.T) {
	checkPreset(t, "jellyfin-emby", []presetCase{
		{"GET", "/System/Info/Public", "", Allow},
		{"GET", "/system/info/public", "", Allow},
		{"GET", "/Users/Public", "", Allow},
		{"POST", "/Users/AuthenticateByName", "", Allow},
		{"POST", "/QuickConnect/Initiate", "", Allow},
		{"GET", "/Users/5b5bd6c1/Items?ParentId=abc&Recursive=true", "", Allow},
		{"GET", "/Videos/0c1e2f/stream.mkv?static=true&api_key=abc", "", Allow},
		{"GET", "/Audio/0c1e2f/universal?UserId=x&api_key=abc", "", Allow},
		{"POST", "/Sessions/Playing/Progress", "", Allow},
		{"GET", "/socket?api_key=abc&deviceId=xyz", "", Allow},
		{"GET", "/emby/Users/Public", "", Allow},
		{"GET", "/Items/0c1e2f/Images/Primary?maxHeight=300", "", Allow},
		{"GET", "/", "", Authenticate},
		{"GET", "/web", "", Authenticate},
		{"GET", "/web/", "", Authenticate},
		{"GET", "/web/index.html", "", Authenticate},
		{"GET", "/Web/index.html", "", Authenticate},
		{"GET", "/web/main.jellyfin.bundle.js", "", Authenticate},
		{"GET", "/emby/web/index.html", "", Authenticate},
		{"GET", "/EMBY/Web/", "", Authenticate},
		{"GET", "/mediabrowser/web/", "", Authenticate},
		{"GET", "/Items/../web/index.html", "", Authenticate},
		{"GET", "/Items/%2e%2e/web/", "", Authenticate},
	})
}

func TestPresetHomeAssistant(t *testing.T) {
	checkPreset(t, "home-assistant", []presetCase{
		{"POST", "/auth/token", "", Allow},
		{"POST", "/auth/revoke", "", Allow},
		{"POST", "/api/mobile_app/registrations", "", Allow},
		{"POST", "/api/webhook/1a2b3c4d5e6f", "", Allow},
		{"GET", "/api/websocket", "", Allow},
		{"GET", "/api/states/sensor.phone_battery_level", "", Allow},
		{"GET", "/api/camera_proxy/camera.front_door", "", Allow},
		{"GET", "/api/camera_proxy_stream/camera.front_door", "", Allow},
		{"GET", "/manifest.json", "", Allow},
		{"POST", "/manifest.json", "", Authenticate},
		{"GET", "/", "", Authenticate},
		{"GET", "/lovelace/0", "", Authenticate},
		{"GET", "/auth/authorize?response_type=code&client_id=https://home-assistant.io/android", "", Authenticate},
		{"POST", "/auth/login_flow", "", Authenticate},
		{"GET", "/auth/token", "", Authenticate},
		{"GET", "/frontend_latest/app.js", "", Authenticate},
		{"POST", "/api/services/light/turn_on", "", Authenticate},
		{"POST", "/api/states/sensor.x", "", Authenticate},
		{"GET", "/api/config", "", Authenticate},
		{"POST", "/api/webhooks", "", Authenticate},
		{"GET", "/api/webhook/../config", "", Authenticate},
	})
}

func TestPresetImmich(t *testing.T) {
	checkPreset(t, "immich", []presetCase{
		{"GET", "/.well-known/immich", "", Allow},
		{"GET", "/api/server/ping", "", Allow},
		{"POST", "/api/auth/login", "", Allow},
		{"GET", "/api/assets/3f1e/thumbnail?size=preview", "", Allow},
		{"POST", "/api/assets", "", Allow},
		{"GET", "/api/socket.io/?EIO=4&transport=websocket", "", Allow},
		{"GET", "/", "", Authenticate},
		{"GET", "/photos", "", Authenticate},
		{"GET", "/albums/3f1e", "", Authenticate},
		{"GET", "/auth/login", "", Authenticate},
		{"GET", "/share/abc", "", Authenticate},
		{"GET", "/apix", "", Authenticate},
		{"GET", "/API/server/ping", "", Authenticate},
		{"GET", "/api/../photos", "", Authenticate},
	})
}
