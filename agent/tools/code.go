package tools

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// MaxCodeItems caps the items of a code (and rename) result.
const MaxCodeItems = 20

// maxHoverBytes caps a hover's text.
const maxHoverBytes = 4000

// IntelEnv is an Env with language intelligence: the agent's env has it
// when a source (the editor or agentls's pool) serves the workspace.
type IntelEnv interface {
	// LanguageIntel is the session's source, nil when none serves.
	LanguageIntel() intel.Source
}

// NeedsLanguageIntel reports whether a tool is offered only when a source
// serves (docs/language-intel.md).
func NeedsLanguageIntel(name string) bool { return name == "code" || name == "rename" }

// WithServedTypes is a language tool's description naming the file types
// a source serves (the model is offered the tool only for them).
func WithServedTypes(desc string, served []string) string {
	return strings.TrimRight(desc, "\n") + " Only for these file types: " + intel.DescribeTypes(served) + "."
}

// intelOf is env's language intelligence, or nil.
func intelOf(env Env) intel.Source {
	if env.Config().LSP.Source == "off" {
		return nil
	}
	if ie, ok := env.(IntelEnv); ok {
		return ie.LanguageIntel()
	}
	return nil
}

// CodeParams are the arguments of code.
type CodeParams struct {
	Op     string `json:"op" enum:"diagnostics,definition,references,hover,symbols"`
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line,omitempty" minimum:"1"`
	Symbol string `json:"symbol,omitempty"`
	Query  string `json:"query,omitempty"`
}

// CodeLocation is a location as the model reads it: the path relative,
// lines from 1, and the line's text.
type CodeLocation struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text,omitempty"`
}

// CodeSymbol is a symbol as the model reads it.
type CodeSymbol struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Container string `json:"container,omitempty"`
}

// CodeOutput is code's result: one of the lists (or hover), the number of
// items in all and whether the list was cut at MaxCodeItems.
type CodeOutput struct {
	Problems  []agentproto.Problem `json:"problems,omitempty"`
	Locations []CodeLocation       `json:"locations,omitempty"`
	Symbols   []CodeSymbol         `json:"symbols,omitempty"`
	Hover     string               `json:"hover,omitempty"`
	Total     int                  `json:"total"`
	Truncated bool                 `json:"truncated,omitempty"`
	Settled   *bool                `json:"settled,omitempty"`
}

// runCode runs code.
func runCode(ctx context.Context, env Env, p CodeParams) (Result, error) {
	src := intelOf(env)
	if src == nil {
		return Failf("no language server serves this workspace (lsp.source); use grep"), nil
	}
	ws := env.Workspace()
	switch p.Op {
	case "diagnostics":
		return codeDiagnostics(ctx, env, src, p)
	case "symbols":
		if p.Path == "" {
			if strings.TrimSpace(p.Query) == "" {
				return Failf("symbols needs a path (its outline) or a query (workspace symbols)"), nil
			}
			syms, err := src.Symbols(ctx, "", p.Query)
			return symbolsResult(ws, syms, err)
		}
		rp, fail := servedPath(env, src, p.Path)
		if fail != nil {
			return *fail, nil
		}
		syms, err := src.Symbols(ctx, rp.Abs, p.Query)
		return symbolsResult(ws, syms, err)
	case "definition", "references", "hover":
		rp, pos, fail := symbolPosition(env, src, p.Path, p.Line, p.Symbol)
		if fail != nil {
			return *fail, nil
		}
		if p.Op == "hover" {
			text, err := src.Hover(ctx, rp.Abs, pos)
			if err != nil {
				return intelFailure(err)
			}
			if len(text) > maxHoverBytes {
				text = cutBytes(text, maxHoverBytes) + "…"
			}
			return OK(CodeOutput{Hover: text, Total: 1}), nil
		}
		get := src.Definition
		if p.Op == "references" {
			get = src.References
		}
		locs, err := get(ctx, rp.Abs, pos)
		if err != nil {
			return intelFailure(err)
		}
		out := CodeOutput{Total: len(locs)}
		// A location's line is quoted only when read may open its file: a
		// server's answer never hands the model a line of agentls's
		// configuration or state (docs/guard.md, "No reads either").
		readable := func(abs string) bool {
			args, err := json.Marshal(ReadParams{Path: abs})
			return err == nil && env.Guard().CheckCall(env.State(), "read", args) == nil
		}
		out.Locations, out.Truncated = firstItems(locs, func(l intel.Location) CodeLocation { return codeLocation(ws, l, readable) })
		return OK(out), nil
	}
	return Failf("unknown op %q: diagnostics, definition, references, hover or symbols", p.Op), nil
}

