package settings

import (
	"strings"
	"testing"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
)

func TestPortalValidate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(p *Portal)
		field string
	}{
		{"defaults", func(*Portal) {}, ""},
		{"host", func(p *Portal) { p.Host = "Auth.Example.com." }, ""},
		{"the panel's host", func(p *Portal) { p.Host = "panel.example.com" }, "host"},
		{"bad host", func(p *Portal) { p.Host = "a b" }, "host"},
		{"https logo", func(p *Portal) { p.Logo = "https://cdn.example.com/logo.svg" }, ""},
		{"data logo", func(p *Portal) { p.Logo = "data:image/png;base64,iVBORw0KGgo=" }, ""},
		{"html data logo", func(p *Portal) { p.Logo = "data:text/html;base64,PHNjcmlwdD4=" }, "logo"},
		{"http logo", func(p *Portal) { p.Logo = "http://cdn.example.com/logo.png" }, "logo"},
		{"quote in logo", func(p *Portal) { p.Logo = `https://x.example.com/"onload=` }, "logo"},
		{"huge logo", func(p *Portal) { p.Logo = "data:image/png;base64," + strings.Repeat("A", MaxLogo) }, "logo"},
		{"colour", func(p *Portal) { p.AccentColor = "blue" }, "accentColor"},
		{"long name", func(p *Portal) { p.Name = strings.Repeat("x", 65) }, "name"},
		{"absolute", func(p *Portal) { p.AbsoluteLifetimeSeconds = 0 }, "absoluteLifetimeSeconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := PortalDefaults()
			tc.edit(&p)
			err := p.Validate("panel.example.com")
			switch {
			case tc.field == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.field != "":
				e, ok := apperr.As(err)
				if !ok || len(e.Fields) == 0 || e.Fields[0].Field != tc.field {
					t.Fatalf("err = %v; want one naming %s", err, tc.field)
				}
			}
		})
	}
}

// FuzzPortalValidate: any settings document is accepted or refused, never a panic, and an
// accepted one keeps its host a plain lower-case name and its logo within bounds.
func FuzzPortalValidate(f *testing.F) {
	f.Add("auth.example.com", "Family", "https://x.example.com/l.png", "#112233")
	f.Add("", "", "data:image/png;base64,AAAA", "#zzzzzz")
	f.Add("a..b", "\x00", "javascript:alert(1)", "")
	f.Fuzz(func(t *testing.T, host, name, logo, color string) {
		p := PortalDefaults()
		p.Host, p.Name, p.Logo, p.AccentColor = host, name, logo, color
		if p.Validate("") != nil {
			return
		}
		if p.Host != strings.ToLower(p.Host) || strings.ContainsAny(p.Host, " /:") || len(p.Logo) > MaxLogo {
			t.Fatalf("accepted %+v", p)
		}
	})
}
