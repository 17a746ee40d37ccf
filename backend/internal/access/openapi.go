package access

import "embed"

// OpenAPI holds this package's part of the API description (the
// openapi*.yaml files), merged into /api/openapi.json.
//
//go:embed openapi*.yaml
var OpenAPI embed.FS
