// Package permission is the one permission service's shape: every question
// that asks a person to allow something — a command, the commands a plan
// grants, a workspace file's trust, and from now on an MCP call, a network
// fetch, a sub-agent — is one Request, which each face renders the same
// way (LSP `agent/askUser` with purpose "permission", plain
// `window/showMessageRequest`, ACP `session/request_permission`), and
// whose answer is a Decision. A request shows everything it grants. Ask
// (fast.go) times each answer from the face's send: an allowing one that
// came faster than a person decides (HumanFloor) is the client's, and
// grants nothing that outlasts the call.
package permission

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/questions"
)

// Opt is the option of kind k labelled label.
func Opt(k agentproto.OptionKind, label string) agentproto.PermissionOption {
	return agentproto.PermissionOption{ID: k, Kind: k, Label: label}
}

// Network states what a command's network is, as the question shows it.
const (
	NetworkYes         = "yes"          // the sandbox lets it out
	NetworkNo          = "no"           // the sandbox keeps it in
	NetworkNotIsolated = "not isolated" // no sandbox layer can switch it off
)

// Sandbox states whether a sandbox confines the command.
const (
	SandboxOn  = "on"
	SandboxOff = "off"
)

// Request is one permission question. Faces render it through Text,
// Title, Question and Actions (all escaped) and the wire payload Wire.
type Request struct {
	SessionID  string
	ToolCallID string
	// Requester is who asks: a tool's name, or "agentls" for its own
	// questions; a sub-agent's request names it too (SubagentRequester).
	Requester string
	Kind      agentproto.PermissionKind
	// What is the thing asked about: the command line, the plan's path, the
	// configuration file's path.
	What string
	// Cwd is the folder a command runs in (absolute), for kind run.
	Cwd string
	// Reach is the asking tool's reach (workspace, network, process,
	// editor).
	Reach agentproto.Reach
	// Grants lists what allowing grants beyond What itself: a plan's
	// allowed_commands, a trusted file's widening `key: value` lines. Every
	// one is shown in full.
	Grants []string
	// Network and Sandbox describe where a command runs (NetworkNotIsolated
	// and SandboxOff until the sandbox reports otherwise).
	Network string
	Sandbox string
	// Options are the choices, in the order a face shows them (the safe one
	// first: some clients take the first on a bare Enter).
	Options []agentproto.PermissionOption
	// Note is a paragraph more (why "Always allow" is not offered).
	Note string
	// Document is a generated file (absolute path) that shows the grants,
	// or the changes, when they are too many for a question (DocLines);
	// the text refers to it. A face that cannot open it shows the
	// question without it (Request.Document = ""): every line in full.
	Document string
	// Diff is the change asked about, in the unified format (kind edit).
	Diff string
	// Args, for kind mcp, are the call's arguments as the server gets them
	// (indented JSON), shown after the note: in full, or, with a Document,
	// their first DocChars bytes and a reference to it.
	Args string
	// Done, for kind edit, is the command that already made the change (the
	// run tool's check after a command, agent/tools/sentinel.go): the
	// question asks whether to keep it (allow) or undo it (reject), What
	// sums them up, Changes lists them and Note says why it is asked.
	Done string
	// Changes are what the command in Done did, each shown in full (or in
	// Document): keeping them keeps all they hold.
	Changes []Change
	// Always says what the allow_always option grants beyond this request,
	// in words a person reads ("every later call of the tool …, with any
	// arguments, runs without a question for the rest of this session");
	// Choices shows it. A trust question's is TrustAlways when unset.
	Always string
}

// TrustAlways is what trusting a workspace file grants.
const TrustAlways = "this content of the file is trusted from now on, in every session: what it sets applies until the file changes, and a changed file is asked about again"

// Decision is the person's answer: the option chosen, or dismissed.
type Decision struct {
	Option    agentproto.OptionKind
	Dismissed bool
	// Fast is how soon the client answered when it allowed within
	// HumanFloor of the question's send (fast.go), else 0: no person
	// decided. It allows this one call at most: Mark narrows an "always"
	// to Option allow_once (Chose keeps the client's choice), and a fast
	// trust or plan approval grants nothing (FastNote says so).
	Fast time.Duration
	// Chose is the option the client chose when Fast (Option may be
	// narrower), and Kind the kind of the request it answered.
	Chose agentproto.OptionKind
	Kind  agentproto.PermissionKind
}

