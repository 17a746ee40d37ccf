package provider

import (
	"context"
	"encoding/json"

	"github.com/gatehouse-proxy/gatehouse/internal/bearer"
)

func randomID() (string, error) { return bearer.New() }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// issuerFor is the issuer outside a request (back-channel logout).
func (s *Service) issuerFor(ctx context.Context) string { return s.issuer(ctx) }
