package server

import (
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/workspace"
)

// docRef is a document the editor reported: its URI as the editor wrote it
// (diagnostics are published on that URI) and its local path.
type docRef struct {
	uri, path string
}

// docWork is a server's work on documents that must stay off the LSP read
// loop: linting (`.plan` documents and the config files, published as
// textDocument/publishDiagnostics) and telling the agent that the user
// changed a plan. Each runs on its own goroutine, in order, and the latest
// report of a document wins.
type docWork struct {
	lint   *keyedQueue[string, lintJob]  // by path
	plans  *keyedQueue[string, struct{}] // by path
	config *keyedQueue[string, struct{}] // configReview: reload and review the configuration (trust.go)
	lost   *keyedQueue[string, string]   // by path: the URI of a document whose buffer is out of sync (text_sync_lost.go)
}

// lintJob asks for a document's diagnostics.
type lintJob struct {
	uri    string
	closed bool // the editor closed the document
}

// startDocWork starts the document goroutines; they end with the connection.
func (s *Server) startDocWork() *docWork {
	w := &docWork{lint: newKeyedQueue[string, lintJob](), plans: newKeyedQueue[string, struct{}](), config: newKeyedQueue[string, struct{}](),
		lost: newKeyedQueue[string, string]()}
	done := s.conn.Done()
	go w.config.serve(done, func(string, struct{}) { s.reviewWorkspaceConfig(s.ctx) })
	go w.lint.serve(done, s.lintDocument)
	go w.lost.serve(done, s.warnLostDocument) // text_sync_lost.go
	go w.plans.serve(done, func(path string, _ struct{}) {
		if mgr := s.manager(); mgr != nil {
			mgr.PlanChanged(path)
		}
	})
	return w
}

// documentSynced follows a didOpen/didChange/didClose the overlay took (on
// the read loop: it only queues). `.plan` documents and what may be a config
// file are linted; a changed plan is reported to the sessions that have it.
func (s *Server) documentSynced(method string, doc docRef) {
	plan := isPlanDoc(doc.path)
	if !plan && !s.maybeConfigFile(doc.path) {
		return
	}
	w := s.docWork
	w.lint.put(doc.path, lintJob{uri: doc.uri, closed: method == "textDocument/didClose"})
	if plan && method == "textDocument/didChange" {
		w.plans.put(doc.path, struct{}{})
	}
}

// documentSaved follows a didSave: a saved plan is reported to the sessions
// that have it.
func (s *Server) documentSaved(doc docRef) {
	if isPlanDoc(doc.path) {
		s.docWork.plans.put(doc.path, struct{}{})
	}
	if s.isTrustFile(doc.path) || s.isConfigFile(doc.path) || isMCPFile(doc.path) || s.isProjectKindFile(doc.path) {
		s.docWork.config.put(configReview, struct{}{}) // trust.go
	}
}

// publishConfigDiagnostics publishes, once initialized, the diagnostics of
// each config file that had problems at start-up.
func (s *Server) publishConfigDiagnostics() {
	s.mu.Lock()
	diags := s.configDiagnostics
	s.mu.Unlock()
	files := s.configFiles()
	queued := map[string]bool{}
	for _, d := range diags {
		abs, err := filepath.Abs(d.File)
		if err != nil || queued[abs] {
			continue
		}
		for _, f := range files {
			if host.SameFile(abs, f) {
				queued[abs] = true
				s.docWork.lint.put(abs, lintJob{uri: host.URIOfPath(abs)})
			}
		}
	}
}

func isPlanDoc(path string) bool { return strings.HasSuffix(path, ".plan") }

// maybeConfigFile is a cheap test, without I/O, for a path whose name is
// one of the config files'; lintDocument checks it exactly.
func (s *Server) maybeConfigFile(path string) bool {
	base := filepath.Base(path)
	if base == ".agentls.yaml" || base == "config.yaml" {
		return true
	}
	return s.opts.ConfigFile != "" && base == filepath.Base(s.opts.ConfigFile)
}

// configFiles are the config files the host reads, as absolute paths.
func (s *Server) configFiles() []string {
	root := ""
	if ws := s.workspace(); ws != nil {
		root = ws.Root()
	}
	return s.hostOptions(nil, nil).ConfigFiles(root)
}

