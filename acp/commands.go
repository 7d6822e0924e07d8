package acp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"
	"log/slog"
	"sync"

	"github.com/agentls/agentls/agent"
)

// Slash commands on the ACP face (docs/commands.md): the agent's registry
// as available_commands_update, sent right after the answer to
// session/new and session/resume (a client knows a new session only from
// that answer), as the last update of session/load's replay (every update
// of a load comes before its answer: acp-tck's ACP-LOAD-002), and again at a prompt when the list
// changed (a user command added to .agentls/commands). The command itself
// arrives as the prompt's text and is run by the agent; /new is not
// offered (the client starts sessions).

type (
	// commandsUpdate is available_commands_update.
	commandsUpdate struct {
		SessionUpdate     string             `json:"sessionUpdate"` // "available_commands_update"
		AvailableCommands []availableCommand `json:"availableCommands"`
	}
	availableCommand struct {
		Name        string        `json:"name"`
		Description string        `json:"description"`
		Input       *commandInput `json:"input,omitempty"`
	}
	// commandInput is ACP's unstructured command input: a hint.
	commandInput struct {
		Hint string `json:"hint"`
	}
)

// commandAnnouncer sends each session's available commands: after the
// SDK's answer that made the session known (it watches the session
// requests going in and the answers going out), and when they change.
type commandAnnouncer struct {
	a *Agent

	mu sync.Mutex
	// waiting are the session/new|load|resume requests not answered yet:
	// request id (compact JSON) → the session id ("" for session/new: the
	// answer has it).
	waiting map[string]string
	// sent is the hash of the list last sent per session.
	sent map[string][32]byte
}

func newCommandAnnouncer(a *Agent) *commandAnnouncer {
	return &commandAnnouncer{a: a, waiting: map[string]string{}, sent: map[string][32]byte{}}
}

// commandsOf is the session's commands as ACP lists them (without /new),
// its MCP servers' prompts among them.
func commandsOf(h *hosted, sessionID string) []availableCommand {
	list, err := h.mgr.ListCommands(sessionID)
	if err != nil {
		slog.Warn("acp: list commands", "err", err)
		return nil
	}
	out := make([]availableCommand, 0, len(list))
	for _, c := range list {
		if c.Name == agent.CommandNew {
			continue
		}
		ac := availableCommand{Name: c.Name, Description: c.Description}
		if c.Hint != "" {
			ac.Input = &commandInput{Hint: c.Hint}
		}
		out = append(out, ac)
	}
	return out
}

// announce sends the session's commands if they differ from the list last
// sent to it, or always (force: the client (re)opened the session).
func (c *commandAnnouncer) announce(ctx context.Context, sessionID string, force bool) {
	h, err := c.a.hostOf(sessionID)
	if err != nil {
		return // closed meanwhile
	}
	cmds := commandsOf(h, sessionID)
	b, err := json.Marshal(cmds)
	if err != nil {
		return
	}
	sum := sha256.Sum256(b)
	c.mu.Lock()
	last, ok := c.sent[sessionID]
	c.sent[sessionID] = sum
	c.mu.Unlock()
	if ok && last == sum && !force {
		return
	}
	h.ed.send(ctx, sessionID, commandsUpdate{SessionUpdate: "available_commands_update", AvailableCommands: cmds})
}

// maxWatchedLine caps the request line the announcer reads: session/new,
// load and resume are small; a longer line (a prompt) is not one of them.
const maxWatchedLine = 1 << 20

// keptLineBytes is the largest line buffer kept for the next line.
const keptLineBytes = 64 << 10

// requestWatcher is the SDK's input as the announcer reads it on the way.
type requestWatcher struct {
	c    *commandAnnouncer
	r    io.Reader
	line []byte
	skip bool // the current line is longer than maxWatchedLine
}

// watchRequests returns r, reading each line for the announcer.
func (c *commandAnnouncer) watchRequests(r io.Reader) io.Reader { return &requestWatcher{c: c, r: r} }

func (w *requestWatcher) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	data := p[:n]
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		part := data
		if i >= 0 {
			part = data[:i]
		}
		if !w.skip {
			if len(w.line)+len(part) > maxWatchedLine {
				w.skip, w.line = true, nil
			} else {
				w.line = append(w.line, part...)
			}
		}
		if i < 0 {
			break
		}
		if !w.skip {
			w.c.sawRequest(w.line)
		}
		w.line, w.skip = w.line[:0], false
		if cap(w.line) > keptLineBytes {
			w.line = nil // a long line's buffer is not kept
		}
		data = data[i+1:]
	}
	return n, err
}

// sawRequest notes a session/new, load or resume request.
func (c *commandAnnouncer) sawRequest(line []byte) {
	if !bytes.Contains(line, []byte(`"session/`)) {
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			SessionID string `json:"sessionId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &req) != nil || len(req.ID) == 0 {
		return
	}
	switch req.Method {
	case "session/new", "session/resume": // session/load announces before its answer (LoadSession)
	default:
		return
	}
	key, ok := idKey(req.ID)
	if !ok {
		return
	}
	c.mu.Lock()
	c.waiting[key] = req.Params.SessionID
	c.mu.Unlock()
}

// idKey is a JSON-RPC id in one spelling.
func idKey(id json.RawMessage) (string, bool) {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil || b.String() == "null" {
		return "", false
	}
	return b.String(), true
}

// answerWatcher is the SDK's output: after it wrote the answer to a
// watched request, the announcer sends the session's commands (so they
// follow the answer on the wire).
type answerWatcher struct {
	c *commandAnnouncer
	w io.Writer
}

// watchAnswers returns w, telling the announcer of each answer written.
func (c *commandAnnouncer) watchAnswers(w io.Writer) io.Writer { return &answerWatcher{c: c, w: w} }

func (w *answerWatcher) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err == nil {
		w.c.sawAnswer(p)
	}
	return n, err
}

// sawAnswer announces the commands of the session a watched request's
// successful answer made known.
func (c *commandAnnouncer) sawAnswer(line []byte) {
	c.mu.Lock()
	none := len(c.waiting) == 0
	c.mu.Unlock()
	if none {
		return
	}
	var res struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Error  json.RawMessage `json:"error"`
		Result struct {
			SessionID string `json:"sessionId"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &res) != nil || res.Method != "" {
		return
	}
	key, ok := idKey(res.ID)
	if !ok {
		return
	}
	c.mu.Lock()
	sid, watched := c.waiting[key]
	delete(c.waiting, key)
	c.mu.Unlock()
	if !watched || len(res.Error) > 0 && string(res.Error) != "null" {
		return
	}
	if sid == "" {
		sid = res.Result.SessionID
	}
	if sid != "" {
		c.announce(context.Background(), sid, true)
	}
}
