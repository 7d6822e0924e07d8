// Command acpvslsp measures the same scripted turn through agentls's two faces, side by side: the
// LSP face (`agentls serve`, agent/prompt, agent/update notifications) and the ACP face
// (`agentls acp`, session/prompt, session/update notifications). Both run the real binary over
// pipes with the scripted model on one generated workspace; each turn, in a fresh session, is one
// model step asking for 20 read-only tool calls (ls, glob, grep, read) and a final answer. The two
// faces' turns alternate, so a busy machine slows both alike. It prints, for each face, the wall
// time per turn (median, mean, min), the agentls process's CPU time per turn (from /proc: the
// steadier measure on a loaded machine), the notifications and bytes per turn, and the ratios
// ACP/LSP (target: ACP at most 10 % slower).
//
// Both clients are the same minimal JSON-RPC reader/writer (only the framing differs), so the
// numbers compare the servers, not client libraries.
//
//	go run ./bench/acpvslsp [-bin agentls] [-turns 40] [-warmup 5]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	bin := flag.String("bin", "", "agentls binary (default: built from this tree into a temporary folder)")
	turns := flag.Int("turns", 40, "measured turns per face")
	warmup := flag.Int("warmup", 5, "turns per face before measuring")
	clientReads := flag.Bool("client-reads", false, "also measure ACP with a client that declares fs.readTextFile (reads go through the client)")
	only := flag.String("only", "", "measure one face only: lsp or acp (to profile it)")
	flag.Parse()
	if err := run(*bin, *turns, *warmup, *clientReads, *only); err != nil {
		fmt.Fprintln(os.Stderr, "acpvslsp:", err)
		os.Exit(1)
	}
}

func run(bin string, turns, warmup int, clientReads bool, only string) error {
	tmp, err := os.MkdirTemp("", "acpvslsp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "agentls")
		build := exec.Command("go", "build", "-o", bin, "./cmd/agentls")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("build agentls (run from the repository root or pass -bin): %w", err)
		}
	}
	ws := filepath.Join(tmp, "ws")
	if err := makeWorkspace(ws); err != nil {
		return err
	}
	total := turns + warmup
	faces := []face{
		{name: "LSP (agentls serve)", start: startLSP},
		{name: "ACP (agentls acp)", start: startACP(false)},
	}
	if clientReads {
		faces = append(faces, face{name: "ACP, client serves reads", start: startACP(true)})
	}
	switch only {
	case "":
	case "lsp":
		faces = faces[:1]
	case "acp":
		faces = faces[1:]
	default:
		return fmt.Errorf("-only %q: want lsp or acp", only)
	}
	for i := range faces {
		cfg, err := writeConfig(tmp, fmt.Sprintf("face%d", i), total)
		if err != nil {
			return err
		}
		s, err := faces[i].start(bin, cfg, ws)
		if err != nil {
			return fmt.Errorf("%s: %w", faces[i].name, err)
		}
		defer s.close()
		faces[i].session = s
	}
	for t := 0; t < total; t++ {
		for i := range faces {
			f := &faces[i]
			if err := f.session.newSession(); err != nil {
				return fmt.Errorf("%s session %d: %w", f.name, t+1, err)
			}
			cpu, before := processCPU(f.session.pid()), f.session.received()
			start := time.Now()
			n, err := f.session.turn()
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("%s turn %d: %w", f.name, t+1, err)
			}
			if t >= warmup {
				f.times = append(f.times, d)
				f.updates += n
				f.cpu += processCPU(f.session.pid()) - cpu
				f.kb += float64(f.session.received()-before) / 1024
			}
		}
	}
	fmt.Printf("one scripted turn (20 read-only tool calls + answer), %d turns per face after %d warm-up, faces alternating\n", turns, warmup)
	fmt.Printf("%-26s %9s %9s %9s %12s %13s %9s\n", "face", "median ms", "mean ms", "min ms", "server CPU", "updates/turn", "KB/turn")
	for _, f := range faces {
		n := float64(len(f.times))
		fmt.Printf("%-26s %9.2f %9.2f %9.2f %9.2f ms %13.1f %9.1f\n", f.name, ms(median(f.times)), ms(mean(f.times)), ms(slices.Min(f.times)),
			ms(f.cpu)/n, float64(f.updates)/n, f.kb/n)
	}
	if only != "" {
		return nil
	}
	lsp, acp := faces[0], faces[1]
	fmt.Printf("ACP/LSP: %.3f by median time, %.3f by min time, %.3f by server CPU per turn (target ≤ 1.10: the ACP face at most 10 %% slower)\n",
		ms(median(acp.times))/ms(median(lsp.times)), ms(slices.Min(acp.times))/ms(slices.Min(lsp.times)), ratioOf(acp.cpu, lsp.cpu))
	if len(faces) > 2 {
		fmt.Printf("ACP with client reads / LSP: %.3f by median time, %.3f by server CPU\n", ms(median(faces[2].times))/ms(median(lsp.times)), ratioOf(faces[2].cpu, lsp.cpu))
	}
	fmt.Println("(on a loaded machine the wall times wander; the server CPU per turn is the steadier measure)")
	return nil
}