// Allowed reports whether the decision allows (once or always).
func (d Decision) Allowed() bool {
	return d.Option == agentproto.AllowOnce || d.Option == agentproto.AllowAlways
}

// Permitter asks a person for permission: each face implements it.
type Permitter interface {
	// Permit shows the request and waits for the decision. It returns
	// ErrNoSurface when the editor cannot ask.
	Permit(ctx context.Context, req Request) (Decision, error)
}

// ErrNoSurface is returned by Permit when the editor cannot ask.
var ErrNoSurface = errors.New("the editor cannot ask for permission")

// Offers reports whether the request offers an option of kind k.
func (r Request) Offers(k agentproto.OptionKind) bool {
	for _, o := range r.Options {
		if o.Kind == k {
			return true
		}
	}
	return false
}

// Option is the offered option with id, if any.
func (r Request) Option(id string) (agentproto.PermissionOption, bool) {
	for _, o := range r.Options {
		if string(o.ID) == id {
			return o, true
		}
	}
	return agentproto.PermissionOption{}, false
}

// Escaped is the request with every text field through questions.Escape
// (one-line fields through questions.EscapeLine): what reaches a client.
func (r Request) Escaped() Request {
	e := r
	e.What = countBlanks(questions.EscapeLine(r.What))
	e.Cwd = questions.EscapeLine(r.Cwd)
	e.Requester = questions.EscapeLine(r.Requester)
	e.Document = questions.EscapeLine(r.Document)
	e.Note = questions.Escape(r.Note)
	e.Diff = questions.Escape(r.Diff)
	e.Args = questions.Escape(r.Args)
	e.Done = countBlanks(questions.EscapeLine(r.Done))
	e.Always = questions.Escape(r.Always)
	e.Grants = make([]string, len(r.Grants))
	for i, g := range r.Grants {
		e.Grants[i] = countBlanks(questions.EscapeLine(g)) // a padded allowed command, like What
	}
	e.Options = make([]agentproto.PermissionOption, len(r.Options))
	for i, o := range r.Options {
		e.Options[i] = Opt(o.Kind, countBlanks(questions.EscapeLine(o.Label))) // "Always allow" names the command
	}
	return e
}

// spaceRun is the longest run of ASCII spaces What shows as it is.
const spaceRun = 3

