package forwardauth

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/gatehouse-proxy/gatehouse/internal/apperr"
	"github.com/gatehouse-proxy/gatehouse/internal/httpx"
)

// codePage is the panel's page of the e-mail code sign-in: a form asking
// for an address, or for the code sent to it.
type codePage struct {
	Title, Message string
	Error          string
	Service        string // the service's name
	ServiceID, RD  string // carried by the forms as hidden fields
	Email          string // set on the code form
	AskCode        bool
}

var codeTmpl = template.Must(template.New("code").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}}</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:Canvas;color:CanvasText}
main{width:min(28rem,100% - 2rem);margin:1rem;padding:2rem;box-sizing:border-box;border:1px solid color-mix(in srgb,CanvasText 20%,transparent);border-radius:12px}
h1{font-size:1.3rem;margin:0 0 .75rem}p{line-height:1.5;margin:0 0 1rem}
label{display:block;font-weight:600;margin:0 0 .35rem}
input{box-sizing:border-box;width:100%;min-height:2.75rem;padding:.5rem .75rem;margin:0 0 1rem;font:inherit;border:1px solid color-mix(in srgb,CanvasText 35%,transparent);border-radius:8px;background:Canvas;color:CanvasText}
input.code{font-size:1.5rem;letter-spacing:.4em;text-align:center}
button{min-height:2.75rem;padding:.6rem 1.4rem;border:0;border-radius:8px;background:#2563eb;color:#fff;font:inherit;font-weight:600;cursor:pointer;width:100%}
a{color:inherit}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
.error{padding:.6rem .8rem;border-radius:8px;border:1px solid #dc2626;background:color-mix(in srgb,#dc2626 12%,Canvas)}
small{display:block;margin-top:1.5rem;opacity:.6}
</style></head>
<body><main>
<h1>{{.Title}}</h1>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
<p>{{.Message}}</p>
{{if .AskCode}}
<form method="post" action="/api/auth/email-code/verify">
<input type="hidden" name="service" value="{{.ServiceID}}"><input type="hidden" name="rd" value="{{.RD}}">
<input type="hidden" name="email" value="{{.Email}}">
<label for="code">Six-digit code</label>
<input id="code" class="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,8}" maxlength="8" required autofocus>
<button type="submit">Continue to {{.Service}}</button>
</form>
<p><small><a href="/api/auth/email-code?service={{.ServiceID}}&amp;rd={{.RD}}">Use another address, or ask for a new code</a></small></p>
{{else if .ServiceID}}
<form method="post" action="/api/auth/email-code/send">
<input type="hidden" name="service" value="{{.ServiceID}}"><input type="hidden" name="rd" value="{{.RD}}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="254" value="{{.Email}}" required autofocus>
<button type="submit">Send me a code</button>
</form>
{{end}}
<small>Gatehouse</small>
</main></body></html>
`))

// codeAnswer writes a code page with status; a refusal to a client that
// does not take HTML is the error envelope.
func codeAnswer(c echo.Context, status int, p codePage) error {
	if status >= 400 && !strings.Contains(c.Request().Header.Get("Accept"), "text/html") {
		msg := p.Message
		if p.Error != "" {
			msg = p.Error
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return httpx.WriteError(c, &apperr.Error{Code: codeFor(status), Message: msg, Status: status},
			c.Response().Header().Get(echo.HeaderXRequestID))
	}
	var buf bytes.Buffer
	if err := codeTmpl.Execute(&buf, p); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	// form-action covers where a form's answer redirects too: the code's
	// form ends in a redirect to the service (its origin checked by
	// returnURL), which browsers would otherwise refuse to follow.
	formAction := "'self'"
	if u, err := url.Parse(p.RD); err == nil && p.RD != "" && (u.Scheme == "https" || u.Scheme == "http") && validHost(u.Host) {
		formAction += " " + u.Scheme + "://" + u.Host
	}
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action "+formAction+"; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Robots-Tag", "noindex")
	return c.HTMLBlob(status, buf.Bytes())
}

// codeNotice is a code page with a message and no form.
func codeNotice(c echo.Context, status int, title, msg string) error {
	return codeAnswer(c, status, codePage{Title: title, Message: msg})
}

func codeFor(status int) apperr.Code {
	switch status {
	case http.StatusTooManyRequests:
		return apperr.CodeRateLimited
	case http.StatusUnauthorized:
		return apperr.CodeUnauthenticated
	case http.StatusForbidden:
		return apperr.CodeForbidden
	case http.StatusUnprocessableEntity:
		return apperr.CodeValidationFailed
	}
	return apperr.CodeInvalidRequest
}
