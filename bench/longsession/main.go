// Command longsession runs a long session through the real server (the fake
// editor over OS pipes) against a fake OpenAI-compatible endpoint on
// 127.0.0.1 that enforces a context window, and prints, at turns 1, 10,
// 100, 200 and 300, the server's time per turn (the prompt's wall time minus the
// endpoint's own time) and the size of the largest request of the turn. Each
// turn reads a ~10 KB file and answers, as the sessions of issue 8 did
// (3.4 MB per request and 25 → 210 ms per turn at turn 300 before
// compaction). It prints; it asserts nothing.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server"
)

func main() {
	turns := flag.Int("turns", 300, "number of turns")
	window := flag.Int("window", 32768, "model.context_window (tokens); the endpoint refuses requests over window*4 bytes")
	fileKB := flag.Int("file-kb", 10, "size of the file each turn reads (KB)")
	flag.Parse()
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := run(*turns, *window, *fileKB); err != nil {
		fmt.Fprintln(os.Stderr, "longsession:", err)
		os.Exit(1)
	}
}

func run(turns, window, fileKB int) error {
	dir, err := os.MkdirTemp("", "longsession-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for i := 0; i < 10; i++ {
		var b strings.Builder
		for n := 1; b.Len() < fileKB<<10; n++ {
			fmt.Fprintf(&b, "file %d line %d: func handler%d(w http.ResponseWriter, r *http.Request) { serve(w, r, %d) }\n", i, n, n, n*31)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	fake := fakeopenai.New(fakeopenai.Options{MaxBytes: window * 4, Reply: reply})
	defer fake.Close()

	ctx := context.Background()
	opts := server.Options{Getenv: func(k string) string { return map[string]string{"BENCH_KEY": "sk-bench"}[k] }}
	ed, err := lspclient.Start(ctx, dir, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return server.Serve(ctx, rwc, opts)
	}, lspclient.Handlers{})
	if err != nil {
		return err
	}
	defer ed.Close()
	init := map[string]any{
		"rootUri":      "file://" + filepath.ToSlash(dir),
		"capabilities": map[string]any{"workspace": map[string]any{"applyEdit": true}},
		"initializationOptions": map[string]any{"model": map[string]any{
			"provider": "openai", "base_url": fake.URL, "api_key_env": "BENCH_KEY", "name": "bench-model", "context_window": window,
		}},
	}
	if err := ed.Call(ctx, "initialize", init, nil); err != nil {
		return err
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := ed.Call(ctx, "agent/newSession", map[string]any{"mode": "build"}, &s); err != nil {
		return err
	}
	fmt.Printf("%d turns, each reading a %d KB file; context window %d tokens (the endpoint refuses over %d bytes)\n\n",
		turns, fileKB, window, window*4)
	fmt.Printf("%6s %14s %24s %18s %14s\n", "turn", "server ms", "server ms (median of 10)", "largest request", "refused (400)")
	var times []time.Duration
	seen := 0
	var total int64
	for turn := 1; turn <= turns; turn++ {
		start := time.Now()
		var res struct {
			StopReason string `json:"stopReason"`
			Error      *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := ed.Call(ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": fmt.Sprintf("read f%d.go", turn%10)}, &res); err != nil {
			return fmt.Errorf("turn %d: %w", turn, err)
		}
		wall := time.Since(start)
		if res.StopReason != "end_turn" {
			msg := ""
			if res.Error != nil {
				msg = res.Error.Message
			}
			return fmt.Errorf("turn %d ended with %s: %s", turn, res.StopReason, msg)
		}
		reqs := fake.Requests()
		var endpoint time.Duration
		largest, refused := 0, 0
		for _, r := range reqs[seen:] {
			endpoint += r.Elapsed
			largest = max(largest, len(r.Body))
			total += int64(len(r.Body))
			if r.Status == 400 {
				refused++
			}
		}
		seen = len(reqs)
		times = append(times, wall-endpoint)
		if turn == 1 || turn == 10 || turn%100 == 0 || turn == turns {
			fmt.Printf("%6d %14.2f %24.2f %15.1f KB %14d\n", turn, ms(times[turn-1]), ms(median(times[max(0, turn-10):])), float64(largest)/1024, refused)
		}
	}
	fmt.Printf("\nrequests: %d, %.1f MB sent in all\n", seen, float64(total)/(1<<20))
	fmt.Println("reference before compaction (issue 8): turn 300 sent 3.4 MB per request, 1.5 GB in all; 25 ms → 210 ms per turn")
	return nil
}

// reply reads the file the user names, then answers; it summarises when
// asked for a hand-off summary.
func reply(r fakeopenai.Request) fakeopenai.Reply {
	if strings.Contains(r.System(), "You write hand-off summaries") {
		return fakeopenai.Reply{Text: "Goal: read the files in turn. Decisions: none. Files touched: f0.go–f9.go (read). Open questions: none. Next steps: keep reading."}
	}
	last := r.Messages[len(r.Messages)-1]
	if last.Role == "user" && strings.HasPrefix(last.Content, "read ") {
		return fakeopenai.Reply{Text: "Reading it.", ToolCalls: []fakeopenai.ToolCall{
			fakeopenai.Call(fmt.Sprintf("call_%d", len(r.Messages)), "read", fmt.Sprintf(`{"path":%q}`, strings.TrimPrefix(last.Content, "read "))),
		}}
	}
	return fakeopenai.Reply{Text: "The file defines HTTP handlers; nothing else to do."}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