// face is one way of talking to agentls and its measurements.
type face struct {
	name    string
	start   func(bin, config, ws string) (session, error)
	session session
	times   []time.Duration
	updates int
	kb      float64
	// cpu is the CPU time (user + system) the agentls process used during the measured turns.
	cpu time.Duration
}

// session is a started agentls with one agent session open.
type session interface {
	// newSession opens a fresh agent session (untimed: every turn starts from the same history).
	newSession() error
	// turn sends one prompt and waits for the end of the turn; it returns the number of
	// notifications received during the turn.
	turn() (int, error)
	// received is the number of bytes read from the server so far.
	received() int
	// pid is the agentls process's id.
	pid() int
	close()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func ratioOf(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// processCPU is the user + system CPU time a process has used, from /proc/PID/stat (Linux;
// 0 elsewhere). Clock ticks are taken as 100 per second (USER_HZ on Linux).
func processCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces: count fields after its closing parenthesis.
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * (time.Second / 100)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(len(ds))
}

// makeWorkspace writes a small Go project: 6 packages of 8 files of about 150 lines each.
func makeWorkspace(dir string) error {
	for p := 0; p < 6; p++ {
		pkg := fmt.Sprintf("pkg%d", p)
		if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
			return err
		}
		for f := 0; f < 8; f++ {
			var b strings.Builder
			fmt.Fprintf(&b, "// Package %s is generated for the ACP vs LSP benchmark.\npackage %s\n\nimport \"context\"\n\n", pkg, pkg)
			for fn := 0; fn < 25; fn++ {
				fmt.Fprintf(&b, "// Func%d_%d does step %d of file %d.\nfunc Func%d_%d(ctx context.Context, n int) (int, error) {\n\tif err := ctx.Err(); err != nil {\n\t\treturn 0, err\n\t}\n\treturn n*%d + %d, nil\n}\n\n", f, fn, fn, f, f, fn, fn+1, f)
			}
			if err := os.WriteFile(filepath.Join(dir, pkg, fmt.Sprintf("file%d.go", f)), []byte(b.String()), 0o644); err != nil {
				return err
			}
		}
	}
	return os.WriteFile(filepath.Join(dir, "README.md"), []byte("# bench workspace\n"), 0o644)
}

// turnSteps is one turn of the script: a step with 20 read-only tool calls, then the answer.
const turnSteps = `  - thought: "Exploring the packages before planning."
    text: "Looking at the code."
    tool_calls:
      - {name: ls, args: {path: "."}}
      - {name: ls, args: {path: "pkg1", depth: 2}}
      - {name: glob, args: {pattern: "**/*.go"}}
      - {name: glob, args: {pattern: "pkg2/file*.go"}}
      - {name: grep, args: {pattern: "func Func3_", path: "pkg3"}}
      - {name: grep, args: {pattern: "ctx\\.Err\\(\\)", path: ".", max_results: 20}}
      - {name: grep, args: {pattern: "return n\\*7", include: "*.go"}}
      - {name: read, args: {path: "pkg0/file0.go", limit: 100}}
      - {name: read, args: {path: "pkg4/file5.go"}}
      - {name: read, args: {path: "pkg5/file7.go", offset: 50, limit: 60}}
      - {name: ls, args: {path: "pkg2"}}
      - {name: glob, args: {pattern: "pkg*/file1.go"}}
      - {name: grep, args: {pattern: "Func7_24", path: "pkg4"}}
      - {name: read, args: {path: "pkg1/file3.go", limit: 40}}
      - {name: read, args: {path: "README.md"}}
      - {name: grep, args: {pattern: "package pkg5", path: "pkg5"}}
      - {name: ls, args: {path: "pkg3", depth: 1}}
      - {name: glob, args: {pattern: "**/file7.go"}}
      - {name: read, args: {path: "pkg2/file2.go", offset: 10, limit: 30}}
      - {name: grep, args: {pattern: "context", path: "pkg0", max_results: 10}}
  - text: "The six packages each hold eight generated files of small functions that check the context and compute a value; nothing needs to change, so no plan is written for this exploration turn."
`

