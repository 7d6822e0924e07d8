package openai

import (
	"context"
	"fmt"
)

// Models lists the endpoint's models (GET /models), in its order; nothing
// is retried.
func (p *Provider) Models(ctx context.Context) ([]string, error) {
	list, err := p.client.ListModels(ctx)
	if err != nil {
		return nil, fmt.Errorf("list models: %w", err)
	}
	out := make([]string, 0, len(list.Models))
	for _, m := range list.Models {
		out = append(out, m.ID)
	}
	return out, nil
}
