package slash

import (
	"fmt"
	"strings"
	"unicode"
)

// Param is one parameter of a command that takes named arguments (an MCP
// server's prompt).
type Param struct {
	Name     string
	Required bool
}

// NamedArgs reads a command's arguments for params: name=value words (a
// value in double or single quotes may hold spaces); a command of one
// parameter also takes the whole text as its value. A required parameter
// left out, a name params lack or a quote left open is an error saying so.
func NamedArgs(params []Param, text string) (map[string]string, error) {
	known := map[string]bool{}
	var names []string
	for _, a := range params {
		known[a.Name] = true
		names = append(names, a.Name)
	}
	out := map[string]string{}
	words, err := splitWords(text)
	if err != nil {
		if len(params) != 1 || strings.HasPrefix(strings.TrimSpace(text), params[0].Name+"=") {
			return nil, err
		}
		// A sentence with an apostrophe ("what's new") for a prompt of
		// one argument: the whole text is its value.
		words = nil
	}
	named := len(words) > 0
	for _, w := range words {
		k, _, ok := strings.Cut(w, "=")
		if !ok || !known[k] {
			named = false
		}
	}
	switch {
	case text == "":
	case named:
		for _, w := range words {
			k, v, _ := strings.Cut(w, "=")
			out[k] = v
		}
	case len(params) == 1:
		out[params[0].Name] = text
	default:
		return nil, fmt.Errorf("give the arguments as name=value (the arguments are %s)", strings.Join(names, ", "))
	}
	var missing []string
	for _, a := range params {
		if _, ok := out[a.Name]; a.Required && !ok {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing required argument(s) %s", strings.Join(missing, ", "))
	}
	return out, nil
}

// splitWords splits text at spaces, keeping quoted runs ("…" or '…')
// together without their quotes.
func splitWords(text string) ([]string, error) {
	var out []string
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range text {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case unicode.IsSpace(r):
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a quote (%c) is not closed", quote)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
