package clients

import (
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
)

func fieldOf(t *testing.T, err error) string {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || len(e.Fields) == 0 {
		t.Fatalf("not a field error: %v", err)
	}
	return e.Fields[0].Field
}

// TestCheckURI: redirect URIs follow RFC 9700 and RFC 8252, and are never
// rewritten (the provider compares bytes).
func TestCheckURI(t *testing.T) {
	for _, tc := range []struct {
		uri        string
		serverSide bool
		ok         bool
	}{
		{"https://app.example.com/cb", false, true},
		{"https://app.example.com:8443/cb?x=1", false, true},
		{"https://app.example.com", false, true},
		{"http://localhost:8080/cb", false, true},
		{"http://127.0.0.1/cb", false, true},
		{"http://[::1]:9000/cb", false, true},
		{"app.immich:///oauth-callback", false, true},
		{"com.example.app:/callback", false, true},
		{"http://app.example.com/cb", false, false},
		{"http://localhost.evil.example/cb", false, false},
		{"https://app.example.com/cb#frag", false, false},
		{"https://app.example.com/cb#", false, false},
		{"https://*.example.com/cb", false, false},
		{"https://app.example.com/*", false, false},
		{"/cb", false, false},
		{"app.example.com/cb", false, false},
		{"https://user:pw@app.example.com/cb", false, false},
		{"https:///cb", false, false},
		{"HTTPS://app.example.com/cb", false, false},
		{"javascript:/alert(1)", false, false},
		{"data:/text", false, false},
		{"file:///etc/passwd", false, false},
		{"myapp:callback", false, false},
		{"https://app.example.com/c b", false, false},
		{"https://app.example.com/ü", false, false},
		{"https://app.example.com/" + strings.Repeat("a", maxURI), false, false},
		{"app.immich:///oauth-callback", true, false},
		{"https://app.example.com/logout", true, true},
	} {
		if got := checkURI(tc.uri, tc.serverSide) == ""; got != tc.ok {
			t.Errorf("checkURI(%q, %v) ok = %v, want %v (%s)", tc.uri, tc.serverSide, got, tc.ok, checkURI(tc.uri, tc.serverSide))
		}
	}
}

func valid() Input {
	return Input{Name: "App", RedirectURIs: []string{"https://app.example.com/cb"}}
}

// TestNormalize: defaults are filled, and each wrong field is named.
func TestNormalize(t *testing.T) {
	in := valid()
	in.RedirectURIs = append(in.RedirectURIs, " https://app.example.com/cb ", "https://app.example.com/CB")
	if err := in.normalize(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(in.Scopes, " ") != "openid profile email" || strings.Join(in.GrantTypes, " ") != "authorization_code" ||
		in.SigningAlg != AlgRS256 || in.AccessTokenTTLSeconds != 3600 || in.IDTokenTTLSeconds != 3600 ||
		in.RefreshTokenTTLSeconds != 30*24*3600 {
		t.Fatalf("defaults: %+v", in)
	}
	if strings.Join(in.RedirectURIs, " ") != "https://app.example.com/cb https://app.example.com/CB" {
		t.Fatalf("redirects are de-duplicated but kept as typed: %q", in.RedirectURIs)
	}
	for _, tc := range []struct {
		name  string
		edit  func(*Input)
		field string
	}{
		{"empty name", func(i *Input) { i.Name = " " }, "name"},
		{"long name", func(i *Input) { i.Name = strings.Repeat("x", maxName+1) }, "name"},
		{"control in name", func(i *Input) { i.Name = "a\x00b" }, "name"},
		{"http logo", func(i *Input) { i.LogoURL = "http://x.example/logo.png" }, "logoUrl"},
		{"html logo", func(i *Input) { i.LogoURL = "data:text/html;base64,PHNjcmlwdD4=" }, "logoUrl"},
		{"big logo", func(i *Input) { i.LogoURL = "data:image/png;base64," + strings.Repeat("A", maxLogoData) }, "logoUrl"},
		{"preset shape", func(i *Input) { i.Preset = "Not a preset!" }, "preset"},
		{"long preset", func(i *Input) { i.Preset = strings.Repeat("p", maxPresetID+1) }, "preset"},
		{"no redirect", func(i *Input) { i.RedirectURIs = nil }, "redirectUris"},
		{"too many redirects", func(i *Input) { i.RedirectURIs = make([]string, maxURIs+1) }, "redirectUris"},
		{"post-logout fragment", func(i *Input) { i.PostLogoutRedirectURIs = []string{"https://a.example/#x"} }, "postLogoutRedirectUris[0]"},
		{"back-channel custom scheme", func(i *Input) { i.BackchannelLogoutURI = "com.example.app:/logout" }, "backchannelLogoutUri"},
		{"openid missing", func(i *Input) { i.Scopes = []string{"email"} }, "scopes"},
		{"unknown scope", func(i *Input) { i.Scopes = []string{"openid", "admin"} }, "scopes[1]"},
		{"offline without refresh", func(i *Input) { i.Scopes = []string{"openid", "offline_access"} }, "scopes"},
		{"refresh alone", func(i *Input) { i.GrantTypes = []string{"refresh_token"} }, "grantTypes"},
		{"implicit", func(i *Input) { i.GrantTypes = []string{"implicit"} }, "grantTypes[0]"},
		{"alg", func(i *Input) { i.SigningAlg = "HS256" }, "signingAlg"},
		{"empty group id", func(i *Input) { i.AllowedGroupIDs = []string{""} }, "allowedGroupIds[0]"},
		{"claim reserved", func(i *Input) { i.ClaimMappings = []ClaimMapping{{Claim: "iss", Kind: KindStatic, Default: "x"}} }, "claimMappings[0].claim"},
		{"claim chars", func(i *Input) { i.ClaimMappings = []ClaimMapping{{Claim: "a b", Kind: KindStatic, Default: "x"}} }, "claimMappings[0].claim"},
		{"claim twice", func(i *Input) {
			i.ClaimMappings = []ClaimMapping{{Claim: "r", Kind: KindStatic, Default: "x"}, {Claim: "r", Kind: KindStatic, Default: "y"}}
		}, "claimMappings[1].claim"},
		{"claim kind", func(i *Input) { i.ClaimMappings = []ClaimMapping{{Claim: "r", Kind: "script"}} }, "claimMappings[0].kind"},
		{"static without value", func(i *Input) { i.ClaimMappings = []ClaimMapping{{Claim: "r", Kind: KindStatic}} }, "claimMappings[0].default"},
		{"groups without values", func(i *Input) { i.ClaimMappings = []ClaimMapping{{Claim: "r", Kind: KindGroups}} }, "claimMappings[0].values"},
		{"groups empty value", func(i *Input) {
			i.ClaimMappings = []ClaimMapping{{Claim: "r", Kind: KindGroups, Values: []ClaimValue{{Group: "g"}}}}
		}, "claimMappings[0].values[0].value"},
		{"rename from", func(i *Input) { i.ClaimMappings = []ClaimMapping{{Claim: "r", Kind: KindRename, From: "password"}} }, "claimMappings[0].from"},
		{"access ttl low", func(i *Input) { i.AccessTokenTTLSeconds = 59 }, "accessTokenTtlSeconds"},
		{"id ttl high", func(i *Input) { i.IDTokenTTLSeconds = 24*3600 + 1 }, "idTokenTtlSeconds"},
		{"refresh ttl low", func(i *Input) { i.RefreshTokenTTLSeconds = 3599 }, "refreshTokenTtlSeconds"},
		{"refresh ttl high", func(i *Input) { i.RefreshTokenTTLSeconds = 365*24*3600 + 1 }, "refreshTokenTtlSeconds"},
		{"service id", func(i *Input) { i.ServiceID = strings.Repeat("s", maxID+1) }, "serviceId"},
		{"negative max age", func(i *Input) { i.MaxAgeSeconds = -1 }, "maxAgeSeconds"},
		{"max age over a year", func(i *Input) { i.MaxAgeSeconds = MaxAgeSeconds + 1 }, "maxAgeSeconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := valid()
			tc.edit(&in)
			if f := fieldOf(t, in.normalize()); f != tc.field {
				t.Fatalf("field = %s, want %s", f, tc.field)
			}
		})
	}
	device := Input{Name: "TV", Public: true, GrantTypes: []string{GrantDeviceCode, GrantRefreshToken},
		Scopes: []string{ScopeOpenID, ScopeOfflineAccess}}
	if err := device.normalize(); err != nil {
		t.Fatalf("a device client needs no redirect URI: %v", err)
	}
}

