package acp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp"
)

// rawAgent serves agentls acp on pipes and returns the raw line writer and
// the decoded output lines.
func rawAgent(t *testing.T) (io.Writer, <-chan map[string]any, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dir := t.TempDir()
	home := t.TempDir() // the only variable: no configuration or state of the developer's
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		acp.Serve(ctx, inR, outW, acp.Options{Getenv: getenv})
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		<-done
	})
	return inW, lines(outR), dir
}

// next returns the next output line, failing after a minute.
func next(t *testing.T, out <-chan map[string]any) map[string]any {
	t.Helper()
	select {
	case m, ok := <-out:
		if !ok {
			t.Fatal("agentls acp closed its output")
		}
		return m
	case <-time.After(time.Minute):
		t.Fatal("no answer from agentls acp")
	}
	return nil
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

// Every bad line gets a JSON-RPC error and the process goes on serving.
func TestMalformedLinesGetErrorsAndTheProcessLives(t *testing.T) {
	t.Parallel()
	in, out, dir := rawAgent(t)
	cases := []struct {
		line string
		code float64
		id   any
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":`, -32700, nil},
		{`not json at all`, -32700, nil},
		{`[{"jsonrpc":"2.0","id":2,"method":"initialize"}]`, -32600, float64(2)},
		{`[]`, -32600, nil},
		{`{"jsonrpc":"2.0","id":44,"method":42,"params":{}}`, -32600, float64(44)},
		{`{"jsonrpc":"2.0","id":"m45","method":{"name":"session/list"}}`, -32600, "m45"},
		{`{"jsonrpc":"2.0","id":3}`, -32600, float64(3)},
		{`{"jsonrpc":"1.0","id":4,"method":"initialize","params":{"protocolVersion":1}}`, -32600, float64(4)},
		{`{"jsonrpc":2,"id":41,"method":"session/list","params":{}}`, -32600, float64(41)},
		{`{"jsonrpc":null,"id":"s42","method":"session/list","params":{}}`, -32600, "s42"},
		{`{"id":43,"method":"session/list","params":{}}`, -32600, float64(43)},
		{`{"jsonrpc":"2.0","id":5,"method":"no/such_method","params":{}}`, -32601, float64(5)},
		{`{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}`, -32602, float64(6)},
		{`{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"relative/dir","mcpServers":[]}}`, -32602, float64(7)},
		{`{"jsonrpc":"2.0","id":8,"method":"session/new","params":{"cwd":42}}`, -32602, float64(8)},
		{`{"jsonrpc":"2.0","id":9,"method":"session/set_mode","params":{"sessionId":"nope","modeId":"build"}}`, -32602, float64(9)},
		{`{"jsonrpc":"2.0","id":10,"method":"session/load","params":{"sessionId":"0199-nope","cwd":"` + filepath.ToSlash(dir) + `","mcpServers":[]}}`, -32602, float64(10)},
	}
	for _, c := range cases {
		if _, err := fmt.Fprintln(in, c.line); err != nil {
			t.Fatal(err)
		}
		m := next(t, out)
		if errCode(m) != c.code || m["id"] != c.id {
			t.Errorf("%s\n  got %v, want code %v id %v", c.line, m, c.code, c.id)
		}
		e, _ := m["error"].(map[string]any)
		if msg, _ := e["message"].(string); strings.TrimSpace(msg) == "" {
			t.Errorf("%s: error without a message", c.line)
		}
	}
	// Each element of a batch is answered with its own id (null for one
	// without), in order.
	fmt.Fprintln(in, `[{"jsonrpc":"2.0","id":"b1","method":"session/list"},{"jsonrpc":"2.0","method":"session/cancel"},{"jsonrpc":"2.0","id":7.5,"method":"x"}]`)
	for _, want := range []any{"b1", nil, 7.5} {
		if m := next(t, out); errCode(m) != -32600 || m["id"] != want {
			t.Errorf("batch element: got %v, want -32600 with id %v", m, want)
		}
	}
	// A prompt block of a type ACP does not have (or none) is refused naming
	// it: the SDK would read it as an empty text block and drop it unsaid.
	for i, block := range []string{`{"type":"weird","text":"hi"}`, `{"text":"hi"}`} {
		fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"look"},%s]}}`+"\n", 60+i, block)
		if m := next(t, out); errCode(m) != -32602 || m["id"] != float64(60+i) || !strings.Contains(fmt.Sprint(m), "prompt[1]:") {
			t.Errorf("prompt with %s: %v, want -32602 naming prompt[1]", block, m)
		}
	}
	// An oversized line (over the SDK reader's cap) is answered too, with
	// its own id (read from the line's start): the client's call ends.
	huge := `{"jsonrpc":"2.0","id":50,"method":"session/list","params":{"x":"` + strings.Repeat("a", 11<<20) + `"}}`
	if _, err := fmt.Fprintln(in, huge); err != nil {
		t.Fatal(err)
	}
	if m := next(t, out); errCode(m) != -32600 || m["id"] != float64(50) || !strings.Contains(fmt.Sprint(m), "session/list the message is over") {
		t.Errorf("oversized line: %v, want -32600 with id 50 naming session/list", m)
	}
	// One whose start is not a request's is answered with id null.
	if _, err := fmt.Fprintln(in, `["`+strings.Repeat("a", 11<<20)+`"]`); err != nil {
		t.Fatal(err)
	}
	if m := next(t, out); errCode(m) != -32600 || m["id"] != nil {
		t.Errorf("oversized non-request: %v, want -32600 with id null", m)
	}
	// Still serving.
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":99,"method":"initialize","params":{"protocolVersion":1}}`)
	m := next(t, out)
	res, _ := m["result"].(map[string]any)
	if m["id"] != float64(99) || res["protocolVersion"] != float64(1) {
		t.Errorf("initialize after bad input: %v", m)
	}
}