// countBlanks shows each run of more than spaceRun spaces in a one-line
// text as ` ⟨N spaces⟩ `, and each run holding any other blank character
// (a no-break, em or ideographic space, a Hangul filler, a braille blank:
// otherBlank) as ` ⟨N blanks: U+00A0⟩ `, however short: a command padded with
// hundreds of them would push what follows (`; curl …|sh`) past the end of
// a one-line title, which some clients show alone, or out of a narrow
// question; and none of them separates words for the shell, so one that
// looks like a space between two words is named.
func countBlanks(s string) string {
	if !strings.Contains(s, strings.Repeat(" ", spaceRun+1)) && !strings.ContainsFunc(s, otherBlank) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j, n, other := i, 0, false
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if r != ' ' && !otherBlank(r) {
				break
			}
			other = other || r != ' '
			j, n = j+size, n+1
		}
		switch {
		case n == 0:
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			j = i + size
		case other:
			fmt.Fprintf(&b, " ⟨%d %s: %s⟩ ", n, Plural(n, "blank", "blanks"), codePoints(s[i:j]))
		case n > spaceRun:
			fmt.Fprintf(&b, " ⟨%d spaces⟩ ", n)
		default:
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

// otherBlank reports whether r, not an ASCII space, renders as blank
// space: Unicode's space separators (Zs) and the fillers fonts draw empty.
// (Tabs, line breaks and format characters are escaped before:
// questions.EscapeLine.)
func otherBlank(r rune) bool {
	switch r {
	case ' ':
		return false
	case '\u115F', '\u1160', '\u3164', '\uFFA0', '\u2800':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// codePoints names the distinct characters of a blank run, in order
// (U+0020 U+00A0), at most four.
func codePoints(run string) string {
	var names []string
	for _, r := range run {
		name := fmt.Sprintf("U+%04X", r)
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(names) > 4 {
		names = append(names[:4], "…")
	}
	return strings.Join(names, " ")
}

// Plural is one when n is 1, else many (for counted nouns in what a
// person reads).
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Title is the request in one line (escaped): an ACP tool call's title.
func (r Request) Title() string {
	e := r.Escaped()
	switch r.Kind {
	case agentproto.PermissionRun:
		return fmt.Sprintf("Run %s in %s", CodeSpan(e.What), e.Cwd)
	case agentproto.PermissionTrust:
		return "Trust " + e.What
	case agentproto.PermissionPlan:
		// The model names its plans: a code span, so that no part of the
		// name renders as Markdown (`plans/[fix](x).plan` as a link
		// would read "plans/fix.plan").
		return "Approve the plan " + CodeSpan(e.What) + " and start building?"
	case agentproto.PermissionEdit:
		if r.Done != "" {
			// Each file a code span (What, on the wire, is plain text):
			// no file name renders as Markdown.
			return "Keep what " + CodeSpan(e.Done) + " did (" + questions.EscapeLine(ChangesShort(r.Changes, shownSpan)) + ")?"
		}
		return "Apply the edit: " + e.What
	}
	return fmt.Sprintf("Allow %s: %s", r.Kind, e.What)
}

// shownSpan is s escaped as What is (Escaped), as a code span.
func shownSpan(s string) string { return CodeSpan(countBlanks(questions.EscapeLine(s))) }

// GrantsIntro introduces a plan approval's grants.
const GrantsIntro = "Approving also allows these commands for this session:"

// RunQuestion is a command's question in one line, "Run `cmd`?" (escaped,
// a code span): what Text asks of a command without backticks, and what
// a plain editor's short question and its withdrawal name.
func (r Request) RunQuestion() string { return runQuestion(r.Escaped().What) }

// runQuestion is RunQuestion of the escaped command what.
func runQuestion(what string) string { return "Run " + CodeSpan(what) + "?" }

// Text is the whole question (escaped): what, where, the network and the
// sandbox (a command's, an MCP server's), what it grants, and the note.
func (r Request) Text() string {
	e := r.Escaped()
	var b strings.Builder
	switch r.Kind {
	case agentproto.PermissionRun:
		if strings.Contains(e.What, "`") {
			fmt.Fprintf(&b, "Run this command?\n\n%s", CodeBlock(e.What, "sh"))
		} else {
			b.WriteString(runQuestion(e.What))
		}
		fmt.Fprintf(&b, "\n\nFolder: %s\nNetwork: %s\nSandbox: %s", e.Cwd, orUnknown(e.Network), orUnknown(e.Sandbox))
	case agentproto.PermissionTrust:
		if base := filepath.Base(e.What); base == ".mcp.json" || base == "mcp.json" {
			fmt.Fprintf(&b, "This workspace's %s starts MCP servers (below); they start only once you trust this content of the file. Trust it? (%s)", base, e.What)
		} else {
			fmt.Fprintf(&b, "This workspace's %s sets keys that widen what agentls may do; they apply only once you trust this content of the file. Trust it? (%s)",
				base, e.What)
		}
	case agentproto.PermissionPlan:
		fmt.Fprintf(&b, "Review the plan %s. Accept it and start building?", CodeSpan(e.What))
	case agentproto.PermissionEdit:
		if r.Done != "" {
			if strings.Contains(e.Done, "`") {
				fmt.Fprintf(&b, "Keep what this command did to files your editor or shell runs by itself?\n\n%s", CodeBlock(e.Done, "sh"))
			} else {
				fmt.Fprintf(&b, "Keep what the command %s did to files your editor or shell runs by itself?", CodeSpan(e.Done))
			}
			if c := e.changesText(); c != "" {
				b.WriteString("\n\n" + c)
			}
			break
		}
		fmt.Fprintf(&b, "Apply this edit? %s", e.What)
		if e.Diff != "" {
			fence := Fence(e.Diff, 3)
			fmt.Fprintf(&b, "\n\n%sdiff\n%s\n%s", fence, strings.TrimSuffix(e.Diff, "\n"), fence)
		}
	case agentproto.PermissionMCP:
		if strings.Contains(e.What, "`") {
			fmt.Fprintf(&b, "Allow this MCP call?\n\n%s", CodeBlock(e.What, ""))
		} else {
			fmt.Fprintf(&b, "Allow the MCP call %s?", CodeSpan(e.What))
		}
		fmt.Fprintf(&b, "\n\nNetwork: %s\nSandbox: %s", orUnknown(e.Network), orUnknown(e.Sandbox))
	default:
		fmt.Fprintf(&b, "Allow %s %s?", r.Kind, CodeSpan(e.What))
	}
	if g := e.grantsText(); g != "" {
		b.WriteString("\n\n" + g)
	}
	if e.Note != "" {
		b.WriteString("\n\n" + e.Note)
	}
	if a := e.argsText(); a != "" {
		b.WriteString("\n\n" + a)
	}
	return b.String()
}

// argsText shows the arguments in a fence they cannot close: all of them,
// or, when a document holds them, their first DocChars bytes and where the
// rest is.
func (e Request) argsText() string {
	if e.Args == "" {
		return ""
	}
	args, intro := e.Args, "Arguments:"
	if e.Document != "" && len(args) > DocChars {
		n := DocChars
		for n > 0 && !utf8.RuneStart(args[n]) {
			n--
		}
		args = args[:n] + "…"
		intro = fmt.Sprintf("Arguments (the first %d of %d bytes; all of them in %s, opened beside this question):", n, len(e.Args), e.Document)
	}
	fence := Fence(args, 3)
	return intro + "\n" + fence + "json\n" + args + "\n" + fence
}

// grantsText lists the grants, one per line, or refers to the document.
func (e Request) grantsText() string {
	if len(e.Grants) == 0 {
		return ""
	}
	intro := GrantsIntro
	if e.Kind == agentproto.PermissionTrust {
		intro = "Trusting applies:"
	}
	if e.Document != "" {
		return fmt.Sprintf("%s %d lines, in full in %s (opened beside this question).", strings.TrimSuffix(intro, ":"), len(e.Grants), e.Document)
	}
	return GrantsList(intro, e.Grants)
}

// GrantsList is intro and the grants (escaped, one line each) below it,
// shown as they are: a trusted file's `key: value` lines come with the
// repository, and their text must not render as Markdown (a link hides
// its target). Each is a code span in a list; when one holds a backtick
// they are all one fenced block instead, which no backtick in them can
// close: some clients render a code span only between single backticks
// and drop the backticks inside a longer one (agent-shell showed
// echo `curl … | sh` as an echo of words).
func GrantsList(intro string, grants []string) string {
	if slices.ContainsFunc(grants, func(g string) bool { return strings.Contains(g, "`") }) {
		return intro + "\n\n" + CodeBlock(strings.Join(grants, "\n"), "")
	}
	out := make([]string, len(grants))
	for i, g := range grants {
		out[i] = CodeSpan(g)
	}
	return intro + "\n- " + strings.Join(out, "\n- ")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// SubagentRequester is the Requester of a request a sub-agent asks: the
// tool, and who ("run (sub-agent build-1 1a2b3c4d)"; who is its key and
// short id).
func SubagentRequester(tool, who string) string {
	return tool + " (sub-agent " + who + ")"
}

// Choices is the options as a Markdown list (escaped), each durable one
// with what it grants (Always): for clients that show a permission request
// with labels of their own, one per option kind (CodeCompanion.nvim's
// "Accept", "Always accept", "Reject"), never the options' names, so the
// question's text must say what "always" means here.
func (r Request) Choices() string {
	if len(r.Options) == 0 {
		return ""
	}
	e := r.Escaped()
	always := e.Always
	if always == "" && r.Kind == agentproto.PermissionTrust {
		always = TrustAlways
	}
	var b strings.Builder
	b.WriteString("The answers (your editor may label them its own way):")
	for _, o := range e.Options {
		b.WriteString("\n- " + o.Label)
		if o.Kind == agentproto.AllowAlways && always != "" {
			b.WriteString(": " + always)
		}
	}
	return b.String()
}

// AskedBy is the line a question gains when a sub-agent asks ("Asked by
// sub-agent build-1 1a2b3c4d.", escaped), read from the Requester that
// SubagentRequester made; "" for a session's own request.
func (r Request) AskedBy() string {
	_, who, ok := strings.Cut(r.Escaped().Requester, "(sub-agent ")
	if !ok || !strings.HasSuffix(who, ")") {
		return ""
	}
	return "Asked by sub-agent " + strings.TrimSuffix(who, ")") + "."
}

// QuestionName is the name of a permission's one question.
const QuestionName = "decision"

// Question is the request as one `questions` question named "decision"
// whose values are the option ids, for clients that read only `questions`:
// its text is Text, ending with AskedBy when a sub-agent asks (a person
// reads only the text, never the Requester).
func (r Request) Question() (*questions.Set, error) {
	if len(r.Options) == 0 {
		return nil, errors.New("permission request offers no option")
	}
	enum := make([]string, 0, len(r.Options))
	buttons := make([]questions.Button, 0, len(r.Options))
	for _, o := range r.Escaped().Options {
		enum = append(enum, `"`+string(o.ID)+`"`)
		variant := "secondary"
		switch o.Kind {
		case agentproto.AllowOnce:
			variant = "primary"
		case agentproto.RejectOnce:
			variant = "danger"
		}
		buttons = append(buttons, questions.Button{Label: o.Label, Value: string(o.ID), Variant: variant})
	}
	text := r.Text()
	if by := r.AskedBy(); by != "" {
		text += "\n\n" + by
	}
	set, err := questions.New([]questions.Question{{
		Name: QuestionName, Question: text, Schema: []byte(`{"type":"string","enum":[` + strings.Join(enum, ",") + `]}`),
		Buttons: buttons, Severity: "major",
	}})
	if err != nil {
		return nil, fmt.Errorf("permission question: %w", err)
	}
	return set, nil
}

// Actions are the options as message actions, rejections first.
func (r Request) Actions() []questions.Action {
	var out, allow []questions.Action
	for _, o := range r.Escaped().Options {
		a := questions.Action{Title: o.Label, Value: string(o.ID)}
		if o.Kind == agentproto.RejectOnce {
			out = append(out, a)
		} else {
			allow = append(allow, a)
		}
	}
	return append(out, allow...)
}

// DecisionOf maps an answer (an option id) to the decision; an answer that
// is no offered option is an error.
func (r Request) DecisionOf(answer any) (Decision, error) {
	id, _ := answer.(string)
	o, ok := r.Option(id)
	if !ok {
		return Decision{}, fmt.Errorf("the answer %v is not one of the options offered", answer)
	}
	return Decision{Option: o.Kind}, nil
}

// CodeSpan is text (one line, already escaped) as one Markdown code span
// that no backtick in it can close: fenced by a run of backticks longer
// than any in text, padded with a space where text begins or ends with a
// backtick or a space (CommonMark strips one from each end), and empty
// text as a space (two backticks alone are no span). With single
// backticks, a command holding them would leave the span early and the
// rest render as Markdown: a link whose target, never shown, is what the
// shell runs (`npm test '`[npm test](<';curl …|sh;'>)`'`).
func CodeSpan(text string) string {
	fence := Fence(text, 1)
	if text == "" || strings.ContainsRune("` ", rune(text[0])) || strings.ContainsRune("` ", rune(text[len(text)-1])) {
		return fence + " " + text + " " + fence
	}
	return fence + text + fence
}

// CodeBlock is text (already escaped) as a fenced Markdown code block of
// language lang that no backtick in it can close (Fence), without a last
// line break. A command holding backticks is shown so: as a code span it
// would need a longer run of backticks around it, which some clients
// (agent-shell) render without the command's own.
func CodeBlock(text, lang string) string {
	fence := Fence(text, 3)
	return fence + lang + "\n" + strings.TrimSuffix(text, "\n") + "\n" + fence
}

// Fence is a Markdown code fence of at least least backticks and longer
// than any run of backticks in text, so that text cannot close it.
func Fence(text string, least int) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
			continue
		}
		run = 0
	}
	return strings.Repeat("`", max(least, longest+1))
}
