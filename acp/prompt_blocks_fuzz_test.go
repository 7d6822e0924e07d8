package acp

import (
	"encoding/json"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// FuzzPromptBlocksNeverVanish: promptBlocksProblem stands before the SDK,
// which decodes a content block of an unknown type, or of none, as an
// empty text block (the block vanishes from the prompt unsaid). So every
// session/prompt it lets through must decode, block by block, as the kind
// the block names in its "type" key: the SDK reads exactly that key.
func FuzzPromptBlocksNeverVanish(f *testing.F) {
	for _, b := range []string{
		`{"type":"text","text":"hi"}`,
		`{"type":"resource_link","uri":"file:///w/a.go","name":"a.go"}`,
		`{"type":"resource","resource":{"uri":"file:///w/a.go","text":"package a"}}`,
		`{"type":"image","data":"AA==","mimeType":"image/png"}`,
		`{"type":"text","text":"a","Type":"bogus"}`,
		`{"Type":"resource","resource":{"uri":"file:///w/a.go","text":"a"}}`,
		`{"type":"bogus","Type":"resource"}`, `{"type":7,"text":"a"}`, `{"type":null}`,
		`{"type":"text"}`, `{"text":"no type"}`, `{"type":"video"}`, `null`, `7`,
	} {
		f.Add(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[` + b + `]}}`)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if promptBlocksProblem([]byte(line)) != "" {
			return
		}
		var m struct {
			Params struct {
				Prompt []json.RawMessage `json:"prompt"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(line), &m) != nil {
			return // the SDK answers what is not a list of objects
		}
		for i, raw := range m.Params.Prompt {
			var fields map[string]json.RawMessage
			if json.Unmarshal(raw, &fields) != nil {
				continue // not an object: the SDK refuses it
			}
			var b sdk.ContentBlock
			if json.Unmarshal(raw, &b) != nil {
				continue // refused by the SDK: an error, not a vanished block
			}
			var named string
			if json.Unmarshal(fields["type"], &named) != nil {
				t.Fatalf("prompt[%d] %s was let through without a \"type\" the SDK reads", i, raw)
			}
			if got := blockKind(b); got != named {
				t.Fatalf("prompt[%d] %s names %q but the SDK decodes it as %q", i, raw, named, got)
			}
		}
	})
}

func blockKind(b sdk.ContentBlock) string {
	switch {
	case b.Text != nil:
		return "text"
	case b.Image != nil:
		return "image"
	case b.Audio != nil:
		return "audio"
	case b.ResourceLink != nil:
		return "resource_link"
	case b.Resource != nil:
		return "resource"
	}
	return ""
}