// writeConfig writes a transcript of n turns and a configuration selecting it; it returns the
// configuration's path.
func writeConfig(dir, name string, n int) (string, error) {
	script := filepath.Join(dir, name+".yaml")
	body := "name: " + name + "\nsteps:\n" + strings.Repeat(turnSteps, n)
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		return "", err
	}
	cfg := filepath.Join(dir, name+"-config.yaml")
	return cfg, os.WriteFile(cfg, []byte("model:\n  provider: scripted\n  script: "+strconv.Quote(script)+"\n"), 0o644)
}

// rpc is a JSON-RPC 2.0 peer over a child process's stdin/stdout; framing differs by face.
type rpc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	write  func(w io.Writer, msg []byte) error
	read   func() ([]byte, error)
	stderr *bytes.Buffer

	mu     sync.Mutex
	nextID int
	// failed counts the notifications reporting a failed tool call.
	failed int
	// bytes counts the bytes of the messages read from the server.
	bytes int
	// onRequest answers a request from the server (method, params) with a result.
	onRequest func(method string, params json.RawMessage) any
}

type message struct {
	ID     *json.RawMessage `json:"id,omitempty"`
	Method string           `json:"method,omitempty"`
	Params json.RawMessage  `json:"params,omitempty"`
	Result json.RawMessage  `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func startProcess(bin string, args []string, ws string) (*exec.Cmd, io.WriteCloser, io.Reader, *bytes.Buffer, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = ws
	env := []string{"XDG_CONFIG_HOME=" + filepath.Join(ws, ".no-user-config")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENAI_") && !strings.HasPrefix(kv, "AGENTLS_") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, nil, err
	}
	return cmd, stdin, stdout, &stderr, nil
}

// call sends a request and reads until its response, answering the server's requests and
// counting its notifications on the way.
func (c *rpc) call(method string, params any) (json.RawMessage, int, error) {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, 0, err
	}
	notes := 0
	for {
		raw, err := c.read()
		c.bytes += len(raw)
		if err != nil {
			return nil, notes, fmt.Errorf("%s: reading: %w\nstderr:\n%s", method, err, tail(c.stderr.String()))
		}
		var m message
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, notes, fmt.Errorf("%s: bad message %q: %w", method, raw, err)
		}
		switch {
		case m.Method != "" && m.ID != nil: // a request from the server
			if err := c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": c.onRequest(m.Method, m.Params)}); err != nil {
				return nil, notes, err
			}
		case m.Method != "":
			notes++
			if bytes.Contains(m.Params, []byte(`"status":"failed"`)) {
				c.failed++
			}
		case m.ID != nil && string(*m.ID) == strconv.Itoa(id):
			if m.Error != nil {
				return nil, notes, fmt.Errorf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
			}
			return m.Result, notes, nil
		}
	}
}

func (c *rpc) send(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.write(c.stdin, data)
}

func (c *rpc) notify(method string, params any) error {
	return c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (c *rpc) stop() {
	c.stdin.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

func tail(s string) string {
	if len(s) > 2000 {
		return s[len(s)-2000:]
	}
	return s
}

// lspSession drives `agentls serve` like the project's own editor plugins: it declares
// experimental.agent, so the turn streams agent/update notifications.
type lspSession struct {
	c         *rpc
	sessionID string
}

func startLSP(bin, config, ws string) (session, error) {
	cmd, stdin, stdout, stderr, err := startProcess(bin, []string{"--config", config, "serve"}, ws)
	if err != nil {
		return nil, err
	}
	tp := textproto.NewReader(bufio.NewReaderSize(stdout, 1<<16))
	br := tp.R
	c := &rpc{cmd: cmd, stdin: stdin, stderr: stderr,
		write: func(w io.Writer, msg []byte) error {
			_, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(msg), msg)
			return err
		},
		read: func() ([]byte, error) {
			h, err := tp.ReadMIMEHeader()
			if err != nil {
				return nil, err
			}
			n, err := strconv.Atoi(h.Get("Content-Length"))
			if err != nil {
				return nil, fmt.Errorf("bad Content-Length %q", h.Get("Content-Length"))
			}
			buf := make([]byte, n)
			_, err = io.ReadFull(br, buf)
			return buf, err
		},
		onRequest: func(string, json.RawMessage) any { return nil },
	}
	s := &lspSession{c: c}
	uri := "file://" + filepath.ToSlash(ws)
	caps := map[string]any{"experimental": map[string]any{"agent": map[string]any{"askUser": true, "modeIndicator": true}}}
	if _, _, err := c.call("initialize", map[string]any{"rootUri": uri, "workspaceFolders": []map[string]string{{"uri": uri, "name": "ws"}}, "capabilities": caps}); err != nil {
		c.stop()
		return nil, err
	}
	if err := c.notify("initialized", map[string]any{}); err != nil {
		c.stop()
		return nil, err
	}
	return s, nil
}

func (s *lspSession) newSession() error {
	res, _, err := s.c.call("agent/newSession", map[string]any{"mode": "plan"})
	if err != nil {
		return err
	}
	s.sessionID, err = sessionID(res)
	return err
}

// sessionID reads the sessionId of a new session's result.
func sessionID(res json.RawMessage) (string, error) {
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(res, &ns); err != nil || ns.SessionID == "" {
		return "", fmt.Errorf("no sessionId in %s: %v", res, err)
	}
	return ns.SessionID, nil
}

func (s *lspSession) turn() (int, error) {
	res, n, err := s.c.call("agent/prompt", map[string]any{"sessionId": s.sessionID, "text": "explore the packages"})
	if err != nil {
		return n, err
	}
	return n, checkTurn(res, s.c)
}

func (s *lspSession) pid() int { return s.c.cmd.Process.Pid }

func (s *lspSession) received() int { return s.c.bytes }

func (s *lspSession) close() {
	s.c.call("shutdown", nil)
	s.c.notify("exit", nil)
	s.c.stop()
}

// acpSession drives `agentls acp` as an ACP client (newline-delimited JSON-RPC).
type acpSession struct {
	c         *rpc
	ws        string
	sessionID string
}

func startACP(clientReads bool) func(bin, config, ws string) (session, error) {
	return func(bin, config, ws string) (session, error) {
		cmd, stdin, stdout, stderr, err := startProcess(bin, []string{"--config", config, "acp"}, ws)
		if err != nil {
			return nil, err
		}
		br := bufio.NewReaderSize(stdout, 1<<16)
		c := &rpc{cmd: cmd, stdin: stdin, stderr: stderr,
			write: func(w io.Writer, msg []byte) error {
				_, err := w.Write(append(msg, '\n'))
				return err
			},
			read: func() ([]byte, error) {
				for {
					line, err := br.ReadBytes('\n')
					if len(bytes.TrimSpace(line)) > 0 {
						return line, nil
					}
					if err != nil {
						return nil, err
					}
				}
			},
			onRequest: func(method string, params json.RawMessage) any {
				if method == "fs/read_text_file" {
					var p struct {
						Path string `json:"path"`
					}
					json.Unmarshal(params, &p)
					data, _ := os.ReadFile(p.Path)
					return map[string]any{"content": string(data)}
				}
				return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
			},
		}
		s := &acpSession{c: c, ws: ws}
		caps := map[string]any{"fs": map[string]any{"readTextFile": clientReads, "writeTextFile": false}, "terminal": false}
		if _, _, err := c.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}); err != nil {
			c.stop()
			return nil, err
		}
		return s, nil
	}
}

func (s *acpSession) newSession() error {
	res, _, err := s.c.call("session/new", map[string]any{"cwd": s.ws, "mcpServers": []any{}})
	if err != nil {
		return err
	}
	s.sessionID, err = sessionID(res)
	return err
}

func (s *acpSession) turn() (int, error) {
	res, n, err := s.c.call("session/prompt", map[string]any{"sessionId": s.sessionID, "prompt": []map[string]string{{"type": "text", "text": "explore the packages"}}})
	if err != nil {
		return n, err
	}
	return n, checkTurn(res, s.c)
}

func (s *acpSession) pid() int { return s.c.cmd.Process.Pid }

func (s *acpSession) received() int { return s.c.bytes }

func (s *acpSession) close() { s.c.stop() }

// checkTurn fails unless the turn ended normally and no tool call failed (a script mismatch or
// a tool error would make the numbers meaningless).
func checkTurn(res json.RawMessage, c *rpc) error {
	if c.failed > 0 {
		return fmt.Errorf("%d tool calls failed", c.failed)
	}
	var r struct {
		StopReason string `json:"stopReason"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return err
	}
	if r.StopReason != "end_turn" {
		return errors.New("the turn ended with " + r.StopReason + ", not end_turn: " + string(res))
	}
	return nil
}
