package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// billedSummaryModel answers summary requests with a summary and the usage
// the endpoint bills for it, and turn requests with "fine".
type billedSummaryModel struct {
	mu        sync.Mutex
	summaries int
}

const summaryInputTokens, summaryOutputTokens = 48000, 900

func (p *billedSummaryModel) Complete(_ context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	if strings.Contains(req.System, "hand-off summaries") {
		p.mu.Lock()
		p.summaries++
		p.mu.Unlock()
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "SUMMARY of the earlier turns."},
			Usage: llm.Usage{InputTokens: summaryInputTokens, OutputTokens: summaryOutputTokens}}, nil
	}
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "fine"}, Usage: llm.Usage{InputTokens: 10, OutputTokens: 1}}, nil
}

// TestSummaryRequestIsCounted: a compaction's summary is a model
// request like any other, and the endpoint bills it (it carries up to the
// whole older history). docs/acp.md promises that usage_update's cost is
// "the session's cumulative spend … (each request's input and output
// tokens at the model's price)", and it is computed from the usage
// updates' InputTokens and OutputTokens. So the tokens of a summary request
// must reach a usage update; today the compaction's usage update carries
// only the context size, and the summary's tokens are never counted.
func TestSummaryRequestIsCounted(t *testing.T) {
	t.Parallel()
	model := &billedSummaryModel{}
	ed := &memEditor{}
	m, _ := newTestManager(t, noTurns, ed, func(c *config.Config) { c.Model.ContextWindow = 24000 })
	m.Reconfigure(m.config(), model)
	s := newTestSession(t, m, "build")
	appendLargeReads(s)
	res, err := m.Compact(context.Background(), s.ID())
	if err != nil || !res.Compacted {
		t.Fatalf("Compact = %+v, %v; want a compaction", res, err)
	}
	if model.summaries == 0 {
		t.Fatal("the compaction asked the model for no summary; the rig is wrong")
	}
	in, out := 0, 0
	ed.mu.Lock()
	for _, u := range ed.updates {
		if uu, ok := u.(agentproto.UsageUpdate); ok {
			in += uu.InputTokens
			out += uu.OutputTokens
		}
	}
	ed.mu.Unlock()
	if in < summaryInputTokens*model.summaries || out < summaryOutputTokens*model.summaries {
		t.Fatalf("usage updates counted %d input and %d output tokens; the %d summary request(s) alone used %d and %d",
			in, out, model.summaries, summaryInputTokens*model.summaries, summaryOutputTokens*model.summaries)
	}
}
