package openai

import (
	"context"
	"fmt"
	"strings"
)

// Check makes one cheap request (GET /models) to tell whether the endpoint
// answers and accepts the key. When the endpoint lists models and the
// configured one is not among them, that is an error too. Nothing is retried.
func (p *Provider) Check(ctx context.Context) error {
	list, err := p.client.ListModels(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("model check: %w", ctx.Err())
		}
		fail := classify(err)
		fail.Attempts = 1
		return fail
	}
	if len(list.Models) == 0 {
		return nil
	}
	names := make([]string, 0, len(list.Models))
	for _, m := range list.Models {
		if m.ID == p.cfg.Model {
			return nil
		}
		names = append(names, m.ID)
	}
	if len(names) > 10 {
		names = append(names[:10], "…")
	}
	return fmt.Errorf("%s does not offer the model %q (it offers: %s); set model.name in .agentls.yaml or AGENTLS_MODEL",
		p.cfg.BaseURL, p.cfg.Model, strings.Join(names, ", "))
}