// codeDiagnostics is the diagnostics op: the problems of path, or of every
// file the source knows, errors first.
func codeDiagnostics(ctx context.Context, env Env, src intel.Source, p CodeParams) (Result, error) {
	var paths []string
	if p.Path != "" {
		rp, fail := servedPath(env, src, p.Path)
		if fail != nil {
			return *fail, nil
		}
		paths = []string{rp.Abs}
	}
	snap, settled, err := intel.Settle(ctx, src, paths, SettleBudget(env))
	if err != nil {
		return intelFailure(err)
	}
	probs := Problems(env.Workspace(), snap.Files)
	out := CodeOutput{Total: len(probs), Settled: &settled}
	out.Problems, out.Truncated = capped(probs, MaxCodeItems)
	return OK(out), nil
}

// Problems lists the diagnostics of files for the model: paths relative,
// lines from 1, errors first, then by path and line.
func Problems(ws *workspace.Workspace, files map[string][]intel.Diagnostic) []agentproto.Problem {
	var out []agentproto.Problem
	sev := map[string]int{}
	for path, ds := range files {
		for _, d := range ds {
			cp := agentproto.Problem{Path: relPath(ws, path), Line: int(d.Range.Start.Line) + 1, Severity: SeverityName(d.Severity), Message: d.Message, Source: d.Source, Code: d.Code}
			sev[cp.Severity] = severityRank(d.Severity)
			out = append(out, cp)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if sev[a.Severity] != sev[b.Severity] {
			return sev[a.Severity] < sev[b.Severity]
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	return out
}

// SeverityName names an LSP severity (none is an error, as LSP says a
// client may assume).
func SeverityName(s int) string {
	switch s {
	case intel.SeverityWarning:
		return "warning"
	case intel.SeverityInformation:
		return "info"
	case intel.SeverityHint:
		return "hint"
	}
	return "error"
}

func severityRank(s int) int {
	if s == 0 {
		return intel.SeverityError
	}
	return s
}

// symbolsResult is the symbols op's result.
func symbolsResult(ws *workspace.Workspace, syms []intel.Symbol, err error) (Result, error) {
	if err != nil {
		return intelFailure(err)
	}
	out := CodeOutput{Total: len(syms)}
	out.Symbols, out.Truncated = firstItems(syms, func(s intel.Symbol) CodeSymbol {
		return CodeSymbol{Name: s.Name, Kind: s.Kind, Path: relPath(ws, s.Location.Path), Line: int(s.Location.Range.Start.Line) + 1, Container: s.Container}
	})
	return OK(out), nil
}

// firstItems converts the first MaxCodeItems of items; cut says whether
// more were left out.
func firstItems[T, W any](items []T, conv func(T) W) (out []W, cut bool) {
	items, cut = capped(items, MaxCodeItems)
	for _, item := range items {
		out = append(out, conv(item))
	}
	return out, cut
}

// intelFailure is the result of a failed request to the source: a file
// type none serves is the model's to read, other failures too (the server
// crashed, timed out); only a cancelled turn is an error.
func intelFailure(err error) (Result, error) {
	if errors.Is(err, context.Canceled) {
		return Result{}, err
	}
	if errors.Is(err, intel.ErrNotServed) {
		return Failf("%v; use grep and read", err), nil
	}
	return Failf("language server: %v", err), nil
}

// servedPath resolves a path argument to a file whose type the source
// serves.
func servedPath(env Env, src intel.Source, arg string) (workspace.Path, *Result) {
	rp, fail := resolve(env, "path", arg)
	if fail != nil {
		return rp, fail
	}
	if rp.IsDir {
		return rp, failed("%s is a folder; give a file", rp.Rel)
	}
	if !exists(env.Workspace(), rp) {
		return rp, failed("%s does not exist", rp.Rel)
	}
	if !src.Serves(rp.Abs) {
		return rp, notServed(src, rp)
	}
	return rp, nil
}

// notServed is the failure of a call on a file whose type no source
// serves: it names the types served.
func notServed(src intel.Source, rp workspace.Path) *Result {
	what := "files of this type"
	if t := intel.FileType(rp.Abs); t != "" {
		what = intel.Family(t) + " files"
	} else if ext := filepath.Ext(rp.Abs); ext != "" {
		what = ext + " files"
	}
	served := intel.ServedTypes(src)
	if len(served) == 0 {
		return failed("no language server serves %s (%s); use grep and read", rp.Rel, what)
	}
	return failed("no language server serves %s (%s; served: %s); use grep and read", rp.Rel, what, intel.DescribeTypes(served))
}

// symbolPosition resolves path, line and symbol to the position of the
// symbol's first whole-word occurrence on that line (agentls finds the
// column, in UTF-16 units).
func symbolPosition(env Env, src intel.Source, path string, line int, symbol string) (workspace.Path, workspace.Position, *Result) {
	if path == "" || line < 1 || strings.TrimSpace(symbol) == "" {
		return workspace.Path{}, workspace.Position{}, failed("this op needs path, line (from 1) and symbol")
	}
	rp, fail := servedPath(env, src, path)
	if fail != nil {
		return rp, workspace.Position{}, fail
	}
	text, err := env.Workspace().ReadFile(rp)
	if err != nil {
		return rp, workspace.Position{}, failed("%s: %v", rp.Rel, err)
	}
	off, ok := lineOffset(text, line)
	if !ok {
		return rp, workspace.Position{}, failed("%s has no line %d", rp.Rel, line)
	}
	lineText, _, _ := strings.Cut(text[off:], "\n")
	col := wordIndex(lineText, symbol)
	if col < 0 {
		return rp, workspace.Position{}, failed("%q is not on line %d of %s: %q", symbol, line, rp.Rel, strings.TrimSpace(lineText))
	}
	return rp, workspace.PositionOf(text, off+col), nil
}

// lineOffset is the byte offset of line (from 1) in text.
func lineOffset(text string, line int) (int, bool) {
	off := 0
	for i := 1; i < line; i++ {
		nl := strings.IndexByte(text[off:], '\n')
		if nl < 0 {
			return 0, false
		}
		off += nl + 1
	}
	return off, true
}

// wordIndex is the byte index of the first occurrence of word in s not
// inside a longer identifier, or -1 (then the first occurrence at all).
func wordIndex(s, word string) int {
	first := -1
	for i := 0; i+len(word) <= len(s); {
		j := strings.Index(s[i:], word)
		if j < 0 {
			break
		}
		at := i + j
		if first < 0 {
			first = at
		}
		before, _ := utf8.DecodeLastRuneInString(s[:at])
		after, _ := utf8.DecodeRuneInString(s[at+len(word):])
		if !identRune(before) && !identRune(after) {
			return at
		}
		i = at + 1
	}
	return first
}

func identRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// codeLocation is l for the model, with its line's text.
func codeLocation(ws *workspace.Workspace, l intel.Location, readable func(abs string) bool) CodeLocation {
	out := CodeLocation{Path: relPath(ws, l.Path), Line: int(l.Range.Start.Line) + 1}
	if !readable(l.Path) {
		return out
	}
	if rp, err := ws.Resolve(l.Path); err == nil {
		if text, err := ws.ReadFile(rp); err == nil {
			if off, ok := lineOffset(text, out.Line); ok {
				line, _, _ := strings.Cut(text[off:], "\n")
				out.Text = excerptLine(strings.TrimSpace(line))
			}
		}
	}
	return out
}

func excerptLine(s string) string {
	if len(s) <= 160 {
		return s
	}
	return cutBytes(s, 160) + "…"
}

// cutBytes is s cut to at most n bytes at a character boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// relPath is path relative to the workspace (forward slashes), or the path
// as it is outside it (a library's declaration).
func relPath(ws *workspace.Workspace, path string) string {
	if rel := ws.RelOf(path); rel != "" {
		return rel
	}
	return path
}

// SettleBudget is lsp.settle_ms as a duration.
func SettleBudget(env Env) time.Duration {
	return intel.Budget(env.Config().LSP.SettleMs)
}

// codeTool answers questions about code from the language servers.
var codeTool = New(Def[CodeParams]{Name: "code", Kind: "search", Run: runCode,
	Title: func(p CodeParams) string {
		return title("code", strings.Join([]string{p.Op, p.Path, p.Symbol + p.Query}, " "))
	},
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
		Paths: []guard.PathArg{{Name: "path", Role: guard.Source, Optional: true}}},
})
