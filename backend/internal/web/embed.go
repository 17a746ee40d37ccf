// Package web serves the single-page app that Vite builds into dist/. A
// committed dist/.gitkeep keeps `go build` working without Node; the binary
// then serves a short page explaining how to build the UI.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed all:dist
var dist embed.FS

const placeholder = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gatehouse</title></head>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto"><h1>Gatehouse</h1>
<p>The web UI was not built into this binary. Run <code>make run</code> (or <code>make build</code>) to build it.
The API is available under <code>/api</code>.</p></body></html>`

// Handler serves the SPA: hashed assets under /assets/ are cached for a year,
// anything else that is not a file falls back to index.html (never cached), so
// client-side routes work on reload.
func Handler() http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed directive guarantees dist exists
	}
	index, _ := fs.ReadFile(sub, "index.html")
	files := http.FileServer(http.FS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if p != "" && p != "index.html" && !strings.HasPrefix(path.Base(p), ".") {
			if st, err := fs.Stat(sub, p); err == nil && !st.IsDir() {
				if strings.HasPrefix(p, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				} else {
					w.Header().Set("Cache-Control", "no-cache")
				}
				files.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if index == nil {
			_, _ = w.Write([]byte(placeholder))
			return
		}
		_, _ = w.Write(index)
	})
}
