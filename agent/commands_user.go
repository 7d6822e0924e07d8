package agent

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agentls/agentls/agent/textline"
	"go.yaml.in/yaml/v3"
)

// User commands are Markdown prompt templates: `.agentls/commands/<name>.md`
// in the workspace (repository content) and `<name>.md` in the user's
// commands folder ($XDG_CONFIG_HOME/agentls/commands). Running one sends
// its body, with $ARGUMENTS replaced, as the user's message: it is data for
// the model and never changes the mode, the permissions or anything else
// by itself (a body that says "/build" is text).

// Limits of the user commands read.
const (
	maxUserCommandBytes = 64 << 10
	maxUserCommands     = 200
)

// userCommandName is what a file name (without .md) must look like to name
// a command.
var userCommandName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// userCommand is one command file.
type userCommand struct {
	name, description, hint string
	body                    string
	// source is where it was read ("project" or "user"), path its file.
	source, path string
	// err says why the file cannot be used (broken frontmatter, too big).
	err error
}

func (u userCommand) info() CommandInfo {
	desc := u.description
	if u.err != nil {
		desc = "(cannot be used: " + u.err.Error() + ")"
	}
	if desc == "" {
		desc = textline.FirstRunes(textline.OneLine(firstLineOf(u.body)), 80)
	}
	if desc == "" {
		desc = "User command"
	}
	return CommandInfo{Name: u.name, Description: desc + " (" + u.source + ")", Hint: u.hint}
}

// expand is the prompt the command sends: the body with $ARGUMENTS
// replaced (or the arguments after it when it has no $ARGUMENTS).
func (u userCommand) expand(args string) (commandOutcome, error) {
	if u.err != nil {
		return commandOutcome{}, commandErrorf("/%s (%s) cannot be used: %v", u.name, u.path, u.err)
	}
	body := strings.TrimSpace(u.body)
	switch {
	case strings.Contains(body, "$ARGUMENTS"):
		body = strings.ReplaceAll(body, "$ARGUMENTS", args)
	case args != "":
		body += "\n\nArguments: " + args
	}
	body = strings.TrimSpace(body)
	if body == "" {
		return commandOutcome{}, commandErrorf("/%s (%s) is empty: its file has no prompt text", u.name, u.path)
	}
	return commandOutcome{prompt: body}, nil
}

// projectCommandsDir is the workspace's commands folder.
func (m *Manager) projectCommandsDir() string {
	return filepath.Join(m.ws.Root(), ".agentls", "commands")
}

// userCommands reads the user commands now, sorted by name: the user's own
// folder wins over the project's for the same name, and no user command
// shadows a built-in.
func (m *Manager) userCommands() []userCommand {
	byName := map[string]userCommand{}
	for _, src := range []struct{ dir, source string }{{m.projectCommandsDir(), "project"}, {m.userCommandsDir, "user"}} {
		if src.dir == "" {
			continue
		}
		for _, u := range readCommandDir(src.dir, src.source) {
			if _, builtin := builtinByName[u.name]; builtin {
				slog.Warn("user command ignored: a built-in has its name", "path", u.path)
				continue
			}
			byName[u.name] = u
		}
	}
	out := make([]userCommand, 0, len(byName))
	for _, u := range byName {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// readCommandDir reads the *.md command files of dir (regular files only:
// a symlink could make repository content of any file on the machine).
func readCommandDir(dir, source string) []userCommand {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !os.IsNotExist(err) {
			slog.Warn("read commands folder", "dir", dir, "err", err)
		}
		return nil
	}
	var out []userCommand
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if !userCommandName.MatchString(name) {
			slog.Warn("user command ignored: its name must be letters, digits, '.', '_' or '-'", "path", filepath.Join(dir, e.Name()))
			continue
		}
		if len(out) == maxUserCommands {
			slog.Warn("too many user commands: the rest are ignored", "dir", dir, "max", maxUserCommands)
			break
		}
		out = append(out, readCommandFile(filepath.Join(dir, e.Name()), name, source))
	}
	return out
}

// readCommandFile reads one command file; a file that cannot be used
// carries its err.
func readCommandFile(path, name, source string) userCommand {
	u := userCommand{name: name, source: source, path: path}
	f, err := os.Open(path)
	if err != nil {
		u.err = err
		return u
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		u.err = fmt.Errorf("not a regular file")
		return u
	}
	data, err := io.ReadAll(io.LimitReader(f, maxUserCommandBytes+1))
	if err != nil {
		u.err = err
		return u
	}
	if len(data) > maxUserCommandBytes {
		u.err = fmt.Errorf("larger than %d KiB", maxUserCommandBytes>>10)
		return u
	}
	if !utf8.Valid(data) {
		u.err = fmt.Errorf("not UTF-8 text")
		return u
	}
	front, body, err := splitCommandFrontmatter(data)
	if err != nil {
		u.err = err
		return u
	}
	u.body = body
	if front != nil {
		var meta struct {
			Description  string `yaml:"description"`
			ArgumentHint string `yaml:"argument-hint"`
		}
		if err := yaml.Unmarshal(front, &meta); err != nil {
			u.err = fmt.Errorf("frontmatter: %v", textline.OneLine(err.Error()))
			return u
		}
		u.description, u.hint = textline.OneLine(meta.Description), textline.OneLine(meta.ArgumentHint)
	}
	return u
}

// splitCommandFrontmatter splits a "---" frontmatter block from the body
// (front is nil when there is none).
func splitCommandFrontmatter(data []byte) (front []byte, body string, err error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return nil, text, nil
	}
	if strings.HasPrefix(rest, "---\n") || rest == "---" {
		return []byte{}, strings.TrimPrefix(rest, "---"), nil
	}
	end := strings.Index(rest, "\n---\n")
	if end < 0 {
		if strings.HasSuffix(rest, "\n---") {
			return []byte(rest[:len(rest)-4]), "", nil
		}
		return nil, "", fmt.Errorf("frontmatter: no closing ---")
	}
	return []byte(rest[:end]), rest[end+5:], nil
}

// firstLineOf is s's first non-blank line.
func firstLineOf(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) != "" {
			return strings.TrimSpace(line)
		}
	}
	return ""
}
