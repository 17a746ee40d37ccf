package document

import _ "embed"

// Schema is the document's JSON Schema (draft 2020-12), served with the
// code so tools can check a document by hand.
//
//go:embed schema.json
var Schema []byte
