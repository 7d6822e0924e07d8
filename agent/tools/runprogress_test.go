package tools

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLastLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 150) // 300 bytes
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
		ver    int
	}{
		{"nothing yet", nil, "", 0},
		{"a line without its end is not one yet", []string{"compiling"}, "", 0},
		{"the newest complete line", []string{"one\ntwo\nthr", "ee"}, "two", 2},
		{"a line split across writes", []string{"on", "e\n"}, "one", 1},
		{"blank lines are passed over", []string{"one\n\n   \n"}, "one", 1},
		{"a carriage return ends a line (a progress bar)", []string{"10%\r20%\r30%\r"}, "30%", 3},
		{"CRLF", []string{"one\r\ntwo\r\n"}, "two", 2},
		{"the same line again is no change", []string{"x\nx\n"}, "x", 1},
		{"colours and other controls dropped", []string{"\x1b[32mok\x1b[0m\tpkg\a\n"}, "ok pkg", 1},
		{"cut at a character's boundary", []string{long + "\n"}, strings.Repeat("é", 100) + "…", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l lastLine
			for _, w := range tc.writes {
				if n, err := l.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if line, v := l.latest(); line != tc.want || v != tc.ver {
				t.Errorf("latest = %q, %d; want %q, %d", line, v, tc.want, tc.ver)
			}
		})
	}
}

// A line longer than any bound keeps the memory bounded.
func TestLastLineBoundsAnEndlessLine(t *testing.T) {
	t.Parallel()
	var l lastLine
	chunk := []byte(strings.Repeat("x", 4096))
	for range 256 { // 1 MiB without a newline
		l.Write(chunk)
	}
	if len(l.partial) > maxProgressLine*4 {
		t.Fatalf("partial line holds %d bytes", len(l.partial))
	}
	l.Write([]byte("\n"))
	if line, _ := l.latest(); len(line) > maxProgressLine+len("…") {
		t.Errorf("line of %d bytes", len(line))
	}
}

// progressEnv is a fake env that shows progress (ProgressReporter).
type progressEnv struct {
	*fakeEnv
	mu      sync.Mutex
	reports []progressReport
}

type progressReport struct {
	tool, message string
	at            time.Time
}

func (e *progressEnv) ReportProgress(_ context.Context, tool, message string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reports = append(e.reports, progressReport{tool, message, time.Now()})
}

// A running command's newest output line is reported while it runs (the
// LSP face's turn progress, ACP's in-progress tool call content), not only
// in the result at its end.
func TestRunReportsItsOutputWhileItRuns(t *testing.T) {
	t.Parallel()
	env := &progressEnv{fakeEnv: newFake(t, nil)}
	var got RunOutput
	value(t, call(t, runTool, env, `{"command":"echo compiling; sleep 1.5; printf 'testing 1/2\\r'; sleep 1.5; echo done"}`), &got)
	end := time.Now()
	env.mu.Lock()
	defer env.mu.Unlock()
	var lines []string
	for _, r := range env.reports {
		if r.tool != "run" {
			t.Errorf("report from tool %q", r.tool)
		}
		lines = append(lines, r.message)
	}
	if len(env.reports) > 0 && end.Sub(env.reports[0].at) < time.Second {
		t.Errorf("the first report came %s before the end: not while the command ran", end.Sub(env.reports[0].at))
	}
	want := []string{"compiling", "testing 1/2"}
	if len(lines) < 2 || lines[0] != want[0] || lines[1] != want[1] {
		t.Fatalf("reports %q, want %q first (and no more than one a second)", lines, want)
	}
	if got.Output != "compiling\ntesting 1/2\rdone\n" {
		t.Errorf("output %q: the result keeps the whole output", got.Output)
	}
}
