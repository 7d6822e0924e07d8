package slash

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/agent/mdfile"
	"github.com/agentls/agentls/agent/textline"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/questions"
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

// User is one user command file.
type User struct {
	name, description, hint string
	body                    string
	// source is where it was read ("project" or "user"), path its file.
	source, path string
	// err says why the file cannot be used (broken frontmatter, too big).
	err error
}

// Name is the command's name (its file's, without .md).
func (u User) Name() string { return u.name }

// MaxDescriptionColumns is the longest description a command lists (an
// MCP prompt's too): a longer one is cut, so the source that follows it
// stays in view.
const MaxDescriptionColumns = 120

// Info is the command as the command lists show it; a file that cannot be
// used says why in its description.
func (u User) Info() agentproto.CommandInfo {
	desc := textline.Short(u.description, MaxDescriptionColumns)
	if u.err != nil {
		desc = "(cannot be used: " + u.err.Error() + ")"
	}
	if desc == "" {
		desc = textline.Short(firstLineOf(u.body), 80)
	}
	if desc == "" {
		desc = "User command"
	}
	// The file's text reaches a person (a face's command list): escaped as
	// every such text is, so a bidi override cannot disguise the command.
	return agentproto.CommandInfo{Name: u.name, Description: questions.EscapeLine(desc) + " (" + u.source + ")", Hint: questions.EscapeLine(u.hint)}
}

// Expand is the prompt the command sends: the body with $ARGUMENTS
// replaced (or the arguments after it when it has no $ARGUMENTS). The error
// of a file that cannot be used, or is empty, is the user's to correct.
func (u User) Expand(args string) (string, error) {
	if u.err != nil {
		return "", fmt.Errorf("/%s (%s) cannot be used: %v", u.name, u.path, u.err)
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
		return "", fmt.Errorf("/%s (%s) is empty: its file has no prompt text", u.name, u.path)
	}
	return body, nil
}

// Folder is a commands folder and where it is ("project" or "user").
type Folder struct {
	Dir, Source string
	// Within, for a repository's folder, is the workspace root: Dir must
	// be a real folder below it, no symbolic link on the way
	// (mdfile.ReadDir).
	Within string
}

// ReadUser reads the user commands of folders now, sorted by name: a later
// folder wins over an earlier one for the same name, and no user command
// takes a name builtin says is a built-in's. A folder whose Dir is "" is
// skipped.
func ReadUser(folders []Folder, builtin func(name string) bool) []User {
	byName := map[string]User{}
	for _, src := range folders {
		if src.Dir == "" {
			continue
		}
		for _, u := range readCommandDir(src.Dir, src.Source, src.Within) {
			if builtin(u.name) {
				slog.Warn("user command ignored: a built-in has its name", "path", u.path)
				continue
			}
			byName[u.name] = u
		}
	}
	out := make([]User, 0, len(byName))
	for _, u := range byName {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// readCommandDir reads the *.md command files of dir (regular files only:
// a symlink could make repository content of any file on the machine).
func readCommandDir(dir, source, within string) []User {
	entries, err := mdfile.ReadDir(dir, within)
	if err != nil {
		if !os.IsNotExist(err) {
			slog.Warn("read commands folder", "dir", dir, "err", err)
		}
		return nil
	}
	var out []User
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || !mdfile.Listed(e, within) {
			continue
		}
		if !mdfile.ValidName(name) {
			slog.Warn("user command ignored: its name must be letters, digits, '.', '_' or '-'", "path", filepath.Join(dir, e.Name()))
			continue
		}
		if len(out) == maxUserCommands {
			slog.Warn("too many user commands: the rest are ignored", "dir", dir, "max", maxUserCommands)
			break
		}
		out = append(out, readCommandFile(filepath.Join(dir, e.Name()), name, source, within))
	}
	return out
}

// readCommandFile reads one command file (a repository's, below within,
// through no symbolic link); a file that cannot be used carries its err.
func readCommandFile(path, name, source, within string) User {
	u := User{name: name, source: source, path: path}
	data, err := mdfile.Read(path, within, maxUserCommandBytes)
	if err != nil {
		u.err = err
		return u
	}
	front, body, err := mdfile.Split(data)
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

// firstLineOf is s's first non-blank line.
func firstLineOf(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) != "" {
			return strings.TrimSpace(line)
		}
	}
	return ""
}