func TestUnknownSessionErrorsSayWhatToDo(t *testing.T) {
	t.Parallel()
	r := newRig(t, setup{})
	_, err := r.prompt("0199abcd-0000-7000-8000-000000000000", "hello")
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, "session/new") {
		t.Fatalf("prompt on an unknown session: %v", err)
	}
	sid := r.newSession().SessionId
	if _, err := r.conn.SetSessionMode(r.ctx, sdk.SetSessionModeRequest{SessionId: sid, ModeId: "yolo"}); !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, `"plan" or "build"`) {
		t.Errorf("bad mode: %v", err)
	}
	_, err = r.conn.SetSessionConfigOption(r.ctx, sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{SessionId: sid, ConfigId: "colour", Value: "red"}})
	if !errors.As(err, &re) || re.Code != -32602 {
		t.Errorf("unknown config option: %v", err)
	}
	_, err = r.conn.Prompt(r.ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.ImageBlock("aGk=", "image/png")}})
	if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(re.Message, "image") {
		t.Errorf("image prompt: %v", err)
	}
}

// A model that fails ends the prompt with a JSON-RPC error naming the
// cause; the session takes the next prompt.
func TestModelErrorIsAJSONRPCErrorAndTheSessionGoesOn(t *testing.T) {
	t.Parallel()
	r := newRig(t, setup{script: `
steps:
  - error: "endpoint said 401: invalid API key; set OPENAI_API_KEY"
  - text: "Back again."
`})
	sid := r.newSession().SessionId
	_, err := r.prompt(sid, "first")
	var re *sdk.RequestError
	if !errors.As(err, &re) || !strings.Contains(re.Message, "invalid API key") {
		t.Fatalf("model error: %v", err)
	}
	if stop := r.mustPrompt(sid, "second"); stop != sdk.StopReasonEndTurn {
		t.Errorf("stop %s", stop)
	}
}
