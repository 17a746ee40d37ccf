package traffic

import (
	"embed"
	"io/fs"
)

// apiFragment holds this package's part of the API description (the
// openapi*.yaml files), merged into /api/openapi.json.
//
//go:embed openapi*.yaml
var apiFragment embed.FS

// OpenAPI returns this package's part of the API description. It reads
// nothing of the handler: a nil one describes the API too.
func (*Handler) OpenAPI() fs.FS { return apiFragment }