// lintDocument computes and publishes a document's diagnostics from its
// current text: an open `.plan` document's, cleared when it is closed; a
// config file's buffer, or the file on disk once it is closed.
func (s *Server) lintDocument(path string, job lintJob) {
	ws := s.workspace()
	if ws == nil {
		return
	}
	if ws.Overlay().Lost(path) != "" {
		return // its text is unknown: the diagnostics it has stay until it is known again
	}
	text, version, open := ws.Overlay().Get(path)
	open = open && !job.closed
	if isPlanDoc(path) {
		if !open {
			s.publishDiagnostics(job.uri, nil, []lspDiagnostic{})
			return
		}
		s.publishDiagnostics(job.uri, &version, planDiagnostics(workspace.LintPlan(text)))
		return
	}
	isConfig := false
	for _, f := range s.configFiles() {
		isConfig = isConfig || host.SameFile(path, f)
	}
	if !isConfig {
		return
	}
	ver := &version
	if !open {
		ver = nil
		data, err := config.ReadFile(path) // a regular file only: a link to a FIFO blocks nothing
		if err != nil {
			s.publishDiagnostics(job.uri, nil, []lspDiagnostic{}) // no file, no problems
			return
		}
		text = string(data)
	}
	_, diags := config.ParseLayer(path, []byte(text))
	s.publishDiagnostics(job.uri, ver, configLSPDiagnostics(text, diags))
}

// lspDiagnostic is an LSP Diagnostic.
type lspDiagnostic struct {
	Range    workspace.Range `json:"range"`
	Severity int             `json:"severity"` // 1 error, 2 warning
	Source   string          `json:"source"`
	Message  string          `json:"message"`
}

func lspSeverity(s string) int {
	if s == workspace.PlanSeverityError || s == config.SeverityError {
		return 1
	}
	return 2
}

// publishDiagnostics sends textDocument/publishDiagnostics under the
// connection's context: it waits at most notifyWriteBound for a client that
// stops reading (the document worker goes on; the next report of the
// document replaces this one).
func (s *Server) publishDiagnostics(uri string, version *int32, diags []lspDiagnostic) {
	params := map[string]any{"uri": uri, "diagnostics": diags}
	if version != nil {
		params["version"] = *version
	}
	s.notifyClient(s.ctx, "textDocument/publishDiagnostics", params)
}

func planDiagnostics(diags []workspace.PlanDiagnostic) []lspDiagnostic {
	out := make([]lspDiagnostic, 0, len(diags))
	for _, d := range diags {
		out = append(out, lspDiagnostic{Range: d.Range, Severity: lspSeverity(d.Severity), Source: "agentls", Message: d.Message})
	}
	return out
}

// configLSPDiagnostics places config diagnostics (1-based line and column,
// the column in characters) in text: from the column to the end of the
// line's content. A diagnostic without a line sits at the start.
func configLSPDiagnostics(text string, diags []config.Diagnostic) []lspDiagnostic {
	lines := strings.SplitAfter(text, "\n")
	out := make([]lspDiagnostic, 0, len(diags))
	for _, d := range diags {
		var r workspace.Range
		if d.Line > 0 {
			i := min(d.Line-1, len(lines)-1)
			lineStart := 0
			for _, l := range lines[:i] {
				lineStart += len(l)
			}
			content := strings.TrimRight(lines[i], "\r\n")
			from := runeOffset(content, d.Column-1)
			to := len(strings.TrimRight(content, " \t"))
			if to <= from {
				to = len(content)
			}
			r = workspace.Range{Start: workspace.PositionOf(text, lineStart+from), End: workspace.PositionOf(text, lineStart+to)}
		}
		out = append(out, lspDiagnostic{Range: r, Severity: lspSeverity(d.Severity), Source: "agentls", Message: d.Message})
	}
	return out
}

// runeOffset is the byte offset of the n-th rune of s (len(s) past the end).
func runeOffset(s string, n int) int {
	for i := range s {
		if n <= 0 {
			return i
		}
		n--
	}
	return len(s)
}
