package openai

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
)

// BenchmarkStream1000Chunks measures receiving and merging a 1,000-chunk
// stream (900 text pieces, 100 tool-call argument pieces) over loopback.
func BenchmarkStream1000Chunks(b *testing.B) {
	var body strings.Builder
	for i := range 900 {
		fmt.Fprintf(&body, "data: %s\n\n", textChunk(fmt.Sprintf("word%d ", i)))
	}
	fmt.Fprintf(&body, "data: %s\n\n", callChunk(call(0, "call_1", "write_file", `{"content":"`)))
	for range 98 {
		fmt.Fprintf(&body, "data: %s\n\n", callChunk(call(0, "", "", `line of text\n`)))
	}
	fmt.Fprintf(&body, "data: %s\n\n", callChunk(call(0, "", "", `"}`)))
	body.WriteString("data: [DONE]\n\n")
	payload := body.String()

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, payload)
	}))
	defer srv.Close()
	p, err := New(Config{BaseURL: srv.URL + "/v1", Model: "gpt-4.1"})
	if err != nil {
		b.Fatal(err)
	}
	events := 0
	onEvent := func(llm.Event) { events++ }
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		resp, err := p.Complete(context.Background(), userRequest("hi"), onEvent)
		if err != nil {
			b.Fatal(err)
		}
		if len(resp.Message.ToolCalls) != 1 || !strings.HasSuffix(resp.Message.ToolCalls[0].Arguments, `\n"}`) {
			b.Fatalf("calls = %+v", resp.Message.ToolCalls)
		}
	}
	if events == 0 {
		b.Fatal("no events")
	}
}
