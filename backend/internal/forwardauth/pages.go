package forwardauth

import (
	"bytes"
	"html/template"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// page is a small server-rendered page shown to people (not API clients)
// when verify or the sign-in flow cannot let them through.
type page struct {
	Title    string
	Message  string
	LinkURL  string
	LinkText string
	// FormAction, when set, makes the page's action a button that POSTs
	// (with no fields) to this same-origin address.
	FormAction string
	Button     string
	// FormMethod is the form's method: POST when empty. A GET form (a
	// shared link's PIN) carries Hidden and Input in the query.
	FormMethod string
	Hidden     []pageField
	Input      *pageInput
	// Problem is shown above the form, marked as an alert.
	Problem string
}

// pageField is a hidden field of a page's form.
type pageField struct{ Name, Value string }

// pageInput is the one field a person fills in on a page's form.
type pageInput struct {
	Name, Label, Type, InputMode, Pattern, AutoComplete string
	MaxLength                                           int
}

var pageTmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}}</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:Canvas;color:CanvasText}
main{max-width:28rem;margin:1rem;padding:2rem;border:1px solid color-mix(in srgb,CanvasText 20%,transparent);border-radius:12px}
h1{font-size:1.3rem;margin:0 0 .75rem}p{line-height:1.5;margin:0 0 1rem}
a,button{display:inline-block;padding:.5rem 1rem;border:0;border-radius:8px;background:#2563eb;color:#fff;text-decoration:none;font:inherit}
button{min-height:2.75rem;padding:.6rem 1.4rem;font-weight:600;cursor:pointer;max-width:100%}
a:focus-visible,button:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
form{margin:0}
label{display:block;font-weight:600;margin:0 0 .4rem}
input{box-sizing:border-box;width:100%;min-height:2.75rem;padding:.5rem .75rem;margin:0 0 1rem;font:inherit;font-size:1.15rem;
border:1px solid color-mix(in srgb,CanvasText 35%,transparent);border-radius:8px;background:Canvas;color:CanvasText}
input:focus-visible{outline:3px solid #93c5fd;outline-offset:1px}
.problem{padding:.6rem .8rem;border-radius:8px;border:1px solid #dc2626;background:color-mix(in srgb,#dc2626 12%,Canvas)}
small{display:block;margin-top:1.5rem;opacity:.6}
</style></head>
<body><main>
<h1>{{.Title}}</h1>
<p>{{.Message}}</p>
{{if .Problem}}<p class="problem" role="alert"><strong>Not opened:</strong> {{.Problem}}</p>{{end}}
{{if .FormAction}}<form method="{{if .FormMethod}}{{.FormMethod}}{{else}}post{{end}}" action="{{.FormAction}}">
{{range .Hidden}}<input type="hidden" name="{{.Name}}" value="{{.Value}}">{{end}}
{{with .Input}}<label for="answer">{{.Label}}</label>
<input id="answer" name="{{.Name}}" type="{{.Type}}" required autofocus{{if .InputMode}} inputmode="{{.InputMode}}"{{end}}{{if .Pattern}} pattern="{{.Pattern}}"{{end}} autocomplete="{{.AutoComplete}}" maxlength="{{.MaxLength}}" autocapitalize="off" spellcheck="false">{{end}}
<button type="submit">{{.Button}}</button></form>{{end}}
{{if .LinkURL}}<a href="{{.LinkURL}}">{{.LinkText}}</a>{{end}}
<small>Gatehouse</small>
</main></body></html>
`))

// refuse answers a non-2xx: an HTML page for browsers, the JSON envelope
// otherwise. Headers set before (WWW-Authenticate, Set-Cookie) are kept.
func refuse(c echo.Context, browser bool, status int, code apperr.Code, p page) error {
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	if browser {
		var buf bytes.Buffer
		if err := pageTmpl.Execute(&buf, p); err != nil {
			return err
		}
		// form-action 'self': the only form (a shared link's button) posts
		// to its own address. same-origin keeps the link's token out of
		// any Referer leaving the host while the button's POST keeps its
		// Origin header, which the redemption checks.
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Robots-Tag", "noindex")
		return c.HTMLBlob(status, buf.Bytes())
	}
	return httpx.WriteError(c, &apperr.Error{Code: code, Message: p.Message, Status: status}, h.Get(echo.HeaderXRequestID))
}
