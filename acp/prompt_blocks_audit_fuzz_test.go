package acp_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestPromptBlockWithoutAnExactTypeKeyIsRefused: the SDK reads a content
// block's kind from its "type" key, exactly; a block whose key is spelt
// "Type" has no type for it and decodes as an empty text block (the
// resource vanishes from the prompt unsaid). The check in front of the SDK
// must refuse it naming the block, as it refuses a block without a type.
// Found by FuzzPromptBlocksNeverVanish.
func TestPromptBlockWithoutAnExactTypeKeyIsRefused(t *testing.T) {
	t.Parallel()
	in, out, _ := rawAgent(t)
	block := `{"Type":"resource","resource":{"uri":"file:///w/secret-plan.md","text":"the part the user attached"}}`
	fmt.Fprintf(in, `{"jsonrpc":"2.0","id":70,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"look"},%s]}}`+"\n", block)
	m := next(t, out)
	if errCode(m) != -32602 || m["id"] != float64(70) || !strings.Contains(fmt.Sprint(m), "prompt[1]:") {
		t.Fatalf("prompt with %s: %v\nwant -32602 naming prompt[1] (the SDK would take it for an empty text block)", block, m)
	}
}