// TestPresetsValidate: every preset, filled for a host, is a valid client,
// cites its app's documentation, and names a known preset.
func TestPresetsValidate(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Presets() {
		t.Run(p.ID, func(t *testing.T) {
			if seen[p.ID] || p.Name == "" || p.Description == "" || p.Note == "" {
				t.Fatalf("preset %+v", p)
			}
			seen[p.ID] = true
			if len(p.Docs) == 0 {
				t.Fatal("a preset cites its app's documentation")
			}
			for _, d := range p.Docs {
				if !strings.HasPrefix(d, "https://") {
					t.Fatalf("doc %q", d)
				}
			}
			hasHost := false
			for _, u := range p.RedirectURIs {
				hasHost = hasHost || strings.Contains(u, HostPlaceholder)
			}
			if !hasHost {
				t.Fatal("a preset's redirect URIs name the service's host")
			}
			in := p.Input(p.Name, "app.example.com")
			if err := in.normalize(); err != nil {
				t.Fatalf("%s does not validate: %v", p.ID, err)
			}
			for _, u := range append(in.RedirectURIs, in.BackchannelLogoutURI) {
				if strings.Contains(u, "{") {
					t.Fatalf("placeholder left in %q", u)
				}
			}
			if in.Preset != p.ID || presetByID(p.ID) == nil {
				t.Fatal("the client records its preset")
			}
		})
	}
	if len(seen) != 8 {
		t.Fatalf("%d presets", len(seen))
	}
}

func TestVerifySecret(t *testing.T) {
	const secret = "f3Vq9mXn2bC8dK1pL7sT4wY6zA0eH5jR3uN8iO2gM1c" //nolint:gosec // a test value, not a credential
	hash := bearer.Hash(secret)
	for _, tc := range []struct {
		hash, secret string
		ok           bool
	}{
		{hash, secret, true},
		{hash, secret + "x", false},
		{hash, strings.ToUpper(secret), false},
		{"", "", false},
		{"", secret, false},
		{hash, "", false},
		{hash, strings.Repeat("x", maxSecret+1), false},
	} {
		if VerifySecret(tc.hash, tc.secret) != tc.ok {
			t.Errorf("VerifySecret(%.8q…, %.8q…) = %v", tc.hash, tc.secret, !tc.ok)
		}
	}
}
