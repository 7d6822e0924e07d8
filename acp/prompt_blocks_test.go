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
// must refuse it naming the block, as it refuses a block without a type;
// so too a block whose "type" is not a string, or is unknown beside a
// known type in another case. Found by FuzzPromptBlocksNeverVanish.
func TestPromptBlockWithoutAnExactTypeKeyIsRefused(t *testing.T) {
	t.Parallel()
	in, out, _ := rawAgent(t)
	for i, block := range []string{
		`{"Type":"resource","resource":{"uri":"file:///w/secret-plan.md","text":"the part the user attached"}}`,
		`{"TYPE":"text","text":"hi"}`,
		`{"type":"bogus","Type":"resource","resource":{"uri":"file:///w/a.md","text":"a"}}`,
		`{"type":7,"text":"hi"}`,
		`{"type":null,"text":"hi"}`,
	} {
		id := 70 + i
		fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"look"},%s]}}`+"\n", id, block)
		m := next(t, out)
		if errCode(m) != -32602 || m["id"] != float64(id) || !strings.Contains(fmt.Sprint(m), "prompt[1]:") {
			t.Errorf("prompt with %s: %v\nwant -32602 naming prompt[1] (the SDK would take it for an empty text block)", block, m)
		}
	}
}
